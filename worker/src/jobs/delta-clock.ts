/**
 * When a battle's text goes out. Both sides of a battle share one clock, so one flush carries the
 * new text of both: the publisher sends a battle's events of one turn as one message, and the
 * gateway sends its viewers one frame for it. While the two models stream at once, that halves
 * the messages, and every gateway's, Redis's and socket's work per message.
 *
 * At most one flush every `flushMs()` per battle, and none later than that: text goes out at once
 * when the battle's last flush is that old, else with the next one. A flush asked for `now` (a
 * side's first text, which the visitor is waiting for, and its last) goes at once and takes the
 * other side's waiting text with it.
 */
export interface DeltaClock {
  /** `flush` has text to send: it runs with the battle's next flush, at once when that is due. */
  due: (flush: () => void, now?: boolean) => void;
}

export function createDeltaClock(flushMs: () => number): DeltaClock {
  /** The sides' flushes waiting for the next tick of the clock. */
  const waiting = new Set<() => void>();
  let timer: NodeJS.Timeout | null = null;
  /** When the last flush went (`performance.now()`). */
  let lastAt = Number.NEGATIVE_INFINITY;
  const tick = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    lastAt = performance.now();
    const flushes = [...waiting];
    waiting.clear();
    for (const flush of flushes) flush();
  };
  return {
    due(flush, now = false) {
      waiting.add(flush);
      if (now) return tick();
      if (timer) return;
      const wait = lastAt + flushMs() - performance.now();
      if (wait <= 0) tick();
      else timer = setTimeout(tick, wait);
    },
  };
}
