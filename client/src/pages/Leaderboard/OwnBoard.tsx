import type { OwnBoard as OwnBoardData } from '@duet/contracts';
import { OWN_BOARD_MIN_VOTES } from '@duet/contracts/schemas/own-board.schema';
import { useQuery } from '@tanstack/react-query';
import { useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { duetApi } from '../../api/duet-api.ts';
import { useMeta } from '../../api/use-meta.ts';
import { useAuthDialog } from '../../state/auth-dialog.ts';
import { useAuth } from '../../state/auth.ts';

type Eligible = Extract<OwnBoardData, { eligible: true }>;

/**
 * "Your board": a signed-in visitor's own ranking of the models, fitted on their votes alone, next
 * to the crowd's, and how far the two agree; below the minimum, how many votes are still needed.
 * An anonymous visitor is invited to sign in (when the site has accounts).
 */
export function OwnBoard() {
  const { t } = useTranslation('leaderboard');
  const headingId = useId();
  const token = useAuth((s) => s.accessToken);
  const accounts = useMeta()?.accounts ?? false;
  // Keyed on the session: another account's board is never shown from the cache.
  const query = useQuery({ queryKey: ['own-board', token], queryFn: duetApi.ownBoard, enabled: token !== '' });

  if (!token && !accounts) return null;
  return (
    <section className="lb-card lb-own" aria-labelledby={headingId} data-testid="own-board">
      <h2 id={headingId} className="lb-h2">
        {t('own.heading')}
      </h2>
      {!token ? (
        <div className="lb-own__invite" data-testid="own-board-invite">
          <p>{t('own.invite', { min: OWN_BOARD_MIN_VOTES })}</p>
          <button type="button" className="btn btn--primary" onClick={() => useAuthDialog.getState().request('login')}>
            {t('own.signIn')}
          </button>
        </div>
      ) : query.isPending ? (
        <p className="lb-own__text" role="status">
          {t('own.loading')}
        </p>
      ) : query.isError ? (
        <div className="lb-error" role="alert">
          <p>{t('own.error')}</p>
          <button type="button" className="btn" onClick={() => void query.refetch()}>
            {t('retry')}
          </button>
        </div>
      ) : query.data.eligible ? (
        <OwnRanking board={query.data} />
      ) : (
        <NeedMoreVotes votes={query.data.votes} needed={query.data.needed} />
      )}
    </section>
  );
}

function NeedMoreVotes({ votes, needed }: { votes: number; needed: number }) {
  const { t, i18n } = useTranslation('leaderboard');
  const num = new Intl.NumberFormat(i18n.language);
  const textId = useId();
  return (
    <div className="lb-own__needed" data-testid="own-board-needed" data-votes={votes} data-needed={needed}>
      <p id={textId}>{t('own.needed', { count: needed, votes: num.format(votes), needed: num.format(needed), min: num.format(votes + needed) })}</p>
      <progress className="lb-own__progress" max={votes + needed} value={votes} aria-labelledby={textId} />
      <Link className="btn btn--primary" to="/">
        {t('own.vote')}
      </Link>
    </div>
  );
}

function OwnRanking({ board }: { board: Eligible }) {
  const { t, i18n } = useTranslation('leaderboard');
  const num = useMemo(() => new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 0 }), [i18n.language]);
  const pct = useMemo(() => new Intl.NumberFormat(i18n.language, { style: 'percent', maximumFractionDigits: 0 }), [i18n.language]);
  const rho = useMemo(() => new Intl.NumberFormat(i18n.language, { minimumFractionDigits: 2, maximumFractionDigits: 2 }), [i18n.language]);
  const { agreement } = board;
  const caption = t('own.caption');
  return (
    <>
      {agreement.share === null ? (
        <p className="lb-own__text" data-testid="own-board-agreement">
          {t('own.noCrowd')}
        </p>
      ) : (
        <div className="lb-own__agreement" data-testid="own-board-agreement" data-agreed={agreement.agreed} data-votes={agreement.votes}>
          <p className="lb-own__headline">{t('own.agree', { percent: pct.format(agreement.share) })}</p>
          <p className="lb-own__text">
            {t('own.agreeDetail', { count: agreement.votes, agreed: num.format(agreement.agreed), votes: num.format(agreement.votes) })}
            {agreement.spearman !== null && <> {t('own.spearman', { rho: rho.format(agreement.spearman) })}</>}
          </p>
        </div>
      )}
      <table className="lb-own__table" data-testid="own-board-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col" className="lb-col-rank">
              {t('own.rank')}
            </th>
            <th scope="col">{t('table.model')}</th>
            <th scope="col" className="lb-col-rank">
              {t('own.crowdRank')}
            </th>
            <th scope="col" className="lb-col-num">
              {t('own.rating')}
            </th>
            <th scope="col" className="lb-col-num lb-own__votes">
              {t('own.votes')}
            </th>
          </tr>
        </thead>
        <tbody>
          {board.models.map((m) => (
            <tr key={m.model} className={`lb-row lb-row--${m.family}`} data-testid="own-board-row" data-model={m.model} data-rank={m.rank} data-crowd-rank={m.crowdRank ?? ''}>
              <td className="lb-col-rank">
                <span className="lb-rank">{num.format(m.rank)}</span>
              </td>
              <th scope="row">
                <span className="lb-model">
                  <span className="lb-model__dot" aria-hidden="true" />
                  <span className="lb-model__label">{m.label}</span>
                </span>
              </th>
              <td className="lb-col-rank">
                {m.crowdRank === null ? (
                  <>
                    <span aria-hidden="true">{t('speed.none')}</span>
                    <span className="visually-hidden">{t('own.notRated')}</span>
                  </>
                ) : (
                  <span className="lb-rank lb-rank--crowd">{num.format(m.crowdRank)}</span>
                )}
              </td>
              <td className="lb-col-num">{num.format(m.rating)}</td>
              <td className="lb-col-num lb-own__votes">{num.format(m.votes)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="lb-own__note">{t('own.note', { count: board.models.length, models: num.format(board.models.length), votes: num.format(board.votes) })}</p>
    </>
  );
}
