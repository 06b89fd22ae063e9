/**
 * A closed-loop load: `concurrency` callers, each issuing its next call as soon as the last one
 * answered, for `warmupMs` (not measured) and then `durationMs`. Calls started inside the
 * measured window are counted; the rate is those calls over the window. Prints `measuring` on
 * stdout when the window opens and `measured` when it closes, so the parent can sample CPU over
 * the same window.
 */
export interface LoopResult {
  calls: number;
  /** Calls whose outcome was not the expected one, by outcome. */
  failures: Record<string, number>;
  perSecond: number;
  latenciesMs: number[];
  /** This process's CPU over the window, ms. */
  cpuMs: number;
  /** The loop ran out of work before the window closed. */
  exhausted: boolean;
}

/** One call: `true` when it did what was expected, else a word for what happened instead; `null` when there is no work left. */
export type Call = () => Promise<true | string | null>;

export async function closedLoop(opts: { concurrency: number; warmupMs: number; durationMs: number; call: Call }): Promise<LoopResult> {
  const latenciesMs: number[] = [];
  const failures: Record<string, number> = {};
  let calls = 0;
  let exhausted = false;
  const opened = performance.now() + opts.warmupMs;
  const closes = opened + opts.durationMs;
  let cpuAtOpen: NodeJS.CpuUsage | null = null;
  const openTimer = setTimeout(() => {
    cpuAtOpen = process.cpuUsage();
    console.log('measuring');
  }, opts.warmupMs);
  await Promise.all(
    Array.from({ length: opts.concurrency }, async () => {
      while (performance.now() < closes && !exhausted) {
        const t0 = performance.now();
        let outcome: true | string | null;
        try {
          outcome = await opts.call();
        } catch (err) {
          outcome = (err as Error).message.slice(0, 60);
        }
        if (outcome === null) {
          exhausted = true;
          break;
        }
        if (t0 < opened) continue;
        calls += 1;
        latenciesMs.push(performance.now() - t0);
        if (outcome !== true) failures[outcome] = (failures[outcome] ?? 0) + 1;
      }
    }),
  );
  clearTimeout(openTimer);
  const used = process.cpuUsage(cpuAtOpen ?? undefined);
  console.log('measured');
  return { calls, failures, perSecond: calls / (opts.durationMs / 1000), latenciesMs, cpuMs: (used.user + used.system) / 1000, exhausted };
}
