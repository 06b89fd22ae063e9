import { setTimeout as delay } from 'node:timers/promises';
import type { AnswerStats, BattleEvent, FinishReason, Side, SideErrorCode } from '@duet/contracts';
import type { ChatRequest, ModelProvider } from '../providers/provider.ts';
import { ProviderError } from '../providers/provider.ts';
import type { DeltaClock } from './delta-clock.ts';

export interface SideRunOptions {
  battleId: string;
  side: Side;
  provider: ModelProvider;
  request: Omit<ChatRequest, 'signal'>;
  /** Aborted when the battle is cancelled or the worker shuts down. */
  cancel: AbortSignal;
  /** One try at sending an event; a failure is remembered and mended by the next delta. */
  publish: (event: BattleEvent) => Promise<void>;
  /**
   * Goes up whenever the link to viewers (Redis) dropped: what was sent may be lost, so the next
   * delta carries the whole text so far (`reset`) instead of the new part.
   */
  epoch?: () => number;
  /**
   * The longest answer kept, in characters. A provider that ignores the token cap is stopped here
   * and the side ends with `length`, as if the cap had been honoured.
   */
  maxChars?: number;
  /** Last delta seq already in the battle's stream (from an earlier attempt). */
  startSeq: number;
  /** An earlier attempt streamed text: the first delta replaces it. */
  resetFirst: boolean;
  /** When text goes out: the battle's clock, shared with the other side (see `createDeltaClock`). */
  clock: DeltaClock;
  idleTimeoutMs: number;
  retries: number;
  retryBaseMs: number;
  onProviderError?: (err: ProviderError, attempt: number, willRetry: boolean) => void;
}

export interface SideResult {
  text: string;
  stats: AnswerStats;
  error: { code: SideErrorCode; message: string } | null;
}

/** What viewers read when a side fails; provider messages may carry details not meant for them. */
const USER_MESSAGES: Record<SideErrorCode, string> = {
  rate_limited: 'The model is busy right now. Please try again in a moment.',
  provider_unavailable: 'The model could not be reached. Please try again.',
  timeout: 'The model stopped answering.',
  stream_cut: 'The answer was cut off.',
  auth_failed: 'This model is not available right now.',
  bad_request: 'The model could not take this question.',
  model_unavailable: 'This model is not available right now.',
  battle_failed: 'This battle could not be completed. Please ask again.',
  provider_error: 'The model failed to answer.',
};
export const userMessage = (code: SideErrorCode): string => USER_MESSAGES[code];

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

/** Characters allowed per token of the cap: about 4 per token in English, fewer in Korean, plus a margin of 50%. */
export const CHARS_PER_TOKEN_CAP = 6;

/**
 * Streams one side: retries transient errors while nothing has been shown, gives up on a model
 * that goes quiet, stops one that runs past the cap, gathers deltas and sends them when the
 * battle's clock says, and always returns a result (it never throws): done, cancelled, or failed with
 * partial text.
 */
export async function runSide(o: SideRunOptions): Promise<SideResult> {
  const started = performance.now();
  const maxChars = o.maxChars ?? Number.POSITIVE_INFINITY;
  const epochNow = o.epoch ?? (() => 0);
  let text = '';
  let capped = false;
  let seq = o.startSeq;
  // How much of `text` viewers are known to have; when unsure, the next delta resends it all.
  let sentChars = 0;
  let resync = o.resetFirst;
  let epoch = epochNow();
  let ttftMs: number | null = null;
  let inputTokens: number | null = null;
  let outputTokens: number | null = null;
  let finishReason: FinishReason | null = null;
  let error: SideResult['error'] = null;
  let lastProgress = 0;
  // Publishes run one after another, so viewers get deltas in order.
  let chain: Promise<void> = Promise.resolve();

  const enqueue = (send: () => Promise<void>) => {
    chain = chain.then(send).catch(() => undefined);
  };

  /** Sends the text up to `upTo`: the new part, or all of it when viewers may have missed some. */
  const sendText = async (upTo: number, progress: number | undefined) => {
    if (epochNow() !== epoch) {
      epoch = epochNow();
      resync = true;
    }
    if (!resync && upTo <= sentChars) return;
    const reset = resync;
    seq += 1;
    const event: BattleEvent = {
      type: 'delta',
      battleId: o.battleId,
      side: o.side,
      seq,
      text: reset ? text.slice(0, upTo) : text.slice(sentChars, upTo),
      ...(reset ? { reset: true } : {}),
      ...(progress === undefined ? {} : { progress }),
    };
    try {
      await o.publish(event);
      sentChars = upTo;
      resync = false;
    } catch (err) {
      resync = true;
      throw err;
    }
  };

  const flush = () => {
    const upTo = text.length;
    if (upTo === 0 && !resync) return;
    // Progress rides on the delta when it went up: one message per flush, not two.
    const estimate = estimateProgress(upTo, o.request.maxTokens);
    const progress = estimate > lastProgress ? estimate : undefined;
    if (progress !== undefined) lastProgress = progress;
    enqueue(() => sendText(upTo, progress));
  };

  const onText = (chunk: string, stop: () => void) => {
    const first = ttftMs === null;
    if (first) ttftMs = Math.round(performance.now() - started);
    if (text.length + chunk.length > maxChars) {
      text += chunk.slice(0, maxChars - text.length);
      capped = true;
      stop();
    } else {
      text += chunk;
    }
    // With the battle's next flush (the first token at once): a fast model does not send a
    // message per token, and both sides' text shares one.
    o.clock.due(flush, first);
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
    let timedOut = false;
    // One timer per quiet spell, not one per chunk: a chunk only notes the time, and the timer,
    // when it fires, waits again for whatever is left of the spell since the last chunk.
    let lastChunkAt = performance.now();
    const checkIdle = () => {
      const quietMs = performance.now() - lastChunkAt;
      if (quietMs < o.idleTimeoutMs) {
        idle = setTimeout(checkIdle, o.idleTimeoutMs - quietMs);
        return;
      }
      timedOut = true;
      ac.abort();
    };
    let idle = setTimeout(checkIdle, o.idleTimeoutMs);
    try {
      for await (const chunk of o.provider.stream({ ...o.request, signal: ac.signal })) {
        lastChunkAt = performance.now();
        if (chunk.type === 'text') {
          if (chunk.text) onText(chunk.text, () => ac.abort());
          if (capped) break;
        } else if (chunk.type === 'usage') {
          inputTokens = chunk.inputTokens ?? inputTokens;
          outputTokens = chunk.outputTokens ?? outputTokens;
        } else {
          finishReason = chunk.reason;
        }
      }
      if (capped) {
        finishReason = 'length';
        break;
      }
      if (timedOut) throw new ProviderError('The model sent nothing for too long', 'timeout', true);
      if (o.cancel.aborted) finishReason = 'cancelled';
      finishReason ??= 'stop';
      break;
    } catch (err) {
      if (capped) {
        finishReason = 'length';
        break;
      }
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

  o.clock.due(flush, true);
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
