import { BATTLE_QUEUE, ZRunBattleJobSchema } from '@duet/contracts';
import type { RUN_BATTLE_JOB, RunBattleJob } from '@duet/contracts';
import type { RedisClient } from '@duet/platform/redis-connection';
import { DelayedError, WaitingError, Worker } from 'bullmq';
import type { Logger } from 'pino';
import type { BattleLeases } from '../live/battle-leases.ts';
import type { RunBattle } from './run-battle.handler.ts';
import { RunStopped } from './run-battle.handler.ts';

/** A battle this worker runs: the visitor's cancel, and this run's stop. */
export interface RunningBattle {
  cancel: AbortController;
  stop: AbortController;
}

export interface BattleConsumer {
  worker: Worker<RunBattleJob, void, typeof RUN_BATTLE_JOB>;
  /** The battles running now, by id (the map the consumer was given). */
  running: ReadonlyMap<string, RunningBattle>;
  /** Stops every running battle unfinished; their jobs go back to the queue without spending an attempt. */
  handBack: () => void;
}

export interface BattleConsumerDeps {
  connection: RedisClient;
  prefix: string;
  concurrency: number;
  lockDurationMs: number;
  stalledIntervalMs: number;
  /** A running battle's lease in Redis, held while it runs (BATTLE_LEASE_MS). */
  leases: BattleLeases;
  leaseMs: number;
  /** Where the consumer keeps the battles it runs, for whoever else needs them (the cancels, the metrics). */
  running: Map<string, RunningBattle>;
  runBattle: RunBattle;
  /** Closes a battle whose job is out of attempts, so its viewers hear of it. */
  closeBattle: (battleId: string) => Promise<void>;
  /** A battle's job was taken `waitedMs` after it was queued (first attempts only). */
  battleStarted: (waitedMs: number) => void;
  logger: Logger;
}

/**
 * The battle queue's consumer: takes a job, checks its payload, claims the battle's lease (a battle
 * another worker still runs is looked at again one lease later), runs it, and releases the lease.
 * A battle stopped by this worker's shutdown goes back to the queue without spending an attempt;
 * one whose job ran out of attempts is closed.
 */
export function startBattleConsumer(deps: BattleConsumerDeps): BattleConsumer {
  const { running } = deps;
  const shutdown = new AbortController();

  const worker = new Worker<RunBattleJob, void, typeof RUN_BATTLE_JOB>(
    BATTLE_QUEUE,
    async (job, token) => {
      // Validate before running: a malformed payload fails the job instead of running garbage.
      const { battleId } = ZRunBattleJobSchema.parse(job.data);
      const run = { cancel: new AbortController(), stop: new AbortController() };
      if (!(await deps.leases.claim(battleId, () => run.stop.abort()))) {
        // Another worker still runs it (its job was re-queued after Redis lost it): look again later.
        await job.moveToDelayed(Date.now() + deps.leaseMs, token);
        throw new DelayedError();
      }
      running.set(battleId, run);
      if (job.attemptsMade === 0) deps.battleStarted(Date.now() - job.timestamp);
      try {
        await deps.runBattle(battleId, { cancel: run.cancel.signal, stop: AbortSignal.any([run.stop.signal, shutdown.signal]) });
      } catch (err) {
        if (err instanceof RunStopped && shutdown.signal.aborted && token) {
          // Handed back without spending an attempt: another worker picks it up at once.
          await job.moveToWait(token);
          throw new WaitingError();
        }
        throw err;
      } finally {
        running.delete(battleId);
        await deps.leases.release(battleId);
      }
    },
    {
      connection: deps.connection,
      prefix: deps.prefix,
      concurrency: deps.concurrency,
      lockDuration: deps.lockDurationMs,
      stalledInterval: deps.stalledIntervalMs,
    },
  );
  worker.on('failed', (job, err) => {
    // The payload may be anything someone put on the queue: read it as carefully as the handler does.
    const battleId = ZRunBattleJobSchema.safeParse(job?.data).data?.battleId;
    deps.logger.error({ jobId: job?.id, battleId, attempts: job?.attemptsMade, err }, 'battle job failed');
    // Out of attempts: close the battle so its viewers hear of it (the sweeper does it if this fails).
    if (job && battleId && job.attemptsMade >= (job.opts.attempts ?? 1)) {
      deps.closeBattle(battleId).catch((e: unknown) => deps.logger.warn({ err: e, battleId }, 'could not close a failed battle'));
    }
  });
  worker.on('error', (err) => deps.logger.warn({ err: err.message }, 'worker error'));

  return { worker, running, handBack: () => shutdown.abort() };
}
