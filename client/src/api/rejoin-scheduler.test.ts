import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { JoinOutcome } from './rejoin-scheduler.ts';
import { createRejoinScheduler } from './rejoin-scheduler.ts';

/** A scheduler whose joins answer `outcome()` at once, recording when each join was sent. */
function setup(outcome: () => JoinOutcome | Promise<JoinOutcome>, opts: { random?: number } = {}) {
  const joinedAt: number[] = [];
  let online = true;
  const scheduler = createRejoinScheduler({
    join: async () => {
      joinedAt.push(Date.now());
      return outcome();
    },
    connected: () => online,
    random: () => opts.random ?? 0.5,
  });
  return {
    scheduler,
    joinedAt,
    setOnline: (v: boolean) => {
      online = v;
    },
  };
}

/** The time between one join and the next. */
const waitsOf = (times: number[]) => times.slice(1).map((t, i) => t - times[i]!);

/** A join that stays in flight until `settle` is called. */
function pendingJoin() {
  let settle: (o: JoinOutcome) => void = () => undefined;
  const promise = new Promise<JoinOutcome>((resolve) => {
    settle = resolve;
  });
  return { promise, settle: (o: JoinOutcome) => settle(o) };
}

describe('the rejoin scheduler', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('joins at once when the socket connects', async () => {
    const { scheduler, joinedAt } = setup(() => 'clean');
    scheduler.connected();
    await vi.advanceTimersByTimeAsync(0);
    expect(joinedAt).toEqual([0]);
  });

  it('keeps at most one join in flight, and folds what was asked meanwhile into one more', async () => {
    const first = pendingJoin();
    let calls = 0;
    const { scheduler, joinedAt } = setup(() => (++calls === 1 ? first.promise : 'clean'), { random: 0 });
    scheduler.connected();
    await vi.advanceTimersByTimeAsync(0);
    for (let i = 0; i < 50; i += 1) {
      scheduler.gap();
      scheduler.resync();
    }
    await vi.advanceTimersByTimeAsync(3_000);
    expect(joinedAt).toHaveLength(1);
    first.settle('clean');
    await vi.advanceTimersByTimeAsync(3_000);
    expect(joinedAt).toEqual([0, 3_000]);
  });

  it('re-joins at once on a first gap, then backs off 250 ms doubling to 5 s while joins keep finding gaps', async () => {
    const { scheduler, joinedAt } = setup(() => 'gap');
    scheduler.connected();
    // Live deltas keep arriving out of order every 50 ms for a minute.
    for (let t = 0; t < 60_000; t += 50) {
      scheduler.gap();
      await vi.advanceTimersByTimeAsync(50);
    }
    const waits = waitsOf(joinedAt);
    expect(waits.slice(0, 7)).toEqual([250, 500, 1_000, 2_000, 4_000, 5_000, 5_000]);
    expect(Math.max(...waits)).toBe(5_000);
    // A broken stream costs a join every 5 s, not one per delta.
    expect(joinedAt.length).toBeLessThan(20);
  });

  it('backs off too when clean joins are followed at once by new gaps', async () => {
    const { scheduler, joinedAt } = setup(() => 'clean');
    scheduler.connected();
    for (let t = 0; t < 10_000; t += 100) {
      scheduler.gap();
      await vi.advanceTimersByTimeAsync(100);
    }
    const waits = waitsOf(joinedAt);
    expect(waits.length).toBeGreaterThanOrEqual(5);
    waits.forEach((wait, i) => expect(wait).toBeGreaterThanOrEqual(Math.min(250 * 2 ** i, 5_000)));
  });

  it('re-joins at once on the first gap after a clean join, and again once a clean join stayed quiet', async () => {
    const { scheduler, joinedAt } = setup(() => 'clean');
    scheduler.connected();
    await vi.advanceTimersByTimeAsync(0);
    scheduler.gap();
    await vi.advanceTimersByTimeAsync(0);
    expect(joinedAt).toEqual([0, 0]);
    // Another gap right after that join: joins keep finding gaps, so this one waits.
    scheduler.gap();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(joinedAt).toEqual([0, 0, 250]);
    await vi.advanceTimersByTimeAsync(5_000);
    scheduler.gap();
    await vi.advanceTimersByTimeAsync(0);
    expect(joinedAt).toEqual([0, 0, 250, 6_000]);
  });

  it('joins at once on a reconnect, even in the middle of a backoff', async () => {
    const { scheduler, joinedAt, setOnline } = setup(() => 'gap');
    scheduler.connected();
    await vi.advanceTimersByTimeAsync(4_000);
    // The connect's join found a gap: one retry at once (the timer's minimum), then the backoff.
    expect(waitsOf(joinedAt)).toEqual([1, 250, 500, 1_000, 2_000]);
    setOnline(false);
    scheduler.disconnected();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(joinedAt).toHaveLength(6);
    setOnline(true);
    scheduler.connected();
    await vi.advanceTimersByTimeAsync(0);
    expect(joinedAt.at(-1)).toBe(14_000);
  });

  it('forgets a join that was in flight when the socket dropped', async () => {
    const lost = pendingJoin();
    let calls = 0;
    const { scheduler, joinedAt } = setup(() => (++calls === 1 ? lost.promise : 'clean'));
    scheduler.connected();
    await vi.advanceTimersByTimeAsync(0);
    scheduler.disconnected();
    lost.settle('gap');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(joinedAt).toEqual([0]);
    scheduler.connected();
    await vi.advanceTimersByTimeAsync(0);
    expect(joinedAt).toEqual([0, 10_000]);
  });

  it('waits a random jitter under a second before joining on a resync', async () => {
    const { scheduler, joinedAt } = setup(() => 'clean', { random: 0.7 });
    scheduler.connected();
    await vi.advanceTimersByTimeAsync(0);
    scheduler.resync();
    await vi.advanceTimersByTimeAsync(699);
    expect(joinedAt).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1);
    expect(joinedAt).toEqual([0, 700]);
  });

  it('retries a join that got no answer, and stops for a battle that is gone', async () => {
    const outcomes: JoinOutcome[] = ['failed', 'failed', 'failed', 'gone'];
    const { scheduler, joinedAt } = setup(() => outcomes.shift() ?? 'clean');
    scheduler.connected();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(waitsOf(joinedAt)).toEqual([1, 250, 500]);
  });

  it('schedules nothing more once stopped', async () => {
    const { scheduler, joinedAt } = setup(() => 'gap');
    scheduler.connected();
    await vi.advanceTimersByTimeAsync(0);
    scheduler.stop();
    scheduler.gap();
    scheduler.resync();
    scheduler.connected();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(joinedAt).toEqual([0]);
  });
});
