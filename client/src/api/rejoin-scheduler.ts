/** How a `battle:join` went, as the live battle hook judges it. */
export type JoinOutcome =
  /** The snapshot had everything the viewer had seen go missing. */
  | 'clean'
  /** The snapshot still lacks deltas the viewer saw go by (a broken stream): try again later. */
  | 'gap'
  /** No answer, or a refusal worth retrying (timeout, rate limit, gateway trouble). */
  | 'failed'
  /** The battle is gone or the request was refused for good: stop joining. */
  | 'gone';

export interface RejoinTiming {
  /** Delay before the second join in a row; it doubles with each further one. */
  firstBackoffMs: number;
  maxBackoffMs: number;
  /** A clean join followed by this long without a gap ends a run of joins: the next gap re-joins at once. */
  quietMs: number;
  /** `battle:resync` reaches every viewer at once: each waits a random part of this first. */
  resyncJitterMs: number;
}

export const REJOIN_TIMING: RejoinTiming = {
  firstBackoffMs: 250,
  maxBackoffMs: 5_000,
  quietMs: 5_000,
  resyncJitterMs: 1_000,
};

export interface RejoinSchedulerDeps {
  /** Sends `battle:join` and takes in the snapshot. Called only while connected, one at a time. */
  join: () => Promise<JoinOutcome>;
  connected: () => boolean;
  timing?: RejoinTiming;
  now?: () => number;
  random?: () => number;
  setTimer?: (run: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
}

/**
 * Decides when a viewer (re-)joins its battle. At most one join is in flight; requests while one
 * is are folded into one more join after it. A gap re-joins at once, but when joins keep finding
 * gaps (a broken stream, a channel that keeps dropping events) each further join waits longer:
 * 250 ms doubling to 5 s, until a clean join stays quiet for a while. A reconnect joins at once
 * and starts afresh; a resync waits a random jitter so a whole audience does not join at once.
 */
export function createRejoinScheduler(deps: RejoinSchedulerDeps) {
  const timing = deps.timing ?? REJOIN_TIMING;
  const now = deps.now ?? Date.now;
  const random = deps.random ?? Math.random;
  const setTimer = deps.setTimer ?? ((run: () => void, ms: number) => setTimeout(run, ms));
  const clearTimer = deps.clearTimer ?? ((t: unknown) => clearTimeout(t as ReturnType<typeof setTimeout>));

  /** Retries made in the current run of joins that found gaps or failed: the next waits `backoff(attempts)`. */
  let attempts = 0;
  /** The join scheduled is a retry (a gap, an unclean join, a failure), not a connect or a resync. */
  let retry = false;
  /** When the last join came back clean; null when it did not (or none has). */
  let cleanAt: number | null = null;
  let timer: unknown = null;
  let dueAt = Number.POSITIVE_INFINITY;
  let inFlight = false;
  /** The soonest delay asked for while a join was in flight. */
  let queued: number | null = null;
  /** Bumped by a disconnect and by `stop`: a join from before no longer counts. */
  let generation = 0;
  let stopped = false;

  const backoff = (n: number): number =>
    n === 0 ? 0 : Math.min(timing.firstBackoffMs * 2 ** (n - 1), timing.maxBackoffMs);

  function schedule(delayMs: number, asRetry: boolean): void {
    if (stopped) return;
    retry ||= asRetry;
    if (inFlight) {
      queued = queued === null ? delayMs : Math.min(queued, delayMs);
      return;
    }
    const due = now() + delayMs;
    if (timer !== null) {
      if (dueAt <= due) return;
      clearTimer(timer);
    }
    dueAt = due;
    timer = setTimer(() => void run(), delayMs);
  }

  async function run(): Promise<void> {
    timer = null;
    dueAt = Number.POSITIVE_INFINITY;
    // Not connected: the reconnect joins.
    if (stopped || !deps.connected()) return;
    const mine = generation;
    inFlight = true;
    if (retry) attempts += 1;
    retry = false;
    cleanAt = null;
    const outcome = await deps.join().catch((): JoinOutcome => 'failed');
    if (mine !== generation) return;
    inFlight = false;
    if (outcome === 'clean') cleanAt = now();
    else if (outcome !== 'gone') schedule(backoff(attempts), true);
    if (queued !== null) {
      const delay = queued;
      queued = null;
      schedule(delay, false);
    }
  }

  /** The socket dropped: a join in flight will not be answered; the reconnect joins. */
  function disconnected(): void {
    generation += 1;
    inFlight = false;
    queued = null;
    if (timer !== null) clearTimer(timer);
    timer = null;
    dueAt = Number.POSITIVE_INFINITY;
  }

  return {
    disconnected,
    /** The socket (re)connected: join now, afresh. */
    connected(): void {
      attempts = 0;
      retry = false;
      schedule(0, false);
    },
    /** An event did not follow on from the snapshot. */
    gap(): void {
      if (cleanAt !== null && now() - cleanAt >= timing.quietMs) attempts = 0;
      schedule(backoff(attempts), true);
    },
    /** The gateway may have missed events: join again after a random jitter. */
    resync(): void {
      schedule(random() * timing.resyncJitterMs, false);
    },
    /** The viewer left: nothing more is scheduled or counted. */
    stop(): void {
      disconnected();
      stopped = true;
    },
  };
}

export type RejoinScheduler = ReturnType<typeof createRejoinScheduler>;
