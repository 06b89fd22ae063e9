import { BATTLE_QUEUE, RUN_BATTLE_JOB } from '@duet/shared';
import type { RunBattleJob } from '@duet/shared';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';

export type BattleQueue = Queue<RunBattleJob, void, typeof RUN_BATTLE_JOB>;

/** The queue battles are run from. Its Redis prefix keeps several deployments (or tests) apart. */
export function createBattleQueue(connection: Redis, prefix: string): BattleQueue {
  return new Queue<RunBattleJob, void, typeof RUN_BATTLE_JOB>(BATTLE_QUEUE, {
    connection,
    prefix: `${prefix}:bull`,
    defaultJobOptions: {
      // A crashed worker's job is retried; the handler resumes and keeps finished answers.
      attempts: 3,
      backoff: { type: 'exponential', delay: 2_000 },
      removeOnComplete: { age: 24 * 3600, count: 10_000 },
      removeOnFail: { age: 7 * 24 * 3600 },
    },
  });
}

export async function enqueueBattle(queue: BattleQueue, battleId: string): Promise<void> {
  // The battle id is the job id: enqueuing twice never runs a battle twice.
  await queue.add(RUN_BATTLE_JOB, { battleId }, { jobId: battleId });
}
