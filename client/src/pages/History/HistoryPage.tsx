import type { ToolDefinition } from '@duet/contracts/tools';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import type { HistoryView } from '@duet/contracts/schemas/history.schema';
import { HISTORY_VIEWS } from '@duet/contracts/schemas/history.schema';
import { duetApi } from '../../api/duet-api.ts';
import type { HistoryPages } from '../../api/history-query.ts';
import { cachedHistoryList, historyListOf, historyQueryKey, historyViewOf } from '../../api/history-query.ts';
import { WinRates } from '../../components/WinRates/WinRates.tsx';
import NotFoundPage from '../NotFound/NotFoundPage.tsx';
import { toolForRoute } from '../tool-route.ts';
import { HistoryEntry } from './HistoryEntry.tsx';
import './HistoryPage.css';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { useToolStats } from '../../api/use-tool-stats.ts';
import { useErrorToast } from '../../hooks/use-error-toast.ts';

/** `/history/:contentTitle`: live win rates of one tool and its past results, newest first. */
export default function HistoryPage() {
  const { contentTitle } = useParams();
  const tool = toolForRoute(contentTitle);
  const [params] = useSearchParams();
  if (!tool) return <NotFoundPage />;
  const view = historyViewOf(params.get('view'));
  return <HistoryScreen key={`${tool.slug} ${view}`} tool={tool} view={view} />;
}

function HistoryScreen({ tool, view }: { tool: ToolDefinition; view: HistoryView }) {
  const { t, i18n } = useTranslation('battle');
  const queryClient = useQueryClient();
  const sentinel = useRef<HTMLDivElement>(null);
  const [hasNew, setHasNew] = useState(false);
  const queryKey = useMemo(() => historyQueryKey(tool.slug, view), [tool.slug, view]);
  const title = t(`contents:${tool.titleKey}`);

  const query = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => duetApi.history(tool.slug, pageParam, view),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
  const { data, error, errorUpdatedAt, hasNextPage, isFetchingNextPage, fetchNextPage, isPending, isError, refetch } = query;

  const list = useMemo(() => historyListOf(data), [data]);
  const winRates = data?.pages[0]?.winRates ?? [];

  useDocumentTitle(t('historyPageTitle', { title }));

  // The specification's failure: an error toast and the error in the console.
  useErrorToast(error, errorUpdatedAt, t('history.error'));

  // Win rates follow every vote on this tool while the page is open.
  useToolStats([tool.slug], ({ winRates: rates }) => {
    queryClient.setQueryData<HistoryPages>(queryKey, (old) =>
      old ? { ...old, pages: old.pages.map((p, i) => (i === 0 ? { ...p, winRates: rates } : p)) } : old,
    );
    // Nothing listed yet: just load the new result; otherwise offer it without moving the list.
    if (cachedHistoryList(queryClient, tool.slug, view).length > 0) setHasNew(true);
    else void queryClient.invalidateQueries({ queryKey });
  });

  // Infinite scroll: the next page loads when the end of the list comes into view.
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !hasNextPage || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage && !isError) void fetchNextPage();
      },
      { rootMargin: '400px 0px' },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, isError, fetchNextPage, list.length]);

  const dateFormat = useMemo(
    () => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }),
    [i18n.language],
  );

  const showNew = () => {
    setHasNew(false);
    void refetch();
  };

  return (
    <div className="history container">
      <nav className="duet-crumbs" aria-label={t('breadcrumb.label')}>
        <Link to="/">{t('breadcrumb.home')}</Link>
        <span aria-hidden="true">/</span>
        <Link to={tool.route}>{title}</Link>
        <span aria-hidden="true">/</span>
        <span aria-current="page">{t('breadcrumb.history')}</span>
      </nav>

      <header className="history__head">
        <div>
          <h1 className="history__title">{title}</h1>
          <p className="history__sub">{t(`contents:${tool.descriptionKey}`)}</p>
        </div>
        <Link className="btn btn--primary" to={tool.route} data-testid="tool-link">
          {t('history.backToTool')}
        </Link>
      </header>

      {!(isError && !data) && (
      <section className="history__card history__rates" aria-labelledby="rates-heading">
        <div className="history__rates-head">
          <h2 id="rates-heading" className="history__h2">
            {t('history.winRatesHeading')}
          </h2>
          <span className="history__live">
            <span className="history__live-dot" aria-hidden="true" />
            {t('history.liveNote')}
          </span>
        </div>
        <WinRates winRates={winRates} labelledBy="rates-heading" loading={isPending} />
        <p className="winrates-more">
          <Link to={`/leaderboard?tool=${encodeURIComponent(tool.slug)}`} data-testid="leaderboard-link">
            {t('history.leaderboardLink')}
            <span aria-hidden="true"> →</span>
          </Link>
        </p>
      </section>
      )}

      <nav className="history__views" aria-label={t('history.viewsLabel')} data-testid="history-views">
        {HISTORY_VIEWS.map((v) => (
          <Link
            key={v}
            className={`history__view${v === view ? ' history__view--on' : ''}`}
            to={{ search: v === 'main' ? '' : `?view=${v}` }}
            aria-current={v === view ? 'page' : undefined}
            replace
            data-testid={`history-view-${v}`}
          >
            {t(v === 'main' ? 'history.viewMain' : 'history.viewChosen')}
          </Link>
        ))}
      </nav>

      <section className="history__list-section" aria-labelledby="list-heading" aria-busy={isPending || isFetchingNextPage}>
        {view === 'chosen' && (
          <p className="history__view-note" data-testid="chosen-note">
            {t('history.chosenNote')}
          </p>
        )}
        <div className="history__list-head">
          <h2 id="list-heading" className="history__h2">
            {t('history.listHeading')}
          </h2>
          {hasNew && (
            <button type="button" className="btn btn--sm history__new" onClick={showNew} data-testid="history-new">
              {t('history.newResults')}
            </button>
          )}
        </div>

        {isPending && (
          <div className="history__loading" role="status">
            <span className="visually-hidden">{t('history.loading')}</span>
            {[0, 1, 2].map((i) => (
              <div className="history__skeleton" key={i} aria-hidden="true">
                <span style={{ width: '30%' }} />
                <span style={{ width: '90%' }} />
                <span style={{ width: '70%' }} />
              </div>
            ))}
          </div>
        )}

        {isError && list.length === 0 && (
          <div className="history__card history__error" role="alert">
            <p>{t('history.error')}</p>
            <button type="button" className="btn" onClick={() => void refetch()}>
              {t('history.retry')}
            </button>
          </div>
        )}

        {!isPending && !isError && list.length === 0 && (
          <div className="history__card history__empty" data-testid="history-empty">
            <div className="history__empty-art" aria-hidden="true">
              <span className="history__empty-a">A</span>
              <span className="history__empty-b">B</span>
            </div>
            <h3>{t(view === 'chosen' ? 'history.emptyChosenTitle' : 'history.emptyTitle')}</h3>
            <p>{t(view === 'chosen' ? 'history.emptyChosenBody' : 'history.emptyBody')}</p>
            <Link className="btn btn--primary" to={tool.route}>
              {t('history.emptyCta')}
            </Link>
          </div>
        )}

        {list.length > 0 && (
          <ol className="history__list" data-testid="history-list">
            {list.map((entry) => (
              <li key={entry.id}>
                <HistoryEntry entry={entry} dateFormat={dateFormat} />
              </li>
            ))}
          </ol>
        )}

        <div ref={sentinel} className="history__sentinel" aria-hidden="true" />

        {list.length > 0 && (
          <div className="history__more">
            {hasNextPage ? (
              <button
                type="button"
                className="btn"
                onClick={() => void fetchNextPage()}
                disabled={isFetchingNextPage}
                data-testid="load-more"
              >
                {isFetchingNextPage ? t('history.loadingMore') : t('history.loadMore')}
              </button>
            ) : (
              <p className="history__end">{t('history.end')}</p>
            )}
          </div>
        )}
      </section>
    </div>
  );
}
