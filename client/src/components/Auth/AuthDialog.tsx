import type { FormEvent } from 'react';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AuthMethod } from '../../auth/actions.ts';
import { login, signup } from '../../auth/actions.ts';
import { initIdentity } from '../../auth/identity.ts';
import { authErrorMessage } from '../../auth/messages.ts';
import { toast } from '../../state/toasts.ts';
import { CloseIcon } from '../Header/Icons.tsx';
import { Modal } from '../Header/Modal.tsx';
import './AuthDialog.css';

export type AuthMode = 'login' | 'signup';

/** The identity provider's minimum (specification section 5). */
export const MIN_PASSWORD = 6;
export const MAX_NAME = 40;
const EMAIL_FORMAT = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

type Field = 'name' | 'email' | 'password';
type FieldErrors = Partial<Record<Field, string>>;

interface Props {
  open: boolean;
  mode: AuthMode;
  onModeChange: (mode: AuthMode) => void;
  onClose: () => void;
}

function GoogleLogo() {
  return (
    <svg width="18" height="18" viewBox="0 0 48 48" aria-hidden="true" focusable="false">
      <path fill="#FFC107" d="M43.6 20.5H42V20H24v8h11.3C33.7 32.7 29.2 36 24 36c-6.6 0-12-5.4-12-12s5.4-12 12-12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 12.9 4 4 12.9 4 24s8.9 20 20 20 20-8.9 20-20c0-1.2-.1-2.3-.4-3.5z" />
      <path fill="#FF3D00" d="M6.3 14.7l6.6 4.8C14.7 15.1 19 12 24 12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 16.3 4 9.7 8.3 6.3 14.7z" />
      <path fill="#4CAF50" d="M24 44c5.2 0 9.9-2 13.4-5.2l-6.2-5.2C29.2 35.1 26.7 36 24 36c-5.2 0-9.6-3.3-11.3-8l-6.5 5C9.5 39.6 16.2 44 24 44z" />
      <path fill="#1976D2" d="M43.6 20.5H42V20H24v8h11.3c-.8 2.2-2.2 4.2-4.1 5.6l6.2 5.2C37 39.2 44 34 44 24c0-1.2-.1-2.3-.4-3.5z" />
    </svg>
  );
}

/**
 * Login and Sign Up in one modal dialog: e-mail and password (and a name for sign-up), or Google.
 * Input mistakes and provider errors show in place so the visitor can correct them; the
 * specification's product outcomes (not registered, already registered, signed up, registered
 * through another provider) end the flow: the dialog closes and a toast says what happened.
 */
export default function AuthDialog({ open, mode, onModeChange, onClose }: Props) {
  const { t } = useTranslation('auth');
  const titleId = useId();
  const ids = { name: useId(), email: useId(), password: useId(), hint: useId(), error: useId() };
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState('');
  const [busy, setBusy] = useState<AuthMethod['kind'] | null>(null);
  // The state above drives the rendering; this guards against a second click before it has.
  const busyRef = useRef(false);
  const formRef = useRef<HTMLFormElement>(null);
  const signingUp = mode === 'signup';

  // Opening the dialog is the moment to fetch the SDK, so it is ready when the visitor submits.
  useEffect(() => {
    if (open) initIdentity().catch(() => undefined);
  }, [open]);

  const reset = () => {
    setFieldErrors({});
    setFormError('');
  };

  const close = () => {
    reset();
    setPassword('');
    onClose();
  };

  const switchMode = () => {
    if (busyRef.current) return;
    reset();
    onModeChange(signingUp ? 'login' : 'signup');
  };

  const validate = (): FieldErrors => {
    const errors: FieldErrors = {};
    if (signingUp && !name.trim()) errors.name = t('validation.nameRequired');
    else if (signingUp && name.trim().length > MAX_NAME) errors.name = t('validation.nameTooLong', { max: MAX_NAME });
    if (!email.trim()) errors.email = t('validation.emailRequired');
    else if (!EMAIL_FORMAT.test(email.trim())) errors.email = t('errors.invalid-email');
    if (!password) errors.password = t('validation.passwordRequired');
    else if (password.length < MIN_PASSWORD) errors.password = t('errors.weak-password');
    return errors;
  };

  const run = async (method: AuthMethod) => {
    if (busyRef.current) return;
    busyRef.current = true;
    reset();
    setBusy(method.kind);
    try {
      if (signingUp) {
        await signup(method);
        toast.success(t('messages.signupSuccess'));
        setName('');
        close();
      } else {
        await login(method);
        // The page reloads signed in; stay busy until it does.
        return;
      }
    } catch (err) {
      const message = authErrorMessage(err);
      if (message.final) {
        toast.error(t(message.key));
        close();
      } else {
        setFormError(t(message.key));
      }
    }
    busyRef.current = false;
    setBusy(null);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (busyRef.current) return;
    const errors = validate();
    setFieldErrors(errors);
    setFormError('');
    const first = (['name', 'email', 'password'] as const).find((f) => errors[f]);
    if (first) {
      formRef.current?.querySelector<HTMLInputElement>(`[name="${first}"]`)?.focus();
      return;
    }
    void run({ kind: 'password', email: email.trim(), password, ...(signingUp ? { displayName: name.trim() } : {}) });
  };

  const described = (field: Field, extra?: string) =>
    [fieldErrors[field] ? `${ids[field]}-error` : '', extra ?? ''].filter(Boolean).join(' ') || undefined;

  const fieldError = (field: Field) =>
    fieldErrors[field] ? (
      <p id={`${ids[field]}-error`} className="auth-field__error" role="alert" data-testid={`auth-${field}-error`}>
        {fieldErrors[field]}
      </p>
    ) : null;

  return (
    <Modal open={open} onClose={close} className="modal auth-dialog" labelledBy={titleId} testId="auth-dialog">
      <div className="auth-dialog__body" data-mode={mode}>
        <div className="modal__head">
          <h2 id={titleId} className="modal__title">
            {signingUp ? t('dialog.signupTitle') : t('dialog.loginTitle')}
          </h2>
          <button type="button" className="icon-btn" onClick={close} aria-label={t('dialog.close')} data-testid="auth-close">
            <CloseIcon />
          </button>
        </div>
        <p className="auth-dialog__lead">{signingUp ? t('dialog.signupLead') : t('dialog.loginLead')}</p>

        <button
          type="button"
          className="btn auth-dialog__google"
          onClick={() => void run({ kind: 'google' })}
          aria-disabled={busy !== null}
          aria-busy={busy === 'google'}
          data-testid="auth-google"
        >
          {busy === 'google' ? <span className="auth-spinner" aria-hidden="true" /> : <GoogleLogo />}
          {busy === 'google' ? t('dialog.busy') : t('dialog.google')}
        </button>

        <p className="auth-dialog__divider">
          <span>{t('dialog.or')}</span>
        </p>

        <form ref={formRef} className="auth-form" noValidate onSubmit={submit} aria-busy={busy !== null} data-testid="auth-form">
          {signingUp && (
            <div className="auth-field">
              <label htmlFor={ids.name}>{t('dialog.name')}</label>
              <input
                id={ids.name}
                name="name"
                type="text"
                autoComplete="name"
                value={name}
                onChange={(e) => setName(e.target.value)}
                readOnly={busy !== null}
                aria-invalid={Boolean(fieldErrors.name)}
                aria-describedby={described('name')}
                data-testid="auth-name"
                data-autofocus
              />
              {fieldError('name')}
            </div>
          )}
          <div className="auth-field">
            <label htmlFor={ids.email}>{t('dialog.email')}</label>
            <input
              id={ids.email}
              name="email"
              type="email"
              inputMode="email"
              autoComplete={signingUp ? 'email' : 'username'}
              spellCheck={false}
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              readOnly={busy !== null}
              aria-invalid={Boolean(fieldErrors.email)}
              aria-describedby={described('email')}
              data-testid="auth-email"
              {...(signingUp ? {} : { 'data-autofocus': true })}
            />
            {fieldError('email')}
          </div>
          <div className="auth-field">
            <label htmlFor={ids.password}>{t('dialog.password')}</label>
            <div className="auth-field__password">
              <input
                id={ids.password}
                name="password"
                type={showPassword ? 'text' : 'password'}
                autoComplete={signingUp ? 'new-password' : 'current-password'}
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                readOnly={busy !== null}
                aria-invalid={Boolean(fieldErrors.password)}
                aria-describedby={described('password', signingUp && !fieldErrors.password ? ids.hint : undefined)}
                data-testid="auth-password"
              />
              <button
                type="button"
                className="auth-field__reveal"
                onClick={() => setShowPassword((v) => !v)}
                aria-pressed={showPassword}
                aria-label={showPassword ? t('dialog.hidePassword') : t('dialog.showPassword')}
                aria-controls={ids.password}
              >
                <EyeIcon crossed={showPassword} />
              </button>
            </div>
            {signingUp && !fieldErrors.password && (
              <p id={ids.hint} className="auth-field__hint">
                {t('dialog.passwordHint')}
              </p>
            )}
            {fieldError('password')}
          </div>

          {formError && (
            <p id={ids.error} className="auth-form__error" role="alert" data-testid="auth-error">
              {formError}
            </p>
          )}

          <button type="submit" className="btn btn--primary auth-form__submit" aria-disabled={busy !== null} data-testid="auth-submit">
            {busy === 'password' && <span className="auth-spinner" aria-hidden="true" />}
            {busy === 'password' ? t('dialog.busy') : signingUp ? t('dialog.submitSignup') : t('dialog.submitLogin')}
          </button>
        </form>

        <p className="auth-dialog__switch">
          {signingUp ? t('dialog.toLoginPrompt') : t('dialog.toSignupPrompt')}{' '}
          <button type="button" className="auth-link" onClick={switchMode} aria-disabled={busy !== null} data-testid="auth-switch">
            {signingUp ? t('dialog.toLogin') : t('dialog.toSignup')}
          </button>
        </p>
      </div>
    </Modal>
  );
}

function EyeIcon({ crossed }: { crossed: boolean }) {
  return (
    <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12z"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinejoin="round"
      />
      <circle cx="12" cy="12" r="3" fill="none" stroke="currentColor" strokeWidth="2" />
      {crossed && <path d="M4 4l16 16" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />}
    </svg>
  );
}
