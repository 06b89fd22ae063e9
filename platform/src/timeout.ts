/**
 * Bounds on waits, one helper for every process (from `p-timeout`, whose timer goes as soon as
 * the work settles, so a bound never holds the event loop open): health checks and scrapes that
 * must answer within a second, shutdown steps that must not wait on a connection gone silent.
 * A bound of 0 or less waits one millisecond: work that has already settled still counts.
 */
import pTimeout from 'p-timeout';

/** `work`'s outcome, or a rejection (`no answer within <ms> ms`) once `ms` have passed. */
export function within<T>(ms: number, work: PromiseLike<T> | (() => PromiseLike<T>)): Promise<T> {
  return pTimeout(Promise.resolve(typeof work === 'function' ? work() : work), { milliseconds: Math.max(1, ms), message: `no answer within ${ms} ms` });
}

/** `work`'s value, or undefined once `ms` have passed; a failure of `work` in time passes on. */
export function atMost<T>(ms: number, work: PromiseLike<T>): Promise<T | undefined> {
  return pTimeout(Promise.resolve(work), { milliseconds: Math.max(1, ms), message: false });
}

/**
 * Waits for `work` at most `ms`: true if it settled (resolved or failed) in time, false if not.
 * A close step that waits on a connection gone silent (a Redis host gone from under it) would
 * otherwise hold a shutdown until the socket's own timer cuts it.
 */
export async function settlesWithin(work: PromiseLike<unknown>, ms: number): Promise<boolean> {
  const settled = Promise.resolve(work).then(
    () => true,
    () => true,
  );
  return (await atMost(ms, settled)) ?? false;
}
