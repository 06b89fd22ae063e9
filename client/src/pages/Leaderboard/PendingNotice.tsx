import type { Leaderboard } from '@duet/contracts';
import { useTranslation } from 'react-i18next';

/** "N counted votes wait for the next update, in about 40 seconds": shown whenever votes are pending. */
export function PendingNotice({ pending, now }: { pending: NonNullable<Leaderboard['pending']>; now: number }) {
  const { t, i18n } = useTranslation('leaderboard');
  if (pending.votes === 0) return null;
  const num = new Intl.NumberFormat(i18n.language);
  let when = t('pending.unscheduled');
  if (pending.nextRefitAt) {
    const seconds = Math.round((Date.parse(pending.nextRefitAt) - now) / 1000);
    const rtf = new Intl.RelativeTimeFormat(i18n.language, { numeric: 'auto' });
    when = seconds < 5 ? t('pending.soon') : seconds < 90 ? rtf.format(seconds, 'second') : rtf.format(Math.round(seconds / 60), 'minute');
  }
  return (
    <p className="lb-pending" role="status" data-testid="leaderboard-pending" data-count={pending.votes}>
      <span className="lb-pending__dot" aria-hidden="true" />
      {t('pending.waiting', { count: pending.votes, votes: num.format(pending.votes), when })}
    </p>
  );
}
