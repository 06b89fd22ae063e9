import type { FormEvent } from 'react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { ApiError } from '../../api/http.ts';
import { deleteAccount } from '../../auth/actions.ts';
import { toast } from '../../state/toasts.ts';
import { CloseIcon } from '../Header/Icons.tsx';
import { Modal } from '../Header/Modal.tsx';
import './AuthDialog.css';

interface Props {
  open: boolean;
  onClose: () => void;
}

/** Whether what the visitor typed is the confirmation word of their language (any letter case). */
export const confirms = (typed: string, word: string): boolean => typed.trim().toLocaleLowerCase() === word.toLocaleLowerCase();

/**
 * Deleting one's account: what goes and what stays, then the confirmation word typed out before
 * the button does anything. Nobody can undo it, so the dialog says so and asks for the word
 * rather than a second click. Done, the visitor is signed out and sent home with a toast.
 */
export default function DeleteAccountDialog({ open, onClose }: Props) {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const ids = { title: useId(), input: useId(), hint: useId(), error: useId() };
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const word = t('delete.word');
  const ready = confirms(typed, word);

  const close = () => {
    if (busy) return;
    setTyped('');
    setError('');
    onClose();
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!ready || busy) return;
    setBusy(true);
    setError('');
    try {
      await deleteAccount();
      toast.success(t('delete.done'));
      void navigate('/');
    } catch (err) {
      const expired = err instanceof ApiError && err.status === 412;
      setError(t(expired ? 'messages.invalidToken' : 'delete.failed'));
      setBusy(false);
    }
  };

  return (
    <Modal open={open} onClose={close} className="modal auth-dialog delete-dialog" labelledBy={ids.title} testId="delete-account-dialog">
      <div className="modal__head">
        <h2 id={ids.title} className="modal__title">
          {t('delete.title')}
        </h2>
        <button type="button" className="icon-btn" onClick={close} aria-label={t('dialog.close')}>
          <CloseIcon />
        </button>
      </div>
      <p className="delete-dialog__lead">{t('delete.lead')}</p>
      <ul className="delete-dialog__list">
        <li>{t('delete.goes.account')}</li>
        <li>{t('delete.goes.battles')}</li>
        <li>{t('delete.goes.gifts')}</li>
        <li>{t('delete.stays.votes')}</li>
      </ul>
      <form className="auth-form" onSubmit={(e) => void submit(e)} noValidate>
        <div className="auth-field">
          <label htmlFor={ids.input}>{t('delete.prompt', { word })}</label>
          <input
            id={ids.input}
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            aria-describedby={error ? ids.error : undefined}
            data-autofocus
            data-testid="delete-account-word"
          />
        </div>
        {error && (
          <p id={ids.error} className="auth-form__error" role="alert" data-testid="delete-account-error">
            {error}
          </p>
        )}
        <div className="delete-dialog__actions">
          <button type="button" className="btn" onClick={close} disabled={busy}>
            {t('delete.cancel')}
          </button>
          <button
            type="submit"
            className="btn delete-dialog__confirm"
            disabled={!ready}
            aria-busy={busy}
            aria-disabled={busy}
            data-testid="delete-account-confirm"
          >
            {busy ? t('dialog.busy') : t('delete.confirm')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
