import type { AuditFilter } from '@duet/contracts';
import { useMemo, useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { adminBlob, queryString } from '../../../api/admin-http.ts';
import { useAuditLog } from '../../../api/admin-queries.ts';
import { useDocumentTitle } from '../../../hooks/use-document-title.ts';
import { ErrorNotice } from '../Notice.tsx';
import { AuditEntry } from './AuditEntry.tsx';
import { AdminScreen } from '../AdminScreen.tsx';

const FILTERS = ['action', 'actor', 'target'] as const;

/** Saves a Blob under a name, through an object URL that is let go right after. */
function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** `/admin/audit`: every operator action, newest first, filtered by action, actor and target. */
export default function AuditScreen() {
  const { t } = useTranslation('admin');
  const [params, setParams] = useSearchParams();
  const filter = useMemo<AuditFilter>(
    () => Object.fromEntries(FILTERS.flatMap((k) => (params.get(k) ? [[k, params.get(k)]] : []))) as AuditFilter,
    [params],
  );
  const [draft, setDraft] = useState<Record<(typeof FILTERS)[number], string>>(() => ({
    action: filter.action ?? '',
    actor: filter.actor ?? '',
    target: filter.target ?? '',
  }));
  const log = useAuditLog(filter);
  const [downloading, setDownloading] = useState(false);
  const [downloadError, setDownloadError] = useState<unknown>(null);
  useDocumentTitle(t('audit.documentTitle'));

  const apply = (e: FormEvent) => {
    e.preventDefault();
    setParams(Object.fromEntries(FILTERS.flatMap((k) => (draft[k].trim() ? [[k, draft[k].trim()]] : []))));
  };
  const clear = () => {
    setDraft({ action: '', actor: '', target: '' });
    setParams({});
  };
  const download = async () => {
    setDownloading(true);
    setDownloadError(null);
    try {
      saveBlob(await adminBlob(`/api/admin/audit.jsonl${queryString(filter)}`), 'duet-audit.jsonl');
    } catch (err) {
      setDownloadError(err);
    } finally {
      setDownloading(false);
    }
  };

  const entries = log.data?.pages.flatMap((p) => p.entries) ?? [];
  return (
    <AdminScreen
      name="audit"
      title={t('audit.title')}
      aside={
        <button type="button" className="btn btn--sm" onClick={() => void download()} disabled={downloading} data-testid="admin-audit-download">
          {t('audit.download')}
        </button>
      }
    >
      <ErrorNotice error={downloadError} />
      <form className="adm-card adm-panel adm-filters" onSubmit={apply} role="search" aria-label={t('audit.filters')} data-testid="admin-audit-filters">
        {FILTERS.map((k) => (
          <label key={k} className="adm-field">
            <span className="adm-field__label">{t(`audit.filter.${k}`)}</span>
            <input
              type="text"
              value={draft[k]}
              onChange={(e) => setDraft((d) => ({ ...d, [k]: e.target.value }))}
              placeholder={t(`audit.hint.${k}`)}
              spellCheck={false}
              data-field={k}
            />
          </label>
        ))}
        <div className="adm-actions adm-filters__actions">
          <button type="submit" className="btn btn--primary btn--sm" data-testid="admin-audit-apply">
            {t('audit.apply')}
          </button>
          <button type="button" className="btn btn--sm" onClick={clear}>
            {t('audit.clear')}
          </button>
        </div>
      </form>
      <ErrorNotice error={log.error} />
      {log.isPending && <p className="adm-muted">{t('shell.loading')}</p>}
      {!log.isPending && entries.length === 0 && !log.error && <p className="adm-empty">{t('audit.empty')}</p>}
      <ol className="adm-audit" data-testid="admin-audit-entries" aria-busy={log.isFetching}>
        {entries.map((e) => (
          <li key={e.id}>
            <AuditEntry entry={e} />
          </li>
        ))}
      </ol>
      {log.hasNextPage && (
        <div className="adm-actions adm-actions--center">
          <button type="button" className="btn" onClick={() => void log.fetchNextPage()} disabled={log.isFetchingNextPage} data-testid="admin-audit-more">
            {t('audit.more')}
          </button>
        </div>
      )}
    </AdminScreen>
  );
}
