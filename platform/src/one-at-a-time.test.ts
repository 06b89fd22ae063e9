import { describe, expect, it } from 'vitest';
import { oneAtATime } from './one-at-a-time.ts';

describe('oneAtATime', () => {
  it('gives calls made during a run that run, and starts a new one once it settled, failed or not', async () => {
    let runs = 0;
    let finish: (() => void) | undefined;
    let fail = false;
    const run = oneAtATime(async () => {
      runs += 1;
      await new Promise<void>((resolve) => (finish = resolve));
      if (fail) throw new Error('refused');
    });
    const first = run();
    const second = run();
    expect(second).toBe(first);
    expect(runs).toBe(1);
    finish!();
    await first;
    fail = true;
    const third = run();
    expect(third).not.toBe(first);
    expect(runs).toBe(2);
    finish!();
    await expect(third).rejects.toThrow('refused');
    const fourth = run();
    expect(runs).toBe(3);
    finish!();
    await expect(fourth).rejects.toThrow('refused');
  });
});
