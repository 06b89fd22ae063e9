import { compareBoardModels } from '@duet/contracts/schemas/leaderboard.schema';
import type { LeaderboardModel } from '@duet/contracts';
import type { ReactNode } from 'react';
import { useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { Axis } from './scale.ts';
import { axisPercent, ratingAxis } from './scale.ts';

interface LeaderboardTableProps {
  models: LeaderboardModel[];
  /** Counted votes a model needs on this board to be ranked. */
  minVotesRanked: number;
  /** What the table covers ("All activities" or a tool's title), for the caption. */
  scope: string;
  /** Drawn under the heading (when the ratings were computed, from how many votes). */
  children?: ReactNode;
}

const COLUMNS = 9;

/** The table's number formats: whole points and counts, percentages, seconds. */
const formatsOf = (lang: string) => ({
  num: new Intl.NumberFormat(lang, { maximumFractionDigits: 0 }),
  pct: new Intl.NumberFormat(lang, { maximumFractionDigits: 1 }),
  sec: new Intl.NumberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 }),
});
type Formats = ReturnType<typeof formatsOf>;

/**
 * The models by rank, with each rating's 95% interval drawn on one axis shared by all rows,
 * so overlapping intervals (models the votes cannot yet tell apart) are easy to spot; then, under
 * a heading of their own, the provisional ratings, with no rank and the votes they still need.
 */
export function LeaderboardTable({ models, minVotesRanked, scope, children }: LeaderboardTableProps) {
  const { t, i18n } = useTranslation('leaderboard');
  const headingId = useId();
  const formats = useMemo(() => formatsOf(i18n.language), [i18n.language]);
  const { num } = formats;

  const rows = useMemo(() => [...models].sort((a, b) => compareBoardModels(a, b) || a.label.localeCompare(b.label)), [models]);
  const ranked = rows.filter((m) => m.rank !== null);
  const provisional = rows.filter((m) => m.rank === null);
  // The axis spans the ranked models' intervals (a provisional one's, often far wider, runs off its
  // ends) and every model's rating.
  const axis = useMemo(() => {
    const anyRanked = models.some((m) => m.rank !== null);
    return ratingAxis(models.map((m) => (m.rank === null && anyRanked ? { rating: m.rating, ciLow: null, ciHigh: null } : m)));
  }, [models]);
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
          {ranked.length > 0 && (
            <tbody>
              {ranked.map((m) => (
                <BoardRow key={m.model} m={m} axis={axis} minVotesRanked={minVotesRanked} formats={formats} />
              ))}
            </tbody>
          )}
          {provisional.length > 0 && (
            <tbody className="lb-provisional" data-testid="leaderboard-provisional">
              <tr className="lb-provisional__head">
                <th scope="rowgroup" colSpan={COLUMNS}>
                  <span className="lb-provisional__text">
                    <span className="lb-provisional__title">{t('provisional.title')}</span>{' '}
                    {minVotesRanked > 0 ? t('provisional.rule', { count: minVotesRanked, min: num.format(minVotesRanked) }) : t('provisional.ruleInterval')}
                  </span>
                </th>
              </tr>
              {provisional.map((m) => (
                <BoardRow key={m.model} m={m} axis={axis} minVotesRanked={minVotesRanked} formats={formats} />
              ))}
            </tbody>
          )}
        </table>
      </div>
    </>
  );
}

/**
 * One model's row. A provisional one says so in words (a badge and the votes it still needs, read
 * with the model's name), not by its look alone, and its rank cell says it has none.
 */
function BoardRow({ m, axis, minVotesRanked, formats }: { m: LeaderboardModel; axis: Axis; minVotesRanked: number; formats: Formats }) {
  const { t } = useTranslation('leaderboard');
  const { num, pct, sec } = formats;
  const rating = Math.round(m.rating);
  // Rounded outward, so an interval of any width is never shown as "−0 / +0".
  const shown = m.ciLow !== null && m.ciHigh !== null ? { low: Math.floor(m.ciLow), high: Math.ceil(m.ciHigh) } : null;
  const dot = axisPercent(axis, m.rating);
  const provisional = m.rank === null;

  return (
    <tr
      className={`lb-row lb-row--${m.family}${m.rank === 1 ? ' lb-row--top' : ''}${provisional ? ' lb-row--provisional' : ''}`}
      data-testid="leaderboard-row"
      data-model={m.model}
      data-provisional={provisional}
    >
      <td className="lb-col-rank" data-testid="leaderboard-rank">
        {m.rank === null ? (
          <>
            <span className="lb-rank lb-rank--none" aria-hidden="true">
              –
            </span>
            <span className="visually-hidden">{t('provisional.noRank')}</span>
          </>
        ) : (
          <span className="lb-rank">{num.format(m.rank)}</span>
        )}
      </td>
      <th scope="row" className="lb-col-model">
        <span className="lb-model">
          <span className="lb-model__dot" aria-hidden="true" />
          <span className="lb-model__label">{m.label}</span>
        </span>
        {provisional && (
          <span className="lb-model__status" data-testid="leaderboard-provisional-status">
            <span className="lb-badge">{t('provisional.badge')}</span>{' '}
            <span className="lb-model__votes">
              {m.battles < minVotesRanked
                ? t('provisional.needs', { count: minVotesRanked, votes: num.format(m.battles), min: num.format(minVotesRanked) })
                : t('provisional.noInterval', { count: m.battles, votes: num.format(m.battles) })}
            </span>
          </span>
        )}
      </th>
      <td className="lb-col-num lb-rating" data-testid="leaderboard-rating">
        {num.format(rating)}
      </td>
      <td className="lb-col-interval" data-testid="leaderboard-interval" data-low={shown?.low ?? ''} data-high={shown?.high ?? ''}>
        <span className="lb-interval">
          <span className="lb-whisker" aria-hidden="true">
            {axis.ticks.map((v) => (
              <span key={v} className="lb-whisker__grid" style={{ left: `${axisPercent(axis, v)}%` }} />
            ))}
            {shown && (
              <span
                className="lb-whisker__range"
                style={{ left: `${axisPercent(axis, shown.low)}%`, width: `${Math.max(axisPercent(axis, shown.high) - axisPercent(axis, shown.low), 0)}%` }}
              />
            )}
            <span className="lb-whisker__dot" style={{ left: `${dot}%` }} />
          </span>
          {shown ? (
            <>
              <span className="lb-interval__text" aria-hidden="true">
                {t('table.plusMinus', { minus: num.format(rating - shown.low), plus: num.format(shown.high - rating) })}
              </span>
              <span className="visually-hidden">{t('table.intervalText', { low: num.format(shown.low), high: num.format(shown.high) })}</span>
            </>
          ) : (
            <>
              <span className="lb-interval__text" aria-hidden="true">
                {t('table.noInterval')}
              </span>
              <span className="visually-hidden">{t('table.noIntervalText')}</span>
            </>
          )}
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
          <span className="lb-speed__spread">{t('speed.spread', { low: sec.format(m.speed.ttftMsP25 / 1000), high: sec.format(m.speed.ttftMsP75 / 1000) })}</span>
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
}
