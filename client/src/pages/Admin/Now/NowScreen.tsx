import type { AdminNow } from '@duet/contracts';
import { useTranslation } from 'react-i18next';
import { NOW_REFRESH_MS, useAdminNow } from '../../../api/admin-queries.ts';
import { useDocumentTitle } from '../../../hooks/use-document-title.ts';
import { formatNumber, formatTime, share, splitDuration } from '../format.ts';
import { ErrorNotice } from '../Notice.tsx';
import { NowSpend } from './NowSpend.tsx';
import { AdminScreen } from '../AdminScreen.tsx';

/** `/admin`: the campaign at a glance, read again every few seconds. */
export default function NowScreen() {
  const { t, i18n } = useTranslation('admin');
  const { data, error, isFetching } = useAdminNow();
  useDocumentTitle(t('now.documentTitle'));

  return (
    <AdminScreen
      name="now"
      title={t('now.title')}
      aside={
        <p className="adm-muted adm-readat" data-testid="admin-now-at" data-fetching={isFetching}>
          {data ? (
            <>
              {t('now.readAt')} <time dateTime={data.at}>{formatTime(data.at, i18n.language)}</time>
              {' · '}
              {t('now.every', { seconds: NOW_REFRESH_MS / 1000 })}
            </>
          ) : (
            t('shell.loading')
          )}
        </p>
      }
    >
      <ErrorNotice error={error} />
      {data && (
        <>
          <Pace now={data} />
          <div className="adm-columns">
            <ModelHealth now={data} />
            <NowSpend spend={data.spend} models={data.models} />
          </div>
        </>
      )}
    </AdminScreen>
  );
}

function Pace({ now }: { now: AdminNow }) {
  const { t, i18n } = useTranslation('admin');
  const n = (v: number) => formatNumber(v, i18n.language);
  const wait = splitDuration(now.battles.oldestWaitingSeconds);
  const figures = [
    { key: 'running', value: n(now.battles.running) },
    { key: 'waiting', value: n(now.battles.waiting) },
    { key: 'oldestWaiting', value: now.battles.oldestWaitingSeconds > 0 ? t(wait.h ? 'duration.hm' : wait.m ? 'duration.ms' : 'duration.s', wait) : '—' },
    { key: 'battlesPerMinute', value: n(now.battles.perMinute) },
    { key: 'votesPerMinute', value: n(now.votesPerMinute) },
    { key: 'tokensPerSecond', value: n(now.tokensPerSecond) },
  ];
  return (
    <dl className="adm-stats" data-testid="admin-now-pace">
      {figures.map((f) => (
        <div key={f.key} className="adm-stat adm-card" data-figure={f.key}>
          <dt>{t(`now.figures.${f.key}`)}</dt>
          <dd>{f.value}</dd>
        </div>
      ))}
    </dl>
  );
}

function ModelHealth({ now }: { now: AdminNow }) {
  const { t, i18n } = useTranslation('admin');
  return (
    <section className="adm-card adm-panel" aria-labelledby="adm-now-models">
      <h2 id="adm-now-models" className="adm-h2">
        {t('now.models.title')}
      </h2>
      <div className="adm-scroll">
        <table className="adm-table" data-testid="admin-now-models">
          <thead>
            <tr>
              <th scope="col">{t('now.models.model')}</th>
              <th scope="col">{t('now.models.breaker')}</th>
              <th scope="col" className="adm-num">
                {t('now.models.errors')}
              </th>
            </tr>
          </thead>
          <tbody>
            {now.models.map((m) => {
              const rate = share(m.errors5m, m.answers5m);
              return (
                <tr key={m.id} data-model={m.id}>
                  <th scope="row">
                    <span className="adm-strong">{m.label}</span>
                    <span className="adm-id">{m.id}</span>
                    {!m.enabled && <span className="adm-badge">{t('now.models.off')}</span>}
                  </th>
                  <td>
                    <span className={`adm-badge adm-badge--${m.breaker}`}>{t(`now.breaker.${m.breaker}`)}</span>
                  </td>
                  <td className="adm-num">
                    {t('now.models.errorsOf', { errors: m.errors5m, answers: m.answers5m })}
                    {rate !== null && <span className="adm-muted"> ({formatNumber(rate, i18n.language, 0)}%)</span>}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
