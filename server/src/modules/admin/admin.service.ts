import type { ModerationChange, OperatorDecision } from '@duet/contracts';
import { z } from 'zod';
import { AppError } from '../../http/errors.ts';
import type { Db } from '../../infra/db.ts';
import { withTransaction } from '../../infra/db.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { OperatorState } from './admin.repo.ts';
import { lockModeration, setModeration } from './admin.repo.ts';

export type AdminService = ReturnType<typeof createAdminService>;

/** An operator's decision on a battle: the state it sets, and the audit log's name for it. */
interface Decision {
  state: OperatorState;
  action: 'battle.approve' | 'battle.takedown' | 'battle.restore';
}

const APPROVE: Decision = { state: 'ok', action: 'battle.approve' };
const TAKE_DOWN: Decision = { state: 'taken_down', action: 'battle.takedown' };
const RESTORE: Decision = { state: 'ok', action: 'battle.restore' };

const ZBattleIdSchema = z.string().uuid();

/**
 * Operators' moderation: approve a battle moderation flagged or left pending (public at once),
 * take a battle down (it leaves history, the export and its image URL at once, whatever
 * moderation had decided) and restore it (an operator's `ok` also overrides a flag raised by
 * mistake). Each decision stores who made it (`operator:<actor>`) and why, and writes its audit
 * entry in the same transaction: a decision is never stored without its entry, nor the reverse.
 * Used by the admin API (actor `token`, `firebase:<uid>`) and `npm run takedown` (actor `cli`).
 */
export function createAdminService(deps: {
  db: Db;
  /** Says the tool's history pages changed (their cached copies must go); called once the change is stored. */
  historyChanged: (tool: string) => Promise<void>;
}) {
  async function decide(decision: Decision, rawId: string, actor: string, given: OperatorDecision = {}): Promise<ModerationChange> {
    const id = ZBattleIdSchema.safeParse(rawId);
    if (!id.success) throw new AppError(400, 'validation_failed', `id: ${JSON.stringify(rawId.slice(0, 100))} is not a battle id`);
    const reason = given.reason || null;
    const tool = await withTransaction(deps.db, async (client) => {
      const found = await lockModeration(client, id.data);
      if (!found) throw new AppError(404, 'not_found', `No battle with id ${id.data}`);
      // Public means its answers were seen: before they are stored there is nothing to judge, and
      // the worker's own check never runs over an operator's decision.
      if (decision.state === 'ok' && found.status !== 'finished') {
        throw new AppError(409, 'battle_not_finished', 'This battle has not finished: its answers can be judged once both are stored.');
      }
      await setModeration(client, id.data, decision.state, `operator:${actor}`, reason);
      await recordAudit(client, {
        actor,
        action: decision.action,
        target: id.data,
        before: found.before,
        after: { moderation: decision.state, reason },
      });
      return found.tool;
    });
    await deps.historyChanged(tool);
    return { battleId: id.data, moderation: decision.state };
  }

  return {
    approve: (battleId: string, actor: string, given?: OperatorDecision) => decide(APPROVE, battleId, actor, given),
    takeDown: (battleId: string, actor: string, given?: OperatorDecision) => decide(TAKE_DOWN, battleId, actor, given),
    restore: (battleId: string, actor: string, given?: OperatorDecision) => decide(RESTORE, battleId, actor, given),
  };
}
