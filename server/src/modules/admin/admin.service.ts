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
export function createAdminService(deps: { db: Db }) {
  async function change(rawId: string, state: ModerationChange['moderation'], channel: OperatorChannel): Promise<ModerationChange> {
    const parsed = ZBattleIdSchema.safeParse(rawId);
    if (!parsed.success || !(await setModeration(deps.db, parsed.data, state, `operator:${channel}`))) {
      throw new AppError(404, 'not_found', `No battle with id ${rawId}`);
    }
    return { battleId: parsed.data, moderation: state };
  }

  return {
    takeDown: (battleId: string, channel: OperatorChannel) => change(battleId, 'taken_down', channel),
    restore: (battleId: string, channel: OperatorChannel) => change(battleId, 'ok', channel),
  };
}
