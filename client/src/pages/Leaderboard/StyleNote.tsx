import type { Leaderboard } from '@duet/contracts';
import { useTranslation } from 'react-i18next';

/**
 * Under a style-controlled board: how much each style feature sways votes, as the change in the
 * odds of winning for one standard deviation more of it, with its 95% interval.
 */
export function StyleNote({ coefficients }: { coefficients: NonNullable<Leaderboard['style']> }) {
  const { t, i18n } = useTranslation('leaderboard');
  const pct = new Intl.NumberFormat(i18n.language, { style: 'percent', maximumFractionDigits: 0, signDisplay: 'exceptZero' });
  const odds = (x: number) => pct.format(Math.exp(x) - 1);
  return (
    <div className="lb-style" data-testid="leaderboard-style">
      <h3 className="lb-pairs__sub">{t('style.heading')}</h3>
      <p className="lb-pairs__lead">{t('style.lead')}</p>
      <ul className="lb-style__list">
        {coefficients.map((c) => (
          <li key={c.feature} data-feature={c.feature} data-estimate={c.estimate}>
            <span className="lb-style__name">{t(`style.${c.feature}`)}</span>{' '}
            {t('style.effect', { value: odds(c.estimate), low: odds(c.ciLow), high: odds(c.ciHigh) })}
          </li>
        ))}
      </ul>
    </div>
  );
}
