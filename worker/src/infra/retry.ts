import { setTimeout as delay } from 'node:timers/promises';

export interface RetryOptions {
  /** Stops retrying (the last error is thrown) when aborted. */
  signal?: AbortSignal | undefined;
  /** Gives up once this much time has passed since the first try. */
  maxMs: number;
  /** First wait; doubles each time up to `capMs`. */
  baseMs?: number;
  capMs?: number;
  onError?: (err: unknown, attempt: number) => void;
}

/**
 * Runs `fn` until it succeeds, waiting longer after each failure (PostgreSQL or Redis being down
 * for a while must not lose a finished answer). Throws the last error when time runs out or the
 * signal aborts.
 */
export async function retrying<T>(fn: () => Promise<T>, o: RetryOptions): Promise<T> {
  const started = Date.now();
  const base = o.baseMs ?? 250;
  const cap = o.capMs ?? 5_000;
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      o.onError?.(err, attempt);
      const wait = Math.min(cap, base * 2 ** attempt);
      if (o.signal?.aborted || Date.now() - started + wait > o.maxMs) throw err;
      await delay(wait, undefined, { signal: o.signal }).catch(() => undefined);
      if (o.signal?.aborted) throw err;
    }
  }
}
