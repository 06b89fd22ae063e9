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
 * Each model's share of wins on one tool as a horizontal bar, with its counts and its Wilson
 * 95% interval (a band on the bar), so a 100% from two battles reads as the guess it is. Used
 * after a vote and on the history page (where it updates live).
 */
export function WinRates({ winRates, labelledBy, highlight = [] }: WinRatesProps) {
  const { t, i18n } = useTranslation('battle');
  const pct = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 });
  const whole = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 0 });
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
        // The Wilson 95% interval: how far the true rate may be from this one, given so few battles.
        // (Left out if a server that predates it sends none.)
        const hasInterval = Number.isFinite(r.winRateLow) && Number.isFinite(r.winRateHigh);
        const low = hasInterval ? Math.max(0, Math.min(value, r.winRateLow)) : value;
        const high = hasInterval ? Math.min(100, Math.max(value, r.winRateHigh)) : value;
        const interval = { low: whole.format(low), high: whole.format(high) };
        const percent = t('winRates.percent', { value: pct.format(value) });
        return (
          <li
            key={r.model}
            className={`winrate winrate--${r.family}${highlight.includes(r.model) ? ' winrate--mine' : ''}`}
            data-testid="win-rate"
            data-model={r.model}
          >
            <div className="winrate__head">
              <span className="winrate__label">{r.label}</span>
              <span className="winrate__nums">
                <span className="winrate__pct" data-testid="win-rate-percent">
                  {percent}
                </span>
                {/* Read out with the bar below (its value text), so hidden from screen readers here. */}
                {hasInterval && (
                  <span className="winrate__ci" data-testid="win-rate-interval" data-low={low} data-high={high} aria-hidden="true">
                    {t('winRates.interval', interval)}
                  </span>
                )}
              </span>
            </div>
            <div
              className="winrate__track"
              role="meter"
              aria-label={t('winRates.barLabel', { label: r.label })}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={value}
              aria-valuetext={hasInterval ? t('winRates.valueText', { value: pct.format(value), ...interval }) : percent}
            >
              {hasInterval && <div className="winrate__band" style={{ left: `${low}%`, width: `${high - low}%` }} />}
              <div className="winrate__bar" style={{ width: `${value}%` }} />
              {hasInterval && <div className="winrate__range" style={{ left: `${low}%`, width: `${high - low}%` }} />}
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
