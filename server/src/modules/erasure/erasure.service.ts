import type { RedisKeys } from '@duet/contracts';
import type { RedisClient } from '@duet/platform/redis-connection';
import type { Logger } from 'pino';
import type { Db } from '../../infra/db.ts';
import { withTransaction } from '../../infra/db.ts';
import { eraseUser } from './erasure.repo.ts';

export type ErasureService = ReturnType<typeof createErasureService>;

/** What an erasure did, for the caller's answer and log. */
export interface Erasure {
  battles: number;
  votes: number;
}

/**
 * Erases a user's data from Duet (`erasure.repo.ts` says what goes and what stays), then what
 * Redis holds of their battles: the live streams a late viewer would be sent, the cached
 * history pages of their tools, and any battle still running (its worker is asked to stop; an
 * answer it stores later keeps no text).
 */
export function createErasureService(deps: {
  db: Db;
  redis: RedisClient;
  keys: RedisKeys;
  /** Asks the worker running a battle to stop it. */
  cancel: (battleId: string) => Promise<void>;
  /** Says a tool's history pages changed (their cached copies must go). */
  historyChanged: (tool: string) => Promise<void>;
  logger: Logger;
}) {
  async function erase(userId: string): Promise<Erasure> {
    const erased = await withTransaction(deps.db, (client) => eraseUser(client, userId));
    // Redis expires the streams within a day anyway, and no one is served an erased battle's:
    // their removal is tidiness, so a failure is logged, not answered.
    const afterwards = [
      ...erased.battles.map((b) => deps.redis.del(deps.keys.battleStream(b.id))),
      ...erased.battles.filter((b) => b.unfinished).map((b) => deps.cancel(b.id)),
      ...[...new Set(erased.battles.map((b) => b.tool))].map((tool) => deps.historyChanged(tool)),
    ];
    for (const result of await Promise.allSettled(afterwards)) {
      if (result.status === 'rejected') deps.logger.warn({ err: result.reason }, 'erasure: could not clear a copy in Redis');
    }
    return { battles: erased.battles.length, votes: erased.votes };
  }

  return { erase };
}
