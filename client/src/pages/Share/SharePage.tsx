import { findTool } from '@duet/contracts/catalog';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { duetApi } from '../../api/duet-api.ts';
import { ApiError } from '../../api/http.ts';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { HistoryEntry } from '../History/HistoryEntry.tsx';
import '../History/HistoryPage.css';
import NotFoundPage from '../NotFound/NotFoundPage.tsx';
import './SharePage.css';

/**
 * `/b/:id`: one voted battle as anyone with the link sees it: the question, both answers, the models
 * and the verdict, and a way to ask one's own. What is not public (not voted, not passed moderation,
 * taken down) is the 404 page. The gateway puts the link preview's tags in this page's HTML.
 */
export default function SharePage() {
  const { id = '' } = useParams();
  const { t, i18n } = useTranslation('battle');
  const { data, error, isPending, refetch } = useQuery({
    queryKey: ['shared-battle', id],
    queryFn: () => duetApi.sharedBattle(id),
    retry: (count, err) => !(err instanceof ApiError && err.status === 404) && count < 2,
  });
  const dateFormat = useMemo(() => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }), [i18n.language]);
  const battle = data?.battle;
  const tool = battle ? findTool(battle.tool) : undefined;
  const toolTitle = tool ? t(`contents:${tool.titleKey}`) : '';
  useDocumentTitle(battle ? t('share.pageTitle', { a: battle.sides.a.label, b: battle.sides.b.label }) : t('share.loadingTitle'));

  if (error instanceof ApiError && error.status === 404) return <NotFoundPage />;

  return (
    <div className="shared container" data-testid="shared-battle">
      <nav className="duet-crumbs" aria-label={t('breadcrumb.label')}>
        <Link to="/">{t('breadcrumb.home')}</Link>
        {tool && (
          <>
            <span aria-hidden="true">/</span>
            <Link to={tool.route}>{toolTitle}</Link>
          </>
        )}
        <span aria-hidden="true">/</span>
        <span aria-current="page">{t('share.crumb')}</span>
      </nav>
      <header className="shared__head">
        <h1 className="shared__title">
          {battle ? t('share.pageHeading', { a: battle.sides.a.label, b: battle.sides.b.label }) : t('share.loadingTitle')}
        </h1>
        {tool && <p className="shared__sub">{t('share.onTool', { tool: toolTitle })}</p>}
      </header>

      {isPending && (
        <p className="shared__status" role="status">
          {t('share.loading')}
        </p>
      )}
      {error && !(error instanceof ApiError && error.status === 404) && (
        <div className="history__card history__error" role="alert">
          <p>{t('share.error')}</p>
          <button type="button" className="btn" onClick={() => void refetch()}>
            {t('history.retry')}
          </button>
        </div>
      )}
      {battle && <HistoryEntry entry={battle} dateFormat={dateFormat} />}

      {battle && tool && (
        <section className="shared__cta history__card" aria-labelledby="shared-cta">
          <h2 id="shared-cta" className="history__h2">
            {t('share.ctaHeading')}
          </h2>
          <p>{t('share.ctaBody')}</p>
          <div className="shared__actions">
            <Link className="btn btn--primary" to={tool.route} data-testid="shared-ask">
              {t('share.askOwn', { tool: toolTitle })}
            </Link>
            <Link className="btn" to="/leaderboard" data-testid="shared-leaderboard">
              {t('share.leaderboard')}
            </Link>
          </div>
        </section>
      )}
    </div>
  );
}
