import type { ReactNode } from 'react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { CloseIcon, DuetMark } from './Icons.tsx';
import { Modal } from './Modal.tsx';

interface Props {
  id: string;
  open: boolean;
  onClose: () => void;
  children: ReactNode;
}

/** The small-screen menu: a modal side sheet. Escape, the close button and the backdrop close it. */
export function MobileDrawer({ id, open, onClose, children }: Props) {
  const { t } = useTranslation('common');
  const titleId = useId();
  return (
    <Modal id={id} open={open} onClose={onClose} className="drawer" labelledBy={titleId} testId="header-drawer">
      <div className="drawer__head">
        <span className="drawer__brand">
          <DuetMark size={28} />
          <span id={titleId}>{t('header.menu')}</span>
        </span>
        <button type="button" className="icon-btn" onClick={onClose} aria-label={t('header.closeMenu')} data-autofocus>
          <CloseIcon />
        </button>
      </div>
      {/* Rendered only while open so the bar's controls are the only ones in the page otherwise. */}
      {open && <div className="drawer__body">{children}</div>}
    </Modal>
  );
}
