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
import { FormAlert, FormCard } from './FormCard.tsx';

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
    <FormCard
      titleId="adm-account-title"
      title={t('signIn.account.title')}
      lead={t('signIn.account.lead')}
      className="adm-signin__way"
      leadClassName="adm-muted"
      testId="admin-account-form"
      onSubmit={submit}
      actions={
        <>
          <button type="submit" className="btn btn--primary" disabled={busy} data-testid="admin-account-submit">
            {t('signIn.account.submit')}
          </button>
          <button type="button" className="btn" disabled={busy} onClick={() => void run({ kind: 'google' })}>
            {t('signIn.account.google')}
          </button>
        </>
      }
    >
      <label className="adm-field">
        <span className="adm-field__label">{t('signIn.account.email')}</span>
        <input type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} data-testid="admin-email" />
      </label>
      <SecretField label={t('signIn.account.password')} autoComplete="current-password" value={password} onChange={setPassword} testId="admin-password" />
      <FormAlert text={error} />
    </FormCard>
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
    <FormCard
      titleId="adm-token-title"
      title={t('signIn.token.title')}
      lead={t('signIn.token.lead')}
      className="adm-signin__way"
      leadClassName="adm-muted"
      testId="admin-token-form"
      onSubmit={(e) => void submit(e)}
      actions={
        <button type="submit" className="btn btn--primary" disabled={busy} data-testid="admin-token-submit">
          {t('signIn.token.submit')}
        </button>
      }
    >
      <SecretField label={t('signIn.token.label')} autoComplete="off" spellCheck={false} value={token} onChange={setToken} testId="admin-token" />
      <FormAlert text={error} />
    </FormCard>
  );
}

/** A required secret (a password, a token), typed where no one looking on can read it. */
function SecretField(props: { label: string; autoComplete: string; spellCheck?: boolean; value: string; onChange: (value: string) => void; testId: string }) {
  return (
    <label className="adm-field">
      <span className="adm-field__label">{props.label}</span>
      <input
        type="password"
        autoComplete={props.autoComplete}
        spellCheck={props.spellCheck}
        required
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        data-testid={props.testId}
      />
    </label>
  );
}
