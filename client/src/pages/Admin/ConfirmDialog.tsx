import { useCallback, useId, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../components/Header/Modal.tsx';

export interface ConfirmRequest {
  title: string;
  message: string;
  confirmLabel: string;
}

/**
 * Asks the operator before something final or risky: `confirm(request)` opens a dialog and
 * resolves true only when they confirm (Escape, the backdrop and Cancel say no). Focus starts on
 * Cancel, so an Enter pressed by habit does nothing harmful.
 */
export function useConfirm(): [(request: ConfirmRequest) => Promise<boolean>, ReactNode] {
  const [request, setRequest] = useState<ConfirmRequest | null>(null);
  const resolver = useRef<((ok: boolean) => void) | null>(null);

  const confirm = useCallback((next: ConfirmRequest) => {
    resolver.current?.(false);
    setRequest(next);
    return new Promise<boolean>((resolve) => {
      resolver.current = resolve;
    });
  }, []);

  const answer = (ok: boolean) => {
    resolver.current?.(ok);
    resolver.current = null;
    setRequest(null);
  };

  return [confirm, <ConfirmDialog key="confirm" request={request} onAnswer={answer} />];
}

function ConfirmDialog({ request, onAnswer }: { request: ConfirmRequest | null; onAnswer: (ok: boolean) => void }) {
  const { t } = useTranslation('admin');
  const titleId = useId();
  // The last request stays drawn while the dialog closes.
  const [shown, setShown] = useState<ConfirmRequest | null>(request);
  if (request && request !== shown) setShown(request);

  return (
    <Modal open={request !== null} onClose={() => onAnswer(false)} className="modal adm-dialog" labelledBy={titleId} testId="admin-confirm">
      <h2 id={titleId} className="modal__title">
        {shown?.title}
      </h2>
      <p className="adm-dialog__text">
        {shown?.message}
      </p>
      <div className="adm-actions adm-actions--end">
        <button type="button" className="btn" data-autofocus onClick={() => onAnswer(false)} data-testid="admin-confirm-cancel">
          {t('confirm.cancel')}
        </button>
        <button type="button" className="btn btn--primary adm-btn-danger" onClick={() => onAnswer(true)} data-testid="admin-confirm-ok">
          {shown?.confirmLabel}
        </button>
      </div>
    </Modal>
  );
}
