import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { adaptiveFlushWindow, windowFor } from './flush-window.ts';

/** Waits up to 2 s for `ok`, then asserts it. */
async function until(ok: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !ok(); i++) await delay(5);
  expect(ok()).toBe(true);
}

describe('the wait before a delta is sent', () => {
  it('is the shortest while the loop has time to spare, the longest once it is full, a line between', () => {
    expect(windowFor(0, 25, 50)).toBe(25);
    expect(windowFor(0.5, 25, 50)).toBe(25);
    expect(windowFor(0.65, 25, 50)).toBe(38);
    expect(windowFor(0.8, 25, 50)).toBe(50);
    expect(windowFor(1, 25, 50)).toBe(50);
    expect(windowFor(Number.NaN, 25, 50)).toBe(25);
  });

  it('follows the measured utilization, starting from the shortest', async () => {
    let u = 0.9;
    const window = adaptiveFlushWindow({ minMs: 25, maxMs: 50, sampleMs: 10, utilization: () => u });
    try {
      expect(window.ms()).toBe(25);
      await until(() => window.ms() === 50);
      u = 0.2;
      await until(() => window.ms() === 25);
    } finally {
      window.stop();
    }
  });

  it('is fixed when the shortest is not below the longest (DELTA_FLUSH_MS 0 sends every token at once)', async () => {
    let sampled = 0;
    const zero = adaptiveFlushWindow({ minMs: 25, maxMs: 0, sampleMs: 5, utilization: () => (sampled++, 1) });
    const fixed = adaptiveFlushWindow({ minMs: 40, maxMs: 40, sampleMs: 5, utilization: () => (sampled++, 1) });
    try {
      await delay(30);
      expect(zero.ms()).toBe(0);
      expect(fixed.ms()).toBe(40);
      expect(sampled).toBe(0);
    } finally {
      zero.stop();
      fixed.stop();
    }
  });
});
