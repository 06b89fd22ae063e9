import { MODERATION_QUEUE_STATES } from '@duet/contracts/schemas/admin.schema';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import type { ModerationState } from '../../../api/admin-queries.ts';
import { useDocumentTitle } from '../../../hooks/use-document-title.ts';
import { ModerationQueue } from './ModerationQueue.tsx';
import { AdminScreen } from '../AdminScreen.tsx';

const isState = (v: string | null): v is ModerationState => (MODERATION_QUEUE_STATES as readonly (string | null)[]).includes(v);

/** `/admin/moderation?state=`: the battles waiting for an operator's word, worked through by keyboard. */
export default function ModerationScreen() {
  const { t } = useTranslation('admin');
  const [params, setParams] = useSearchParams();
  const asked = params.get('state');
  const state: ModerationState = isState(asked) ? asked : 'flagged';
  useDocumentTitle(t('moderation.documentTitle'));

  return (
    <AdminScreen name="moderation" title={t('moderation.title')}>
      <div className="adm-segments" role="group" aria-label={t('moderation.which')}>
        {MODERATION_QUEUE_STATES.map((s) => (
          <button
            key={s}
            type="button"
            className="adm-segment"
            aria-pressed={s === state}
            onClick={() => setParams(s === 'flagged' ? {} : { state: s })}
            data-testid={`admin-queue-${s}`}
          >
            {t(`moderation.states.${s}`)}
          </button>
        ))}
      </div>
      <p className="adm-keys adm-muted adm-small" data-testid="admin-keys">
        <kbd>j</kbd>/<kbd>↓</kbd> {t('moderation.keys.next')} · <kbd>k</kbd>/<kbd>↑</kbd> {t('moderation.keys.previous')} · <kbd>a</kbd>{' '}
        {t('moderation.actions.approve')} · <kbd>h</kbd> {t('moderation.actions.takedown')} · <kbd>r</kbd> {t('moderation.actions.restore')}
      </p>
      <ModerationQueue key={state} state={state} />
    </AdminScreen>
  );
}
