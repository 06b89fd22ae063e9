import type { ModerationQueueItem } from '@duet/contracts';
import { useTranslation } from 'react-i18next';

export type Decision = 'approve' | 'takedown' | 'restore';

/** The decisions a battle in this state allows, with their keys. */
export function decisionsFor(state: ModerationQueueItem['moderation']['state']): Decision[] {
  return state === 'taken_down' ? ['restore'] : ['approve', 'takedown'];
}

export const DECISION_KEYS: Record<Decision, string> = { approve: 'a', takedown: 'h', restore: 'r' };

export function DecisionBar({ state, busy, onDecide }: { state: ModerationQueueItem['moderation']['state']; busy: boolean; onDecide: (d: Decision) => void }) {
  const { t } = useTranslation('admin');
  return (
    <div className="adm-actions adm-decisions">
      {decisionsFor(state).map((d) => (
        <button
          key={d}
          type="button"
          className={`btn ${d === 'takedown' ? 'adm-btn-danger' : 'btn--primary'}`}
          disabled={busy}
          onClick={() => onDecide(d)}
          aria-keyshortcuts={DECISION_KEYS[d]}
          data-testid={`admin-decide-${d}`}
        >
          {t(`moderation.actions.${d}`)} <kbd aria-hidden="true">{DECISION_KEYS[d]}</kbd>
        </button>
      ))}
    </div>
  );
}
