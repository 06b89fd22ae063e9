import { MODERATION_QUEUE } from '@duet/contracts';
import { HISTORY_CACHE_TTL_MS } from '@duet/platform/history-version';
import { Queue, Worker } from 'bullmq';
import type { RedisClient } from '@duet/platform/redis-connection';
import type { Logger } from 'pino';
import type { ModerationConfig } from '../config.ts';
import type { Db } from '../infra/db.ts';
import type { Schedule } from '../infra/schedules.ts';
import { writeSchedule } from '../infra/schedules.ts';
import * as repo from './moderation.repo.ts';
import type { BattleToModerate } from './moderation.repo.ts';
import type { ModerationContent, ModerationVerdict, Moderator } from './moderator.ts';
import { createOpenAIModerator } from './openai-moderator.ts';
import { createWordListModerator } from './word-list-moderator.ts';

/** The job of the periodic sweep on MODERATION_QUEUE (worker-only: the gateway never enqueues it). */
export const MODERATE_PENDING_JOB = 'moderate-pending';

export interface ModerationDeps {
  db: Db;
  /** A BullMQ connection (`maxRetriesPerRequest: null`). */
  connection: RedisClient;
  /** The BullMQ key prefix, the same as the other queues'. */
  prefix: string;
  logger: Logger;
  config: ModerationConfig;
  /** Replaces the moderator the config chooses. */
  moderator?: Moderator;
  /** Says a tool's history pages changed: a battle passed and is listed now. Its failure is logged. */
  historyChanged: (tool: string) => Promise<void>;
}

export interface Moderation {
  /**
   * Moderates one battle whose two answers are stored: `ok` or `flagged`. Never throws: when
   * the moderator cannot decide it logs, leaves the battle `pending`, and the sweep tries again.
   * A battle already decided (or taken down) is left as it is. `known`: its content, when the
   * caller has it in memory (the worker that just ran both sides), so it is not read again.
   */
  moderateBattle: (battleId: string, known?: ModerationContent) => Promise<void>;
  /** Moderates one batch of pending battles now, as the periodic job does; returns how many were decided. */
  sweep: () => Promise<number>;
  /** The periodic sweep's schedule, written at start; the worker writes it again when Redis lost it. */
  schedule: Schedule;
  /** Settles once its sweep worker has reached Redis; rejects if its first command failed. */
  waitUntilReady: () => Promise<unknown>;
  /** Stops the periodic job's consumer and closes its queue. */
  close: () => Promise<void>;
  /** Cuts its Redis connections, for a close that did not finish in time. */
  disconnect: () => Promise<void>;
}

export function createModerator(config: ModerationConfig): Moderator {
  return config.openai ? createOpenAIModerator(config.openai) : createWordListModerator();
}

/** The texts a moderator reads: the question, every input value, both answers. */
export function contentTexts(battle: Pick<BattleToModerate, 'text' | 'inputs'> & { answers: ReadonlyArray<{ text: string }> }): string[] {
  const inputs = Object.values(battle.inputs).flatMap((v) => (Array.isArray(v) ? v : [v]));
  return [battle.text, ...inputs, ...battle.answers.map((a) => a.text)].filter(
    (t): t is string => typeof t === 'string' && t.trim() !== '',
  );
}

/**
 * Starts moderation: returns `moderateBattle` for the end of a battle, and runs a repeatable
 * BullMQ job (one scheduler for all workers) that moderates finished battles still `pending`
 * every `config.intervalMs`, `config.batchSize` at a time: checks that failed, and battles from
 * before moderation existed.
 */
export async function startModeration(deps: ModerationDeps): Promise<Moderation> {
  const moderator = deps.moderator ?? createModerator(deps.config);
  const log = deps.logger.child({ component: 'moderation', moderator: moderator.kind });

  /** The battle's content as stored, or null when it is not there to moderate (yet, or any more). */
  async function loadContent(battleId: string): Promise<ModerationContent | null> {
    const battle = await repo.loadBattleToModerate(deps.db, battleId);
    if (!battle || battle.moderation !== 'pending' || battle.answers.length < 2) return null;
    // Only the endpoint looks at images; the word list would load them for nothing.
    const image = moderator.kind === 'openai' && battle.hasImage ? await repo.loadImage(deps.db, battleId) : null;
    return { texts: contentTexts(battle), image: image ?? undefined };
  }

  async function moderateOne(battleId: string, known?: ModerationContent): Promise<'decided' | 'failed' | 'skipped'> {
    try {
      // Content in hand is moderated without looking at the battle's state first (it was just
      // stored, so it is pending unless an operator took it down meanwhile: then the call is
      // spent for nothing), and the verdict is stored only over `pending`.
      const content = known ?? (await loadContent(battleId));
      if (!content) return 'skipped';
      let verdict: ModerationVerdict;
      try {
        verdict = await moderator.moderate(content);
      } catch (err) {
        log.warn({ battleId, err }, 'moderation failed; the battle stays pending and hidden until a later try');
        await repo.recordFailedAttempt(deps.db, battleId);
        return 'failed';
      }
      const tool = await repo.recordVerdict(deps.db, battleId, verdict);
      if (tool !== null) {
        log.info({ battleId, flagged: verdict.flagged, categories: verdict.categories, by: verdict.decidedBy }, 'battle moderated');
        if (!verdict.flagged) {
          await deps.historyChanged(tool).catch((err: unknown) => log.warn({ battleId, err }, `could not raise the history version: cached pages list the battle within ${HISTORY_CACHE_TTL_MS / 1000} s`));
        }
      }
      return 'decided';
    } catch (err) {
      log.error({ battleId, err }, 'could not moderate the battle; it stays pending');
      return 'failed';
    }
  }

  let stopping = false;

  async function sweep(): Promise<number> {
    const ids = await repo.listPending(deps.db, deps.config.batchSize);
    let decided = 0;
    for (const id of ids) {
      // Shutting down: the rest waits for the next run, on this worker or another.
      if (stopping) break;
      const outcome = await moderateOne(id);
      // One failure says the provider is down: the rest of the batch waits for the next run.
      if (outcome === 'failed') break;
      if (outcome === 'decided') decided += 1;
    }
    return decided;
  }

  const queue = new Queue(MODERATION_QUEUE, { connection: deps.connection, prefix: deps.prefix });
  // Without a listener BullMQ prints each lost connection's stack to stderr while Redis is away.
  queue.on('error', (err) => log.debug({ err: err.message }, 'moderation queue error'));
  const schedule: Schedule = { queue, id: 'moderation-sweep', everyMs: deps.config.intervalMs, job: MODERATE_PENDING_JOB };
  await writeSchedule(schedule);
  const worker = new Worker(MODERATION_QUEUE, async () => ({ decided: await sweep() }), {
    connection: deps.connection,
    prefix: deps.prefix,
    concurrency: 1,
  });
  worker.on('failed', (job, err) => log.error({ jobId: job?.id, err }, 'moderation sweep failed'));
  worker.on('error', (err) => log.error({ err }, 'moderation worker error'));

  return {
    moderateBattle: async (battleId, known) => {
      await moderateOne(battleId, known);
    },
    sweep,
    schedule,
    waitUntilReady: () => worker.waitUntilReady(),
    close: async () => {
      stopping = true;
      await worker.close();
      await queue.close();
    },
    disconnect: async () => {
      await Promise.all([worker.disconnect(), queue.disconnect()]);
    },
  };
}
