/**
 * `fn` run at most once at a time: a call while a run is under way gets that run's promise instead
 * of starting another (periodic checks that may outlast their interval, writes asked for from
 * several places).
 */
export function oneAtATime(fn: () => Promise<void>): () => Promise<void> {
  let run: Promise<void> | null = null;
  return () =>
    (run ??= fn().finally(() => {
      run = null;
    }));
}
