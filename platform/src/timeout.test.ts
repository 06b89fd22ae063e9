import { describe, expect, it } from 'vitest';
import { settlesWithin } from './timeout.ts';

describe('settlesWithin', () => {
  it('says whether the work settled in time, a failure counting as settled and handled', async () => {
    expect(await settlesWithin(Promise.resolve('done'), 1_000)).toBe(true);
    expect(await settlesWithin(Promise.reject(new Error('refused')), 1_000)).toBe(true);
    expect(await settlesWithin(new Promise(() => undefined), 20)).toBe(false);
    // A bound already past still lets work that has settled count.
    expect(await settlesWithin(Promise.resolve(), -5)).toBe(true);
  });
});
