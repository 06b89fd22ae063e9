import { describe, expect, it } from 'vitest';
import { createStartPacer } from './start-pacer.ts';

/** One turn of the event loop: resolves after the immediates queued before it. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('start pacer', () => {
  it('lets one waiting battle start through per turn of the event loop, in the order they asked', async () => {
    const pace = createStartPacer();
    const started: number[] = [];
    const all = [1, 2, 3].map((n) => pace().then(() => started.push(n)));
    await nextTurn();
    expect(started).toEqual([1]);
    await nextTurn();
    expect(started).toEqual([1, 2]);
    await nextTurn();
    expect(started).toEqual([1, 2, 3]);
    await Promise.all(all);
  });

  it('lets as many through per turn as asked', async () => {
    const pace = createStartPacer(2);
    const started: number[] = [];
    const all = [1, 2, 3].map((n) => pace().then(() => started.push(n)));
    await nextTurn();
    expect(started).toEqual([1, 2]);
    await Promise.all(all);
    expect(started).toEqual([1, 2, 3]);
  });
});
