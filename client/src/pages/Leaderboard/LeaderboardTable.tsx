import type { LeaderboardModel } from '@duet/contracts';
import type { ReactNode } from 'react';
import { useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { axisPercent, ratingAxis } from './scale.ts';

interface LeaderboardTableProps {
  models: LeaderboardModel[];
  /** What the table covers ("All activities" or a tool's title), for the caption. */
  scope: string;
  /** Drawn under the heading (when the ratings were computed, from how many votes). */
  children?: ReactNode;
}

/**
 * The models by rank, with each rating's 95% interval drawn on one axis shared by all rows,
 * so overlapping intervals (models the votes cannot yet tell apart) are easy to spot.
 */
export function LeaderboardTable({ models, scope, children }: LeaderboardTableProps) {
  const { t, i18n } = useTranslation('leaderboard');
  const headingId = useId();
  const num = useMemo(() => new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 0 }), [i18n.language]);
  const pct = useMemo(() => new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 }), [i18n.language]);
  const sec = useMemo(() => new Intl.NumberFormat(i18n.language, { minimumFractionDigits: 1, maximumFractionDigits: 1 }), [i18n.language]);

  const rows = useMemo(
    () => [...models].sort((a, b) => a.rank - b.rank || b.rating - a.rating || a.label.localeCompare(b.label)),
    [models],
  );
  const axis = useMemo(() => ratingAxis(models), [models]);
  // Labels near an end are anchored on their inner side so they stay inside the column.
  const labelled = axis.ticks
    .map((v) => ({ v, p: axisPercent(axis, v) }))
    .filter(({ p }) => p >= 1 && p <= 99)
    .map(({ v, p }) => ({ v, p, align: p < 10 ? 'start' : p > 90 ? 'end' : 'middle' }));

  const caption = t('table.caption', { scope });

  return (
    <>
      <div className="lb-board__head">
        <h2 id={headingId} className="lb-h2">
          {caption}
        </h2>
        {children}
      </div>
      <p className="lb-scroll-hint">{t('table.scrollHint')}</p>
      <div
        className="lb-scroll"
        role="region"
        aria-labelledby={headingId}
        // A scrollable region must be reachable by keyboard to be scrolled without a pointer.
        tabIndex={0}
      >
        <table className="lb-table" data-testid="leaderboard-table">
          <caption className="visually-hidden">{caption}</caption>
          <thead>
            <tr>
              <th scope="col" className="lb-col-rank">
                {t('table.rank')}
              </th>
              <th scope="col" className="lb-col-model">
                {t('table.model')}
              </th>
              <th scope="col" className="lb-col-num">
                {t('table.rating')}
              </th>
              <th scope="col" className="lb-col-interval">
                <span className="lb-interval">
                  <span className="lb-interval__head">
                    <span>{t('table.interval')}</span>
                    <span className="lb-axis" aria-hidden="true">
                      {labelled.map(({ v, p, align }) => (
                        <span key={v} className={`lb-axis__tick lb-axis__tick--${align}`} style={{ left: `${p}%` }}>
                          {num.format(v)}
                        </span>
                      ))}
                    </span>
                  </span>
                  <span className="lb-interval__text" aria-hidden="true" />
                </span>
              </th>
              <th scope="col" className="lb-col-num">
                {t('table.battles')}
              </th>
              <th scope="col" className="lb-col-num">
                {t('table.winRate')}
              </th>
              <th scope="col" className="lb-col-num">
                <abbr title={t('speed.ttftLong')}>{t('speed.ttft')}</abbr>
              </th>
              <th scope="col" className="lb-col-num">
                {t('speed.tps')}
              </th>
              <th scope="col" className="lb-col-num">
                {t('speed.chars')}
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((m) => {
              const low = axisPercent(axis, m.ciLow);
              const high = axisPercent(axis, m.ciHigh);
              const dot = axisPercent(axis, m.rating);
              const rating = Math.round(m.rating);
              return (
                <tr
                  key={m.model}
                  className={`lb-row lb-row--${m.family}${m.rank === 1 ? ' lb-row--top' : ''}`}
                  data-testid="leaderboard-row"
                  data-model={m.model}
                >
                  <td className="lb-col-rank" data-testid="leaderboard-rank">
                    <span className="lb-rank">{num.format(m.rank)}</span>
                  </td>
                  <th scope="row" className="lb-col-model">
                    <span className="lb-model">
                      <span className="lb-model__dot" aria-hidden="true" />
                      <span className="lb-model__label">{m.label}</span>
                    </span>
                  </th>
                  <td className="lb-col-num lb-rating" data-testid="leaderboard-rating">
                    {num.format(rating)}
                  </td>
                  <td
                    className="lb-col-interval"
                    data-testid="leaderboard-interval"
                    data-low={Math.round(m.ciLow)}
                    data-high={Math.round(m.ciHigh)}
                  >
                    <span className="lb-interval">
                      <span className="lb-whisker" aria-hidden="true">
                        {axis.ticks.map((v) => (
                          <span key={v} className="lb-whisker__grid" style={{ left: `${axisPercent(axis, v)}%` }} />
                        ))}
                        <span className="lb-whisker__range" style={{ left: `${low}%`, width: `${Math.max(high - low, 0)}%` }} />
                        <span className="lb-whisker__dot" style={{ left: `${dot}%` }} />
                      </span>
                      <span className="lb-interval__text" aria-hidden="true">
                        {t('table.plusMinus', {
                          minus: num.format(Math.max(0, rating - Math.round(m.ciLow))),
                          plus: num.format(Math.max(0, Math.round(m.ciHigh) - rating)),
                        })}
                      </span>
                      <span className="visually-hidden">
                        {t('table.intervalText', { low: num.format(m.ciLow), high: num.format(m.ciHigh) })}
                      </span>
                    </span>
                  </td>
                  <td className="lb-col-num" data-testid="leaderboard-battles">
                    {num.format(m.battles)}
                  </td>
                  <td className="lb-col-num" data-testid="leaderboard-winrate">
                    {t('table.percent', { value: pct.format(m.winRate) })}
                  </td>
                  <td className="lb-col-num lb-speed" data-testid="leaderboard-ttft">
                    {m.speed.ttftMsP50 === null ? t('speed.none') : t('speed.seconds', { value: sec.format(m.speed.ttftMsP50 / 1000) })}
                    {m.speed.ttftMsP25 !== null && m.speed.ttftMsP75 !== null && (
                      <span className="lb-speed__spread">
                        {t('speed.spread', { low: sec.format(m.speed.ttftMsP25 / 1000), high: sec.format(m.speed.ttftMsP75 / 1000) })}
                      </span>
                    )}
                  </td>
                  <td className="lb-col-num" data-testid="leaderboard-tps">
                    {m.speed.tokensPerSecondP50 === null ? t('speed.none') : num.format(m.speed.tokensPerSecondP50)}
                  </td>
                  <td className="lb-col-num" data-testid="leaderboard-chars">
                    {m.speed.answerCharsP50 === null ? t('speed.none') : num.format(m.speed.answerCharsP50)}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}
