import type { AuditLogEntry } from '@duet/contracts';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../format.ts';
import { diffOf, shortValue } from './audit-diff.ts';

/** One action: when, who, what, on what, and what it changed. */
export function AuditEntry({ entry }: { entry: AuditLogEntry }) {
  const { t, i18n } = useTranslation('admin');
  const changes = diffOf(entry.before, entry.after);
  return (
    <article className="adm-card adm-entry" data-testid="admin-audit-entry" data-action={entry.action} data-actor={entry.actor}>
      <header className="adm-entry__head">
        <span className="adm-strong adm-entry__action">{entry.action}</span>
        {entry.target && <span className="adm-id adm-entry__target">{entry.target}</span>}
        <span className="adm-muted adm-small adm-entry__meta">
          <time dateTime={entry.at}>{formatDateTime(entry.at, i18n.language)}</time> · {t('audit.by', { actor: entry.actor })}
        </span>
      </header>
      {changes.length > 0 && (
        <dl className="adm-diff">
          {changes.map((c) => (
            <div key={c.key} className="adm-diff__row">
              <dt>{c.key || t('audit.value')}</dt>
              <dd>
                <span className="adm-diff__before">{shortValue(c.before)}</span>
                <span aria-label={t('audit.becomes')} role="img">
                  {' → '}
                </span>
                <span className="adm-diff__after">{shortValue(c.after)}</span>
              </dd>
            </div>
          ))}
        </dl>
      )}
    </article>
  );
}
