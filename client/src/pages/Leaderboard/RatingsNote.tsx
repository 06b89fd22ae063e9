import { CATEGORY_MIN_VOTES } from '@duet/contracts/schemas/leaderboard.schema';
import { useTranslation } from 'react-i18next';

const POINTS = ['blind', 'model', 'half', 'interval', 'rank', 'provisional', 'winRate', 'style', 'category', 'dedup', 'top'] as const;

/** A short, plain account of where the numbers come from. */
export function RatingsNote() {
  const { t } = useTranslation('leaderboard');
  return (
    <section className="lb-card lb-note" aria-labelledby="lb-note-heading" data-testid="leaderboard-note">
      <h2 id="lb-note-heading" className="lb-h2">
        {t('note.heading')}
      </h2>
      <ul className="lb-note__list">
        {POINTS.map((key) => (
          <li key={key}>{t(`note.${key}`, { min: CATEGORY_MIN_VOTES })}</li>
        ))}
      </ul>
    </section>
  );
}
