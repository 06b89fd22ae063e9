import { findTool, SIDES } from '@duet/shared';
import type { ModelSpec, Side } from '@duet/shared';
import type { Logger } from 'pino';
import type { Db } from '../infra/db.ts';
import type { BattlePublisher } from '../live/battle-publisher.ts';
import type { ModelProvider } from '../providers/provider.ts';
import * as repo from '../store/battle.repo.ts';
import type { SideResult } from './run-side.ts';
import { runSide, userMessage } from './run-side.ts';

export interface RunBattleDeps {
  db: Db;
  publisher: BattlePublisher;
  /** The adapter for a model id, or undefined when this worker's roster lacks it. */
  providerFor: (modelId: string) => ModelProvider | undefined;
  /** True when the battle was cancelled before this worker picked it up. */
  isCancelled: (battleId: string) => Promise<boolean>;
  logger: Logger;
  flushMs: number;
  idleTimeoutMs: number;
  retries: number;
  retryBaseMs: number;
}

export type RunBattle = (battleId: string, signal: AbortSignal) => Promise<void>;

/**
 * Runs one battle: both models at once, each streamed to viewers and stored when it ends.
 * Safe to run again after a crash: stored sides are kept, unfinished ones start over.
 */
export function createRunBattleHandler(deps: RunBattleDeps): RunBattle {
  return async function runBattle(battleId, signal) {
    const log = deps.logger.child({ battleId });
    const battle = await repo.loadBattle(deps.db, battleId);
    if (!battle) {
      log.warn('battle not found; dropping its job');
      return;
    }
    if (battle.status === 'finished') return;
    const tool = findTool(battle.tool);
    if (!tool) throw new Error(`Unknown tool ${battle.tool}`);

    const done = await repo.finishedSides(deps.db, battleId);
    const resume = await deps.publisher.resumePoint(battleId);
    const image = battle.hasImage ? ((await repo.loadImage(deps.db, battleId)) ?? undefined) : undefined;
    const prompt = tool.prompt({ inputs: battle.inputs, text: battle.text, hasImage: image !== undefined, lang: battle.lang });
    await repo.markRunning(deps.db, battleId);

    const cancel = new AbortController();
    const onAbort = () => cancel.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    if (signal.aborted || (await deps.isCancelled(battleId))) cancel.abort();

    const runOne = async (side: Side): Promise<void> => {
      const modelId = battle.models[side];
      const provider = deps.providerFor(modelId);
      const result: SideResult = provider
        ? await runSide({
            battleId,
            side,
            provider,
            request: {
              system: prompt.system,
              user: prompt.user,
              image,
              maxTokens: tool.maxTokens,
              context: { tool: tool.slug, lang: battle.lang, inputs: battle.inputs, text: battle.text, hasImage: !!image },
            },
            cancel: cancel.signal,
            publish: deps.publisher.publish,
            startSeq: resume[side].seq,
            resetFirst: resume[side].streamed,
            flushMs: deps.flushMs,
            idleTimeoutMs: deps.idleTimeoutMs,
            retries: deps.retries,
            retryBaseMs: deps.retryBaseMs,
            onProviderError: (err, attempt, willRetry) =>
              log.warn({ side, model: modelId, code: err.code, status: err.status, attempt, willRetry, msg: err.message }, 'provider error'),
          })
        : unavailable();
      // Store first, then announce: once a viewer sees both sides end, a vote can count on them.
      await repo.insertAnswer(deps.db, { battleId, side, model: modelId, text: result.text, stats: result.stats, error: result.error });
      if (result.error) {
        await deps.publisher.publish({ type: 'error', battleId, side, ...result.error });
      } else {
        await deps.publisher.publish({ type: 'progress', battleId, side, progress: 100 });
        await deps.publisher.publish({ type: 'done', battleId, side, stats: result.stats });
      }
      log.info({ side, model: modelId, ...result.stats, error: result.error?.code }, 'side ended');
    };

    try {
      // One side failing never stops the other: each side settles on its own.
      const outcomes = await Promise.allSettled(SIDES.filter((s) => !done.has(s)).map(runOne));
      const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
      if (failed) throw failed.reason;
      await repo.markFinished(deps.db, battleId);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  };
}

function unavailable(): SideResult {
  return {
    text: '',
    error: { code: 'model_unavailable', message: userMessage('model_unavailable') },
    stats: { finishReason: 'error', inputTokens: null, outputTokens: null, ttftMs: null, durationMs: 0 },
  };
}

/** Builds the id → adapter lookup for a roster. */
export function providerLookup(roster: readonly ModelSpec[], create: (spec: ModelSpec) => ModelProvider) {
  const providers = new Map(roster.map((m) => [m.id, create(m)]));
  return (modelId: string) => providers.get(modelId);
}
