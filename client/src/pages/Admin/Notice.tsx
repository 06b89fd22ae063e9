import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/http.ts';

/** What went wrong, in the API's words; a rate limit says when to try again. */
export function ErrorNotice({ error, testId }: { error: unknown; testId?: string }) {
  const { t } = useTranslation('admin');
  if (!error) return null;
  let text: string;
  if (error instanceof ApiError && error.code === 'rate_limited') {
    text = error.retryAfterSeconds ? t('errors.rateLimitedFor', { seconds: error.retryAfterSeconds }) : t('errors.rateLimited');
  } else if (error instanceof ApiError && error.code === 'network_error') {
    text = t('errors.network');
  } else if (error instanceof ApiError && error.code === 'battle_not_finished') {
    text = t('moderation.notFinished');
  } else {
    text = error instanceof Error ? error.message : String(error);
  }
  const code = error instanceof ApiError ? error.code : 'error';
  return (
    <p className="adm-alert adm-alert--error" role="alert" data-testid={testId ?? 'admin-error'} data-code={code}>
      {text}
    </p>
  );
}

/** A change went through. The live region is always there, so screen readers hear what appears in it. */
export function DoneNotice({ text, testId }: { text: string | null; testId?: string }) {
  return (
    <div role="status" className="adm-live">
      {text && (
        <p className="adm-alert adm-alert--done" data-testid={testId}>
          {text}
        </p>
      )}
    </div>
  );
}
