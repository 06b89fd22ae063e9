import { BATTLE_JOB_OPTIONS, BATTLE_QUEUE, bullPrefix, RUN_BATTLE_JOB } from '@duet/contracts';
import type { RunBattleJob } from '@duet/contracts';
import { Queue } from 'bullmq';
import type { RedisClient } from './redis.ts';
import { isCluster } from './redis.ts';

export type BattleQueue = Queue<RunBattleJob, void, typeof RUN_BATTLE_JOB>;

/** The queue battles are run from. Its Redis prefix keeps several deployments (or tests) apart. */
export function createBattleQueue(connection: RedisClient, prefix: string): BattleQueue {
  return new Queue<RunBattleJob, void, typeof RUN_BATTLE_JOB>(BATTLE_QUEUE, {
    connection,
    prefix: bullPrefix(prefix, isCluster(connection)),
    defaultJobOptions: BATTLE_JOB_OPTIONS,
  });
}

export async function enqueueBattle(queue: BattleQueue, battleId: string): Promise<void> {
  // The battle id is the job id: enqueuing twice never runs a battle twice.
  await queue.add(RUN_BATTLE_JOB, { battleId }, { jobId: battleId });
}
