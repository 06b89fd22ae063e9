import type { WinRate } from '@duet/contracts';
import { useTranslation } from 'react-i18next';
import { winRateFormatter } from './win-rate-figures.ts';
import './WinRates.css';

interface WinRatesProps {
  winRates: WinRate[];
  /** Heading id the list is labelled by (the caller draws the heading). */
  labelledBy?: string;
  /** Model ids to mark as "in this battle". */
  highlight?: string[];
  /** The figures are on their way: two placeholder rows of the real rows' size. */
  loading?: boolean;
}

/**
 * Two rows shaped like real ones, shimmering: what shows while the figures load, and what keeps
 * the "no votes yet" message the same height, so the page under it does not move either way.
 */
function PlaceholderRows() {
  return (
    <ul className="winrates winrates--placeholder" aria-hidden="true" data-testid="win-rates-placeholder">
      {[0, 1].map((i) => (
        <li key={i} className="winrate">
          <div className="winrate__head">
            <span className="winrate__label">&nbsp;</span>
            <span className="winrate__pct">&nbsp;</span>
          </div>
          <div className="winrate__meter">
            <div className="winrate__track" />
          </div>
          <p className="winrate__counts">&nbsp;</p>
        </li>
      ))}
    </ul>
  );
}

/**
 * Each model's share of wins on one tool as a horizontal bar, with its counts and its Wilson
 * 95% interval, so a 100% from two battles reads as the guess it is. The bar is the value alone
 * (a 0% model's is empty); the interval is a thin whisker under it, so it never reads as part of
 * the value. Used after a vote and on the history page (where it updates live).
 */
export function WinRates({ winRates, labelledBy, highlight = [], loading = false }: WinRatesProps) {
  const { t, i18n } = useTranslation('battle');
  const figuresOf = winRateFormatter(i18n.language);

  if (loading) return <PlaceholderRows />;
  if (winRates.length === 0) {
    return (
      <div className="winrates__empty-space">
        <PlaceholderRows />
        <p className="winrates__empty" data-testid="win-rates-empty">
          {t('winRates.empty')}
        </p>
      </div>
    );
  }

  return (
    <ul className="winrates" aria-labelledby={labelledBy} data-testid="win-rates">
      {winRates.map((r) => {
        const { value, interval, text } = figuresOf(r);
        const ends = { low: text.low, high: text.high };
        const percent = t('winRates.percent', { value: text.value });
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
                {interval && (
                  <span className="winrate__ci" data-testid="win-rate-interval" data-low={interval.low} data-high={interval.high} aria-hidden="true">
                    {t('winRates.interval', ends)}
                  </span>
                )}
              </span>
            </div>
            <div
              className="winrate__meter"
              role="meter"
              aria-label={t('winRates.barLabel', { label: r.label })}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={value}
              aria-valuetext={interval ? t('winRates.valueText', { value: text.value, ...ends }) : percent}
            >
              <div className="winrate__track" data-testid="win-rate-track">
                <div className="winrate__bar" style={{ width: `${value}%` }} data-testid="win-rate-bar" />
              </div>
              {interval && (
                <div
                  className="winrate__whisker"
                  style={{ left: `${interval.low}%`, width: `${interval.high - interval.low}%` }}
                  data-testid="win-rate-whisker"
                />
              )}
            </div>
            <p className="winrate__counts" data-testid="win-rate-counts">
              {t('winRates.counts', { wins: text.wins, ties: text.ties, bothBad: text.bothBad, battles: text.battles })}
            </p>
          </li>
        );
      })}
    </ul>
  );
}
