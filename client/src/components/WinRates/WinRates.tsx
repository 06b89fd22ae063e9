import type { WinRate } from '@duet/shared';
import { useTranslation } from 'react-i18next';
import { winRateFormatter } from './win-rate-figures.ts';
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
  const figuresOf = winRateFormatter(i18n.language);

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
              className="winrate__track"
              role="meter"
              aria-label={t('winRates.barLabel', { label: r.label })}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={value}
              aria-valuetext={interval ? t('winRates.valueText', { value: text.value, ...ends }) : percent}
            >
              {interval && <div className="winrate__band" style={{ left: `${interval.low}%`, width: `${interval.high - interval.low}%` }} />}
              <div className="winrate__bar" style={{ width: `${value}%` }} />
              {interval && <div className="winrate__range" style={{ left: `${interval.low}%`, width: `${interval.high - interval.low}%` }} />}
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
