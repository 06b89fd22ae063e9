import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminKeys, adminWrites, MODERATION_PAGE, useModerationQueue } from '../../../api/admin-queries.ts';
import type { ModerationState } from '../../../api/admin-queries.ts';
import { DoneNotice, ErrorNotice } from '../Notice.tsx';
import { BattleView } from './BattleView.tsx';
import { decisionsFor } from './DecisionBar.tsx';
import type { Decision } from './DecisionBar.tsx';
import { HideDialog } from './HideDialog.tsx';
import { useQueueKeys } from './use-queue-keys.ts';
import './Moderation.css';

/**
 * One state's queue: a battle in focus at a time, the next page fetched while a page's worth is
 * still ahead, and a decided battle gone from the list without reloading it.
 */
export function ModerationQueue({ state }: { state: ModerationState }) {
  const { t } = useTranslation('admin');
  const queryClient = useQueryClient();
  const { data, error, isPending, hasNextPage, isFetchingNextPage, fetchNextPage } = useModerationQueue(state);
  const [decided, setDecided] = useState<ReadonlySet<string>>(() => new Set());
  const [index, setIndex] = useState(0);
  const [busy, setBusy] = useState(false);
  const [hiding, setHiding] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);
  const focused = useRef<HTMLElement>(null);
  const moved = useRef(false);

  const battles = useMemo(() => (data?.pages ?? []).flatMap((p) => p.battles).filter((b) => !decided.has(b.id)), [data, decided]);
  const at = Math.min(index, Math.max(0, battles.length - 1));
  const battle = battles[at];

  // Always a page ahead of the operator.
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && battles.length - at <= MODERATION_PAGE) void fetchNextPage();
  }, [at, battles.length, hasNextPage, isFetchingNextPage, fetchNextPage]);

  // The battle in focus has the keyboard focus too (after the operator moved, not on arrival).
  useEffect(() => {
    if (!moved.current) return;
    focused.current?.focus({ preventScroll: true });
    focused.current?.scrollIntoView({ block: 'nearest' });
  }, [battle?.id]);

  const go = (to: number) => {
    moved.current = true;
    setFailure(null);
    setIndex(Math.max(0, Math.min(to, battles.length - 1)));
  };

  const decide = async (decision: Decision, reason?: string) => {
    if (!battle || busy || !decisionsFor(battle.moderation.state).includes(decision)) return;
    if (decision === 'takedown' && reason === undefined) {
      setHiding(true);
      return;
    }
    moved.current = true;
    setBusy(true);
    setFailure(null);
    setDone(null);
    try {
      await adminWrites.decide(battle.id, decision, reason);
      setDecided((s) => new Set(s).add(battle.id));
      setDone(t(`moderation.done.${decision}`));
      // The battle now lists under another state.
      for (const other of ['flagged', 'pending', 'taken_down'] as const) {
        if (other !== state) void queryClient.invalidateQueries({ queryKey: adminKeys.moderation(other) });
      }
    } catch (err) {
      setFailure(err);
    } finally {
      setBusy(false);
    }
  };

  useQueueKeys({
    next: () => go(at + 1),
    previous: () => go(at - 1),
    approve: () => void decide('approve'),
    hide: () => void decide('takedown'),
    restore: () => void decide('restore'),
  });

  const loaded = battles.length;
  return (
    <div className="adm-queue" data-testid="admin-queue" data-state={state}>
      <ErrorNotice error={error} />
      <DoneNotice text={done} testId="admin-decided" />
      {isPending && <p className="adm-muted">{t('shell.loading')}</p>}
      {!isPending && !battle && !error && (
        <p className="adm-empty" data-testid="admin-queue-empty">
          {t('moderation.empty')}
        </p>
      )}
      {battle && (
        <div className="adm-queue__body">
          <nav className="adm-queue__list" aria-label={t('moderation.list')}>
            <ol>
              {battles.map((b, i) => (
                <li key={b.id}>
                  <button type="button" className="adm-queue__item" aria-current={i === at ? 'true' : undefined} onClick={() => go(i)}>
                    <span className="adm-queue__text">{b.question.text || b.tool}</span>
                    <span className="adm-muted adm-small">{b.moderation.categories.join(', ') || b.tool}</span>
                  </button>
                </li>
              ))}
            </ol>
            {isFetchingNextPage && <p className="adm-muted adm-small">{t('shell.loading')}</p>}
          </nav>
          <div className="adm-queue__focus">
            <div className="adm-actions adm-queue__move">
              <button type="button" className="btn btn--sm" onClick={() => go(at - 1)} disabled={at === 0} aria-keyshortcuts="k ArrowUp">
                {t('moderation.keys.previous')}
              </button>
              <span className="adm-muted adm-small" data-testid="admin-queue-position">
                {t(hasNextPage ? 'moderation.positionMore' : 'moderation.position', { n: at + 1, of: loaded })}
              </span>
              <button type="button" className="btn btn--sm" onClick={() => go(at + 1)} disabled={at >= loaded - 1} aria-keyshortcuts="j ArrowDown">
                {t('moderation.keys.next')}
              </button>
            </div>
            <ErrorNotice error={failure} testId="admin-decide-error" />
            <BattleView
              key={battle.id}
              ref={focused}
              battle={battle}
              busy={busy}
              onDecide={(d) => void decide(d)}
            />
          </div>
        </div>
      )}
      <HideDialog
        open={hiding}
        onCancel={() => setHiding(false)}
        onHide={(reason) => {
          setHiding(false);
          void decide('takedown', reason);
        }}
      />
    </div>
  );
}
