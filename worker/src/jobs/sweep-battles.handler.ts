import { BATTLE_JOB_OPTIONS, RUN_BATTLE_JOB } from '@duet/contracts';
import type { RedisKeys, RunBattleJob } from '@duet/contracts';
import type { Queue } from 'bullmq';
import type { RedisClient } from '@duet/platform/redis-connection';
import type { Logger } from 'pino';
import type { Db } from '../infra/db.ts';
import * as repo from '../store/battle.repo.ts';

export interface SweepDeps {
  db: Db;
  redis: RedisClient;
  keys: RedisKeys;
  battles: Queue<RunBattleJob>;
  /** Ends a battle for good, telling its viewers. */
  close: (battleId: string) => Promise<void>;
  logger: Logger;
  /** Only battles older than this are looked at. */
  stuckAfterMs: number;
  /** An orphan is re-queued only if it is still one this long after it was first seen. */
  confirmAfterMs: number;
  /** Re-queues per battle before it is closed. */
  maxRequeues: number;
  /** Battles older than this are closed rather than re-queued. */
  giveUpAfterMs: number;
}

/** Job states in which a battle is in hand: waiting its turn, running, or waiting for a retry. */
const IN_HAND = new Set(['waiting', 'active', 'delayed', 'prioritized', 'waiting-children']);

/**
 * Finds battles stuck `queued` or `running` with no job in hand and no worker holding them (a
 * job lost with Redis's data, a job that failed while PostgreSQL was down, a battle whose closing
 * failed) and puts them back on the queue, or, after `maxRequeues` or `giveUpAfterMs`, closes them.
 * A battle must be found orphaned twice, `confirmAfterMs` apart, so a worker whose lease Redis
 * just lost has time to take it back.
 */
export function createSweepBattles(deps: SweepDeps) {
  return async function sweepBattles(): Promise<{ requeued: number; closed: number; orphans: number }> {
    const counts = { requeued: 0, closed: 0, orphans: 0 };
    for (const b of await repo.unfinishedBattles(deps.db, deps.stuckAfterMs, 200)) {
      const job = await deps.battles.getJob(b.id);
      const state = job ? await job.getState() : 'missing';
      const held = (await deps.redis.exists(deps.keys.battleLease(b.id))) === 1;
      if (IN_HAND.has(state) || held) {
        if (b.orphanedAt) await repo.clearOrphaned(deps.db, b.id);
        continue;
      }
      counts.orphans += 1;
      if (!b.orphanedAt) {
        await repo.markOrphaned(deps.db, b.id);
        continue;
      }
      if (Date.now() - b.orphanedAt.getTime() < deps.confirmAfterMs) continue;
      const log = deps.logger.child({ battleId: b.id, state, requeues: b.requeues });
      if (b.requeues < deps.maxRequeues && Date.now() - b.createdAt.getTime() < deps.giveUpAfterMs) {
        await job?.remove();
        await deps.battles.add(RUN_BATTLE_JOB, { battleId: b.id }, { ...BATTLE_JOB_OPTIONS, jobId: b.id });
        await repo.noteRequeued(deps.db, b.id);
        log.warn('re-queued a battle with no job in hand');
        counts.requeued += 1;
      } else {
        await deps.close(b.id);
        counts.closed += 1;
      }
    }
    return counts;
  };
}
