import { findTool, SIDES } from '@duet/contracts';
import type { BattleEvent, Side } from '@duet/contracts';
import { toMicroUsd } from '@duet/contracts/cost';
import type { Prices } from '@duet/contracts/cost';
import type { ModelBreaker } from '@duet/platform/model-breaker';
import type { Logger } from 'pino';
import type { Db } from '../infra/db.ts';
import { contentTexts } from '../moderation/moderation.ts';
import type { ModerationContent } from '../moderation/moderator.ts';
import { retrying } from '../infra/retry.ts';
import type { BattlePublisher } from '../live/battle-publisher.ts';
import type { ModelProvider } from '../providers/provider.ts';
import * as repo from '../store/battle.repo.ts';
import { answerCost } from './answer-cost.ts';
import type { BattleSpend } from './battle-spend.ts';
import { requestTexts, turnRequest } from './conversation.ts';
import { createDeltaClock } from './delta-clock.ts';
import type { SideResult } from './run-side.ts';
import { CHARS_PER_TOKEN_CAP, runSide, userMessage } from './run-side.ts';

/** What a battle run reports, per model (the roster id); the worker's metrics implement it. */
export interface BattleMetrics {
  /** A side's model finished answering (not a side stored from an earlier attempt's stream). */
  sideEnded: (model: string, result: SideResult) => void;
  /** A model failed; `retried` when the side tries again. */
  providerError: (model: string, code: string, retried: boolean) => void;
  /** A side's answer was stored, having cost `usd`. */
  spent: (model: string, usd: number) => void;
}

/** How answers are priced and which day their spend counts in. */
export interface Spending {
  /** A model's prices (an unknown model is free: it is never drawn). */
  pricesFor: (modelId: string) => Prices;
  /** BUDGET_TIME_ZONE: the spend ledger's days start at its midnight. */
  timeZone: string;
  /** Settles the battle's reservation in the budgets as its sides are stored. */
  budget: BattleSpend;
}

export interface RunBattleDeps {
  db: Db;
  publisher: BattlePublisher;
  spending: Spending;
  /** The adapter for a model id, or undefined when the roster lacks it. */
  providerFor: (modelId: string) => Promise<ModelProvider | undefined>;
  /** True when the battle was cancelled before this worker picked it up. */
  isCancelled: (battleId: string) => Promise<boolean>;
  logger: Logger;
  /** How long a battle's text may wait to go out with what follows it (ms), read at each token. */
  flushMs: () => number;
  idleTimeoutMs: number;
  retries: number;
  retryBaseMs: number;
  /**
   * How long a finished answer is retried into PostgreSQL before the job gives up. Meanwhile it
   * is kept in memory, and in the battle's stream for a later attempt.
   */
  storeRetryMs: number;
  /**
   * Runs once both answers are stored, before the battle is marked finished (moderation), with the
   * battle's content when this attempt has both answers in hand. Must not throw.
   */
  afterStored?: (battleId: string, content?: ModerationContent) => Promise<void>;
  /** Per model: how each answer went, and provider errors. */
  metrics?: BattleMetrics;
  /** Resolves when this battle may send its provider requests (see `createStartPacer`). Default: at once. */
  paceStart?: () => Promise<void>;
  /** Where each side's outcome goes, so that gateways stop drawing a failing model. */
  breaker?: Pick<ModelBreaker, 'record'>;
}

/** Signals of one run: the visitor's cancel, and `stop` (shutdown, or another worker took the battle). */
export interface RunSignals {
  cancel: AbortSignal;
  stop: AbortSignal;
}

export type RunBattle = (battleId: string, signals: RunSignals) => Promise<void>;

/**
 * The run was stopped before it could finish (shutdown, lost lease). Unfinished sides were not
 * stored, so another worker runs them again; finished ones are stored or in the stream.
 */
export class RunStopped extends Error {
  constructor() {
    super('The battle run was stopped before it finished');
    this.name = 'RunStopped';
  }
}

/**
 * Runs one battle: both models at once, each streamed to viewers and stored when it ends.
 * Safe to run again after a crash: stored sides are kept; a side that finished but was not
 * stored is stored from the stream without asking its model again; others start over.
 * PostgreSQL being down does not lose a finished answer: viewers are told it is being saved, and
 * storing is retried with backoff.
 */
export function createRunBattleHandler(deps: RunBattleDeps): RunBattle {
  return async function runBattle(battleId, signals) {
    const log = deps.logger.child({ battleId });
    // The battle, its image, its stored sides and the mark that it runs, in one statement; the stream's
    // resume point and the cancel flag (Redis) at the same time.
    const [start, resume, cancelledBefore] = await Promise.all([
      repo.startBattle(deps.db, battleId),
      deps.publisher.resumePoint(battleId),
      deps.isCancelled(battleId),
    ]);
    if (!start) {
      log.warn('battle not found; dropping its job');
      return;
    }
    const { battle, stored, image } = start;
    if (battle.status === 'finished') {
      // An earlier attempt finished it, and may have died before closing its reservation.
      if (battle.budgetDay) await deps.spending.budget.battleEnded(battle.budgetDay, battleId);
      return;
    }
    const tool = findTool(battle.tool);
    if (!tool) throw new Error(`Unknown tool ${battle.tool}`);
    // A follow-up's models are given the conversation so far: each its own earlier answers.
    const earlier = battle.rootId ? await repo.earlierTurns(deps.db, battle.rootId, battle.turn) : [];
    const requestOf = (side: Side) => turnRequest(tool, battle, image, earlier, side);
    // A follow-up's events say which turn they are of.
    const ofTurn = <E extends BattleEvent>(event: E): E => (battle.turn > 1 ? { ...event, turn: battle.turn } : event);

    const cancelled = new AbortController();
    const onCancel = () => cancelled.abort();
    signals.cancel.addEventListener('abort', onCancel, { once: true });
    if (signals.cancel.aborted || cancelledBefore) cancelled.abort();
    // The costliest step of a start, two provider requests, waits its turn: the first tokens of
    // battles already running are handled first. The reads before it are I/O and interleave anyway.
    await deps.paceStart?.();
    const halt = AbortSignal.any([cancelled.signal, signals.stop]);
    // One clock for both sides: a flush sends the text of both in one message.
    const clock = createDeltaClock(deps.flushMs);
    const keep = <T>(what: string, fn: () => Promise<T>) =>
      retrying(fn, {
        maxMs: deps.storeRetryMs,
        signal: signals.stop,
        onError: (err, attempt) => {
          if (attempt % 10 === 0) log.warn({ err, attempt }, `could not ${what}; retrying`);
        },
      }).catch((err: unknown) => {
        // Stopped while PostgreSQL was away: the answer waits in the stream for the next attempt.
        throw signals.stop.aborted ? new RunStopped() : err;
      });

    const answer = async (side: Side): Promise<SideResult> => {
      const earlier = resume[side].saving;
      if (earlier && earlier.chars === resume[side].text.length) {
        log.info({ side }, 'storing a side an earlier attempt finished, from its stream');
        return { text: resume[side].text, stats: earlier.stats, error: earlier.error };
      }
      const modelId = battle.models[side];
      const provider = await deps.providerFor(modelId);
      if (!provider) {
        log.warn({ side, model: modelId }, 'the roster has no such model');
        deps.metrics?.providerError(modelId, 'model_unavailable', false);
        const result = unavailable();
        report(modelId, result);
        return result;
      }
      const result = await runSide({
        battleId,
        side,
        provider,
        request: requestOf(side),
        cancel: halt,
        publish: (event) => deps.publisher.publish(ofTurn(event)),
        epoch: () => deps.publisher.epoch,
        maxChars: tool.maxTokens * CHARS_PER_TOKEN_CAP,
        startSeq: resume[side].seq,
        resetFirst: resume[side].streamed,
        clock,
        idleTimeoutMs: deps.idleTimeoutMs,
        retries: deps.retries,
        retryBaseMs: deps.retryBaseMs,
        onProviderError: (err, attempt, willRetry) => {
          log.warn({ side, model: modelId, code: err.code, status: err.status, attempt, willRetry, msg: err.message }, 'provider error');
          deps.metrics?.providerError(modelId, err.code, willRetry);
        },
      });
      deps.metrics?.sideEnded(modelId, result);
      if (result.stats.finishReason === 'cancelled' && signals.stop.aborted && !cancelled.signal.aborted) throw new RunStopped();
      report(modelId, result);
      return result;
    };

    /** Tells the models' breaker how a side went; never holds the battle up, and a Redis failure only costs the count. */
    const report = (model: string, result: SideResult) => {
      const outcome = breakerOutcome(result);
      if (!deps.breaker || !outcome) return;
      deps.breaker
        .record(model, outcome)
        .then((change) => {
          if (change === 'opened') log.warn({ model }, 'model taken out of the draw after failing');
          if (change === 'recovered') log.info({ model }, 'model back in the draw: its probe answered');
        })
        .catch((err: unknown) => log.debug({ err, model }, 'could not report the side to the breaker'));
    };

    /**
     * The answers this attempt stored, for moderation: what is judged is what is stored (a side
     * stored earlier, or by another attempt meanwhile, is read back instead).
     */
    const answered: Partial<Record<Side, string>> = {};
    /** The battle's content, when this attempt has both answers: moderation need not read it again. */
    const content = (): ModerationContent | undefined => {
      const answers: Array<{ text: string }> = [];
      for (const side of SIDES) {
        const text = answered[side];
        if (text === undefined) return undefined;
        answers.push({ text });
      }
      return { texts: contentTexts({ text: battle.text, inputs: battle.inputs, answers }), image };
    };
    /** The sides this attempt stored and settled in the budgets, at their costs (micro-dollars). */
    const settled: Partial<Record<Side, number>> = {};
    let moderated: Promise<void> | null = null;
    const afterStoredOnce = () => (moderated ??= deps.afterStored?.(battleId, content()) ?? Promise.resolve());

    const runOne = async (side: Side): Promise<void> => {
      const result = await answer(side);
      // In the stream before it is stored: if this worker dies now, the next attempt stores it from there.
      await deps.publisher
        .publish(ofTurn({ type: 'saving', battleId, side, chars: result.text.length, stats: result.stats, error: result.error }))
        .catch((err: unknown) => log.warn({ err, side }, 'could not announce saving'));
      // Store first, then announce: once a viewer sees both sides end, a vote can count on them.
      const model = battle.models[side];
      const request = requestOf(side);
      const cost = answerCost({
        prices: deps.spending.pricesFor(model),
        stats: result.stats,
        text: result.text,
        question: requestTexts(request),
        hasImage: request.image !== undefined || (request.history ?? []).some((t) => t.image !== undefined),
        maxOutputTokens: tool.maxTokens,
      });
      const inserted = await keep('store the answer', () =>
        repo.insertAnswer(deps.db, { battleId, side, model, text: result.text, stats: result.stats, error: result.error, cost }, deps.spending.timeZone),
      );
      if (inserted) {
        answered[side] = result.text;
        deps.metrics?.spent(model, cost.usd);
        if (battle.budgetDay && (await deps.spending.budget.sideStored(battle.budgetDay, battleId, side, cost.usd))) settled[side] = toMicroUsd(cost.usd);
      }
      stored.add(side);
      // The last side is announced only once the battle is moderated, so it is listed in public
      // history by the time anyone can vote on it.
      if (stored.size === SIDES.length) await afterStoredOnce();
      const end = async () => {
        const chars = result.text.length;
        // An end brings its side to 100% progress: no separate progress event.
        if (result.error) return deps.publisher.publishSurely(ofTurn({ type: 'error', battleId, side, ...result.error, chars }), signals.stop);
        await deps.publisher.publishSurely(ofTurn({ type: 'done', battleId, side, stats: result.stats, chars }), signals.stop);
      };
      await end().catch((err: unknown) => log.warn({ err, side }, 'could not announce the end of a side; snapshots have it'));
      log.info({ side, model: battle.models[side], ...result.stats, error: result.error?.code }, 'side ended');
    };

    try {
      // One side failing never stops the other: each side settles on its own.
      const outcomes = await Promise.allSettled(SIDES.filter((s) => !stored.has(s)).map(runOne));
      const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
      if (failed) throw failed.reason;
      await afterStoredOnce();
      await keep('mark the battle finished', () => repo.markFinished(deps.db, battleId));
      if (battle.budgetDay) await deps.spending.budget.battleEnded(battle.budgetDay, battleId, settled);
    } finally {
      signals.cancel.removeEventListener('abort', onCancel);
    }
  };
}

/**
 * What a side says about its model: `ok`, `fail` for the provider's failures, nothing when the
 * visitor ended it (cancelled) or the question was the problem (a bad request for this one question).
 */
export function breakerOutcome(result: SideResult): 'ok' | 'fail' | null {
  if (result.stats.finishReason === 'cancelled') return null;
  if (!result.error) return 'ok';
  return result.error.code === 'bad_request' ? null : 'fail';
}

function unavailable(): SideResult {
  return {
    text: '',
    error: { code: 'model_unavailable', message: userMessage('model_unavailable') },
    stats: { finishReason: 'error', inputTokens: null, outputTokens: null, ttftMs: null, durationMs: 0 },
  };
}
