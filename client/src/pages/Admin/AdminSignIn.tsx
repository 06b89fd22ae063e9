import { useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { signInWithAccount, signInWithToken } from '../../api/admin-sign-in.ts';
import type { AccountMethod } from '../../api/admin-sign-in.ts';
import { useAdminSession } from '../../api/admin-session.ts';
import { ApiError } from '../../api/http.ts';
import { useMeta } from '../../api/use-meta.ts';
import { authErrorMessage } from '../../auth/messages.ts';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';

/** The console's sign-in: an operator's account (the `admin` claim) or ADMIN_TOKEN. */
export function AdminSignIn() {
  const { t } = useTranslation('admin');
  const accounts = useMeta()?.accounts ?? true;
  const reason = useAdminSession((s) => s.reason);
  const refusedEmail = useAdminSession((s) => s.refusedEmail);
  useDocumentTitle(t('signIn.documentTitle'));

  return (
    <div className="adm container adm-signin" data-testid="admin-sign-in">
      <h1 className="adm-title">{t('signIn.title')}</h1>
      <p className="adm-lead">{t('signIn.lead')}</p>
      {reason && (
        <p className="adm-alert adm-alert--error" role="alert" data-testid="admin-sign-in-reason" data-reason={reason}>
          {reason === 'not-operator' ? t('signIn.notOperator', { email: refusedEmail ?? '' }) : t(`signIn.reason.${reason}`)}
        </p>
      )}
      <div className="adm-signin__ways">
        {accounts && <AccountForm />}
        <TokenForm />
      </div>
    </div>
  );
}

function AccountForm() {
  const { t } = useTranslation('admin');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const run = async (method: AccountMethod) => {
    setBusy(true);
    setError(null);
    try {
      await signInWithAccount(method);
    } catch (err) {
      setError(t(authErrorMessage(err).key, { ns: 'auth' }));
    } finally {
      setBusy(false);
    }
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void run({ kind: 'password', email, password });
  };

  return (
    <section className="adm-card adm-signin__way" aria-labelledby="adm-account-title">
      <h2 id="adm-account-title" className="adm-h2">
        {t('signIn.account.title')}
      </h2>
      <p className="adm-muted">{t('signIn.account.lead')}</p>
      <form className="adm-form" onSubmit={submit} data-testid="admin-account-form">
        <label className="adm-field">
          <span className="adm-field__label">{t('signIn.account.email')}</span>
          <input type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} data-testid="admin-email" />
        </label>
        <label className="adm-field">
          <span className="adm-field__label">{t('signIn.account.password')}</span>
          <input
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            data-testid="admin-password"
          />
        </label>
        {error && (
          <p className="adm-alert adm-alert--error" role="alert">
            {error}
          </p>
        )}
        <div className="adm-actions">
          <button type="submit" className="btn btn--primary" disabled={busy} data-testid="admin-account-submit">
            {t('signIn.account.submit')}
          </button>
          <button type="button" className="btn" disabled={busy} onClick={() => void run({ kind: 'google' })}>
            {t('signIn.account.google')}
          </button>
        </div>
      </form>
    </section>
  );
}

function TokenForm() {
  const { t } = useTranslation('admin');
  const [token, setToken] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await signInWithToken(token.trim());
    } catch (err) {
      // A refused token is said above the forms; anything else here.
      if (!(err instanceof ApiError && (err.status === 401 || err.status === 403))) setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="adm-card adm-signin__way" aria-labelledby="adm-token-title">
      <h2 id="adm-token-title" className="adm-h2">
        {t('signIn.token.title')}
      </h2>
      <p className="adm-muted">{t('signIn.token.lead')}</p>
      <form className="adm-form" onSubmit={(e) => void submit(e)} data-testid="admin-token-form">
        <label className="adm-field">
          <span className="adm-field__label">{t('signIn.token.label')}</span>
          <input
            type="password"
            autoComplete="off"
            spellCheck={false}
            required
            value={token}
            onChange={(e) => setToken(e.target.value)}
            data-testid="admin-token"
          />
        </label>
        {error && (
          <p className="adm-alert adm-alert--error" role="alert">
            {error}
          </p>
        )}
        <div className="adm-actions">
          <button type="submit" className="btn btn--primary" disabled={busy} data-testid="admin-token-submit">
            {t('signIn.token.submit')}
          </button>
        </div>
      </form>
    </section>
  );
}
