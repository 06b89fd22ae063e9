import { z } from 'zod';
import { AppError } from '../../http/errors.ts';
import type { Db } from '../../infra/db.ts';
import { setModeration } from './admin.repo.ts';

export type AdminService = ReturnType<typeof createAdminService>;

/** Where an operator acted from, stored as `operator:<channel>` with the decision. */
export type OperatorChannel = 'api' | 'cli';

/** What a takedown or restore answers. */
export interface ModerationChange {
  battleId: string;
  moderation: 'taken_down' | 'ok';
}

const ZBattleIdSchema = z.string().uuid();

/**
 * Operators' moderation: take a battle down (it leaves history, the export and its image URL at
 * once, whatever moderation had decided) and restore it (shown again: an operator's `ok` also
 * overrides a flag the moderator raised by mistake). Used by the admin API and `npm run takedown`.
 */
export function createAdminService(deps: {
  db: Db;
  /** Says the tool's history pages changed (their cached copies must go); called once the change is stored. */
  historyChanged: (tool: string) => Promise<void>;
}) {
  async function change(rawId: string, state: ModerationChange['moderation'], channel: OperatorChannel): Promise<ModerationChange> {
    const parsed = ZBattleIdSchema.safeParse(rawId);
    const tool = parsed.success ? await setModeration(deps.db, parsed.data, state, `operator:${channel}`) : null;
    if (!parsed.success || tool === null) throw new AppError(404, 'not_found', `No battle with id ${rawId}`);
    await deps.historyChanged(tool);
    return { battleId: parsed.data, moderation: state };
  }

  return {
    takeDown: (battleId: string, channel: OperatorChannel) => change(battleId, 'taken_down', channel),
    restore: (battleId: string, channel: OperatorChannel) => change(battleId, 'ok', channel),
  };
}
