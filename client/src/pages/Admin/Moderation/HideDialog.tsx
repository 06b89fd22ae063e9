import { OPERATOR_REASON_MAX_CHARS } from '@duet/contracts/schemas/admin.schema';
import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../../components/Header/Modal.tsx';

/** Asks why a battle is hidden; Enter confirms, Escape cancels. */
export function HideDialog({ open, onHide, onCancel }: { open: boolean; onHide: (reason: string) => void; onCancel: () => void }) {
  const { t } = useTranslation('admin');
  const titleId = useId();
  const [reason, setReason] = useState('');

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const trimmed = reason.trim();
    if (!trimmed) return;
    setReason('');
    onHide(trimmed);
  };

  return (
    <Modal open={open} onClose={onCancel} className="modal adm-dialog" labelledBy={titleId} testId="admin-hide-dialog">
      <h2 id={titleId} className="modal__title">
        {t('moderation.hide.title')}
      </h2>
      <form className="adm-form" onSubmit={submit}>
        <label className="adm-field">
          <span className="adm-field__label">{t('moderation.hide.reason')}</span>
          <input
            type="text"
            required
            maxLength={OPERATOR_REASON_MAX_CHARS}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            data-autofocus
            data-testid="admin-hide-reason"
          />
        </label>
        <p className="adm-muted adm-small">{t('moderation.hide.hint')}</p>
        <div className="adm-actions adm-actions--end">
          <button type="button" className="btn" onClick={onCancel}>
            {t('confirm.cancel')}
          </button>
          <button type="submit" className="btn btn--primary adm-btn-danger" disabled={!reason.trim()} data-testid="admin-hide-submit">
            {t('moderation.hide.submit')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
