import type { ReactNode } from 'react';
import { useEffect, useRef } from 'react';

interface ModalProps {
  open: boolean;
  onClose: () => void;
  id?: string;
  className?: string;
  /** Id of the element naming the dialog (or use `label`). */
  labelledBy?: string;
  label?: string;
  testId?: string;
  children: ReactNode;
}

/**
 * A native modal `<dialog>`: the browser keeps focus inside and closes it on Escape. A click
 * on the backdrop closes it too. On opening, focus goes to the element marked
 * `data-autofocus` (else the browser's choice); on closing the browser returns it.
 */
export function Modal({ open, onClose, id, className, labelledBy, label, testId, children }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);

  return (
    <dialog
      ref={ref}
      id={id}
      className={className}
      aria-labelledby={labelledBy}
      aria-label={label}
      data-testid={testId}
      onClose={onClose}
      onClick={(e) => {
        // The dialog box itself has no padding, so a click whose target is the dialog
        // landed on the backdrop.
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <div className="modal__inner">{children}</div>
    </dialog>
  );
}
