import { setTimeout as delay } from 'node:timers/promises';
import type { AnswerStats, BattleEvent, FinishReason, Side } from '@duet/shared';
import type { ChatRequest, ModelProvider } from '../providers/provider.ts';
import { ProviderError } from '../providers/provider.ts';

export interface SideRunOptions {
  battleId: string;
  side: Side;
  provider: ModelProvider;
  request: Omit<ChatRequest, 'signal'>;
  /** Aborted when the battle is cancelled or the worker shuts down. */
  cancel: AbortSignal;
  publish: (event: BattleEvent) => Promise<void>;
  /** Last delta seq already in the battle's stream (from an earlier attempt). */
  startSeq: number;
  /** An earlier attempt streamed text: the first delta replaces it. */
  resetFirst: boolean;
  flushMs: number;
  idleTimeoutMs: number;
  retries: number;
  retryBaseMs: number;
  onProviderError?: (err: ProviderError, attempt: number, willRetry: boolean) => void;
}

export interface SideResult {
  text: string;
  stats: AnswerStats;
  error: { code: string; message: string } | null;
}

/** What viewers read when a side fails; provider messages may carry details not meant for them. */
const USER_MESSAGES: Record<string, string> = {
  rate_limited: 'The model is busy right now. Please try again in a moment.',
  provider_unavailable: 'The model could not be reached. Please try again.',
  timeout: 'The model stopped answering.',
  stream_cut: 'The answer was cut off.',
  auth_failed: 'This model is not available right now.',
  bad_request: 'The model could not take this question.',
  model_unavailable: 'This model is not available right now.',
};
export const userMessage = (code: string): string => USER_MESSAGES[code] ?? 'The model failed to answer.';

/**
 * Progress of a streaming answer, 0 to 99 (100 is sent when it ends). Answers seldom reach the
 * token cap, so it climbs quickly at first and flattens out: about 63% at 40% of the cap.
 */
export function estimateProgress(chars: number, maxTokens: number): number {
  const tokens = chars / 3.5;
  return Math.min(99, Math.round(100 * (1 - Math.exp(-tokens / (maxTokens * 0.4)))));
}

function asProviderError(err: unknown): ProviderError {
  if (err instanceof ProviderError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new ProviderError(message, 'provider_error', false);
}

/**
 * Streams one side: retries transient errors while nothing has been shown, gives up on a model
 * that goes quiet, gathers deltas and sends them at most every `flushMs`, and always returns a
 * result (it never throws): done, cancelled, or failed with partial text.
 */
export async function runSide(o: SideRunOptions): Promise<SideResult> {
  const started = performance.now();
  let text = '';
  let pending = '';
  let seq = o.startSeq;
  let reset = o.resetFirst;
  let ttftMs: number | null = null;
  let inputTokens: number | null = null;
  let outputTokens: number | null = null;
  let finishReason: FinishReason | null = null;
  let error: SideResult['error'] = null;
  let lastProgress = 0;
  let flushTimer: NodeJS.Timeout | null = null;
  // Publishes run one after another, so viewers get deltas in order.
  let chain: Promise<void> = Promise.resolve();

  const enqueue = (event: BattleEvent) => {
    chain = chain.then(() => o.publish(event)).catch(() => undefined);
  };

  const flush = () => {
    if (flushTimer) clearTimeout(flushTimer);
    flushTimer = null;
    if (!pending) return;
    seq += 1;
    enqueue({ type: 'delta', battleId: o.battleId, side: o.side, seq, text: pending, ...(reset ? { reset: true } : {}) });
    reset = false;
    pending = '';
    const progress = estimateProgress(text.length, o.request.maxTokens);
    if (progress > lastProgress) {
      lastProgress = progress;
      enqueue({ type: 'progress', battleId: o.battleId, side: o.side, progress });
    }
  };

  const onText = (chunk: string) => {
    if (ttftMs === null) ttftMs = Math.round(performance.now() - started);
    text += chunk;
    pending += chunk;
    flushTimer ??= setTimeout(flush, o.flushMs);
  };

  for (let attempt = 0; ; attempt++) {
    if (o.cancel.aborted) {
      finishReason = 'cancelled';
      break;
    }
    finishReason = null;
    const ac = new AbortController();
    const onCancel = () => ac.abort();
    o.cancel.addEventListener('abort', onCancel, { once: true });
    let idle: NodeJS.Timeout | undefined;
    let timedOut = false;
    const armIdle = () => {
      clearTimeout(idle);
      idle = setTimeout(() => {
        timedOut = true;
        ac.abort();
      }, o.idleTimeoutMs);
    };
    armIdle();
    try {
      for await (const chunk of o.provider.stream({ ...o.request, signal: ac.signal })) {
        armIdle();
        if (chunk.type === 'text') {
          if (chunk.text) onText(chunk.text);
        } else if (chunk.type === 'usage') {
          inputTokens = chunk.inputTokens ?? inputTokens;
          outputTokens = chunk.outputTokens ?? outputTokens;
        } else {
          finishReason = chunk.reason;
        }
      }
      if (timedOut) throw new ProviderError('The model sent nothing for too long', 'timeout', true);
      if (o.cancel.aborted) finishReason = 'cancelled';
      finishReason ??= 'stop';
      break;
    } catch (err) {
      if (o.cancel.aborted && !timedOut) {
        finishReason = 'cancelled';
        break;
      }
      const pe = timedOut ? new ProviderError('The model sent nothing for too long', 'timeout', true) : asProviderError(err);
      // Retrying after text was shown would show it twice: only retry a clean failure.
      const willRetry = pe.retryable && text === '' && attempt < o.retries;
      o.onProviderError?.(pe, attempt, willRetry);
      if (willRetry) {
        await delay(o.retryBaseMs * 2 ** attempt, undefined, { signal: o.cancel }).catch(() => undefined);
        continue;
      }
      finishReason = 'error';
      error = { code: pe.code, message: userMessage(pe.code) };
      break;
    } finally {
      clearTimeout(idle);
      o.cancel.removeEventListener('abort', onCancel);
    }
  }

  flush();
  await chain;
  return {
    text,
    error,
    stats: {
      finishReason,
      inputTokens,
      outputTokens,
      ttftMs,
      durationMs: Math.round(performance.now() - started),
    },
  };
}
