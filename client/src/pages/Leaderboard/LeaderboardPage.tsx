import { findTool, TOOLS } from '@duet/contracts/catalog';
import { LEADERBOARD_CATEGORIES, RATING_INTERVAL_METHODS } from '@duet/contracts/schemas/leaderboard.schema';
import type { Leaderboard, LeaderboardCategory, LeaderboardControl, RatingIntervalMethod } from '@duet/contracts';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ChangeEvent } from 'react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { duetApi } from '../../api/duet-api.ts';
import { BoardControls } from './BoardControls.tsx';
import { DedupNotice } from './DedupNotice.tsx';
import { LeaderboardTable } from './LeaderboardTable.tsx';
import { ModelReasons } from './ModelReasons.tsx';
import { OwnBoard } from './OwnBoard.tsx';
import { PairwiseMatrix } from './PairwiseMatrix.tsx';
import { PendingNotice } from './PendingNotice.tsx';
import { RatingHistory } from './RatingHistory.tsx';
import { StyleNote } from './StyleNote.tsx';
import { RatingsNote } from './RatingsNote.tsx';
import { relativeTime } from './scale.ts';
import './LeaderboardPage.css';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { useToolStats } from '../../api/use-tool-stats.ts';
import { useErrorToast } from '../../hooks/use-error-toast.ts';

/** After a vote on a watched tool, refetch at most this often (the ratings take a moment to recompute). */
const REFRESH_MS = 4_000;

/** The current time, ticking every `ms` so "updated 3 minutes ago" stays true. */
function useNow(ms: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = window.setInterval(() => setNow(Date.now()), ms);
    return () => window.clearInterval(id);
  }, [ms]);
  return now;
}

/** Refetch this long after the next refit is due, so its ratings are there (bounded: a few seconds to a minute). */
function refetchAfterRefit(board: Leaderboard | undefined): number | false {
  if (!board?.pending?.votes) return false;
  const due = board.pending.nextRefitAt ? Date.parse(board.pending.nextRefitAt) - Date.now() : 30_000;
  return Math.min(60_000, Math.max(3_000, due + 2_000));
}

/**
 * `/leaderboard?tool=|category=&control=&dedup=`: the models' Bradley-Terry ratings with 95% intervals,
 * overall, per activity or per category, as voted or style-controlled, with or without the votes
 * over the prompt cap (`dedup=off`: with them); then who beats whom, and
 * the ratings over the last days.
 */
export default function LeaderboardPage() {
  const { t, i18n } = useTranslation('leaderboard');
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const raw = params.get('tool');
  const tool = raw ? findTool(raw) : undefined;
  const slug = tool?.slug ?? null;
  const rawCategory = params.get('category');
  const category = (LEADERBOARD_CATEGORIES as readonly string[]).includes(rawCategory ?? '') && !tool ? (rawCategory as LeaderboardCategory) : null;
  const control: LeaderboardControl = params.get('control') === 'style' ? 'style' : 'none';
  const rawIntervals = params.get('intervals');
  // Unset: the gateway's default (RATING_INTERVALS), which the board then names.
  const intervals = (RATING_INTERVAL_METHODS as readonly string[]).includes(rawIntervals ?? '') ? (rawIntervals as RatingIntervalMethod) : null;
  // Style-controlled boards are de-duplicated only.
  const dedup = params.get('dedup') === 'off' && control === 'none' ? 'off' : null;
  const toolTitle = tool ? t(`contents:${tool.titleKey}`) : null;
  const now = useNow(30_000);

  // An unknown activity falls back to all of them; a route segment becomes the slug.
  useEffect(() => {
    if (raw === null || raw === slug) return;
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (slug) next.set('tool', slug);
        else next.delete('tool');
        return next;
      },
      { replace: true },
    );
  }, [raw, slug, setParams]);

  useDocumentTitle(toolTitle ? t('documentTitleTool', { title: toolTitle }) : t('documentTitle'));

  const board = { tool: slug, category, control };
  const { data, error, errorUpdatedAt, isPending, isError, isPlaceholderData, refetch } = useQuery({
    queryKey: ['leaderboard', slug, category, control, intervals, dedup],
    queryFn: () => duetApi.leaderboard({ ...board, intervals, dedup }),
    // Switching the filter keeps the old table (dimmed) until the new one arrives.
    placeholderData: keepPreviousData,
    // Votes are waiting for the next refit: look again once it is done.
    refetchInterval: (query) => refetchAfterRefit(query.state.data),
  });
  const history = useQuery({
    queryKey: ['leaderboard-history', slug, category, control],
    queryFn: () => duetApi.leaderboardHistory(board),
  });

  useErrorToast(error, errorUpdatedAt, t('battle:errors.generic'));

  // New votes on the activities shown: refresh the ratings, at most every few seconds.
  const refresh = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(refresh.current), []);
  useToolStats(slug ? [slug] : TOOLS.map((x) => x.slug), () => {
    if (refresh.current !== undefined) return;
    refresh.current = window.setTimeout(() => {
      refresh.current = undefined;
      void queryClient.invalidateQueries({ queryKey: ['leaderboard'] });
    }, REFRESH_MS);
  });

  /** Sets (or, with null, removes) query parameters; a tool and a category exclude each other. */
  const setParam = (changes: Record<string, string | null>) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        for (const [key, value] of Object.entries(changes)) {
          if (value) next.set(key, value);
          else next.delete(key);
        }
        return next;
      },
      { replace: true },
    );
  const onTool = (e: ChangeEvent<HTMLSelectElement>) => setParam({ tool: e.target.value || null, category: null });

  const absolute = useMemo(
    () => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }),
    [i18n.language],
  );
  const num = useMemo(() => new Intl.NumberFormat(i18n.language), [i18n.language]);

  const tooFew = data !== undefined && data.models.length === 0 && data.minVotes > 0 && data.votes < data.minVotes;
  const empty = data !== undefined && !tooFew && (data.updatedAt === null || data.models.length === 0);
  const top = topRobustnessOf(data);
  const scope = toolTitle ?? (category ? t(`category.${category}`) : t('filter.all'));

  return (
    <div className="lb container">
      <nav className="duet-crumbs" aria-label={t('breadcrumb.label')}>
        <Link to="/">{t('breadcrumb.home')}</Link>
        <span aria-hidden="true">/</span>
        {tool ? (
          <>
            <Link to={tool.route}>{toolTitle}</Link>
            <span aria-hidden="true">/</span>
          </>
        ) : null}
        <span aria-current="page">{t('breadcrumb.leaderboard')}</span>
      </nav>

      <header className="lb-head">
        <div className="lb-head__text">
          <h1 className="lb-title">{t('title')}</h1>
          <p className="lb-lead">{t('lead')}</p>
        </div>
        <div className="lb-filter">
          <label htmlFor="lb-tool" className="lb-filter__label">
            {t('filter.label')}
          </label>
          <select id="lb-tool" className="lb-select" value={slug ?? ''} onChange={onTool} data-testid="leaderboard-tool">
            <option value="">{t('filter.all')}</option>
            {TOOLS.map((x) => (
              <option key={x.slug} value={x.slug}>
                {t(`contents:${x.titleKey}`)}
              </option>
            ))}
          </select>
        </div>
        <BoardControls
          category={category}
          control={control}
          onCategory={(c) => setParam({ category: c, tool: null })}
          onControl={(c) => setParam({ control: c === 'style' ? c : null })}
          intervals={data && data.otherIntervals.length > 0 ? data.intervals : null}
          onIntervals={(m) => setParam({ intervals: m })}
        />
      </header>

      <div
        className={`lb-card lb-board${isPlaceholderData ? ' lb-board--stale' : ''}`}
        aria-busy={isPending || isPlaceholderData}
      >
        {isPending && (
          <div className="lb-loading" role="status">
            <span className="visually-hidden">{t('loading')}</span>
            {[0, 1, 2, 3].map((i) => (
              <span key={i} className="lb-skeleton" aria-hidden="true" />
            ))}
          </div>
        )}

        {isError && !data && (
          <div className="lb-error" role="alert">
            <p>{t('error')}</p>
            <button type="button" className="btn" onClick={() => void refetch()}>
              {t('retry')}
            </button>
          </div>
        )}

        {data?.pending && <PendingNotice pending={data.pending} now={now} />}
        {data && <DedupNotice board={data} />}

        {tooFew && (
          <div className="lb-empty" data-testid="leaderboard-too-few">
            <h2 className="lb-h2">{t('few.title')}</h2>
            <p>{t('few.body', { count: data.votes, votes: num.format(data.votes), min: num.format(data.minVotes) })}</p>
          </div>
        )}

        {empty && (
          <div className="lb-empty" data-testid="leaderboard-empty">
            <div className="lb-empty__art" aria-hidden="true">
              <span />
              <span />
              <span />
            </div>
            <h2 className="lb-h2">{data.pending?.votes ? t('empty.titlePending') : t('empty.title')}</h2>
            <p>{data.pending?.votes ? t('empty.bodyPending') : tool ? t('empty.bodyTool', { title: toolTitle }) : t('empty.body')}</p>
            <Link className="btn btn--primary" to={tool ? tool.route : '/'}>
              {tool ? t('empty.ctaTool', { title: toolTitle }) : t('empty.cta')}
            </Link>
          </div>
        )}

        {data && !empty && (
          <LeaderboardTable models={data.models} minVotesRanked={data.minVotesRanked} scope={scope}>
            {data.updatedAt && (
              <p className="lb-meta" data-testid="leaderboard-meta">
                <span>
                  <Trans
                    t={t}
                    i18nKey="meta.updated"
                    values={{
                      relative: relativeTime(data.updatedAt, now, i18n.language),
                      absolute: absolute.format(new Date(data.updatedAt)),
                    }}
                    components={{
                      time: <time dateTime={data.updatedAt} data-testid="leaderboard-updated" />,
                      abs: <span className="lb-meta__abs" />,
                    }}
                  />
                </span>
                <span className="lb-meta__sep" aria-hidden="true">
                  ·
                </span>
                <span data-testid="leaderboard-votes" data-count={data.votes}>
                  {t('meta.votes', { count: data.votes, votes: num.format(data.votes) })}
                </span>
                {top && (
                  <>
                    <span className="lb-meta__sep" aria-hidden="true">
                      ·
                    </span>
                    <span data-testid="leaderboard-top-robustness" data-votes={top.votes} data-challenger={top.model}>
                      {t('meta.top', { count: top.votes, votes: num.format(top.votes), challenger: top.label })}
                    </span>
                  </>
                )}
              </p>
            )}
          </LeaderboardTable>
        )}
        {data && !empty && data.style && <StyleNote coefficients={data.style} />}
      </div>

      {/* Below the board only once it is drawn: the board's first figures then push nothing
          that was already on screen (a layout shift). The history keeps its room while it loads. */}
      {!isPending && (
        <>
          <OwnBoard />
          {/* The reasons are counted per tool, not per category: a category board has none of its own. */}
          {data && !category && <ModelReasons board={data} history={history.data} scope={scope} stale={isPlaceholderData} />}
          {data && !empty && !tooFew && <PairwiseMatrix board={data} scope={scope} />}
          {!history.isError && <RatingHistory history={history.data} scope={scope} />}
          <RatingsNote />
        </>
      )}
    </div>
  );
}

/** How many votes the board's #1 rests on, with its challenger's name: only with a ranked #1 and another ranked model. */
function topRobustnessOf(board: Leaderboard | undefined): { votes: number; model: string; label: string } | null {
  const robust = board?.topRobustness;
  const ranked = board?.models.filter((m) => m.rank !== null) ?? [];
  const challenger = ranked.find((m) => m.model === robust?.challenger);
  return robust && ranked.length >= 2 && challenger ? { votes: robust.votes, model: challenger.model, label: challenger.label } : null;
}
