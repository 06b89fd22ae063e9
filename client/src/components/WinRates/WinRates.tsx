import type { WinRate } from '@duet/shared';
import { useTranslation } from 'react-i18next';
import './WinRates.css';

interface WinRatesProps {
  winRates: WinRate[];
  /** Heading id the list is labelled by (the caller draws the heading). */
  labelledBy?: string;
  /** Model ids to mark as "in this battle". */
  highlight?: string[];
}

/**
 * Each model's share of wins on one tool as a horizontal bar, with its counts. Used after a
 * vote and on the history page (where it updates live).
 */
export function WinRates({ winRates, labelledBy, highlight = [] }: WinRatesProps) {
  const { t, i18n } = useTranslation('battle');
  const pct = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 });
  const num = new Intl.NumberFormat(i18n.language);

  if (winRates.length === 0) {
    return (
      <p className="winrates__empty" data-testid="win-rates-empty">
        {t('winRates.empty')}
      </p>
    );
  }

  return (
    <ul className="winrates" aria-labelledby={labelledBy} data-testid="win-rates">
      {winRates.map((r) => {
        const value = Math.max(0, Math.min(100, r.winRate));
        return (
          <li
            key={r.model}
            className={`winrate winrate--${r.family}${highlight.includes(r.model) ? ' winrate--mine' : ''}`}
            data-testid="win-rate"
            data-model={r.model}
          >
            <div className="winrate__head">
              <span className="winrate__label">{r.label}</span>
              <span className="winrate__pct" data-testid="win-rate-percent">
                {t('winRates.percent', { value: pct.format(value) })}
              </span>
            </div>
            <div
              className="winrate__track"
              role="meter"
              aria-label={t('winRates.barLabel', { label: r.label })}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={value}
              aria-valuetext={t('winRates.percent', { value: pct.format(value) })}
            >
              <div className="winrate__bar" style={{ width: `${value}%` }} />
            </div>
            <p className="winrate__counts" data-testid="win-rate-counts">
              {t('winRates.counts', {
                wins: num.format(r.wins),
                ties: num.format(r.ties),
                bothBad: num.format(r.bothBad),
                battles: num.format(r.battles),
              })}
            </p>
          </li>
        );
      })}
    </ul>
  );
}
