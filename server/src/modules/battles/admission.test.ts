import { describe, expect, it } from 'vitest';
import { createAdmission } from './admission.ts';

const admission = (maxWaiting: number, waiting: number, pace: number) => createAdmission({ maxWaiting, waitingCount: async () => waiting, pace: () => pace })();

describe('admission', () => {
  it('takes every battle while fewer than the bound wait, and always with no bound', async () => {
    expect(await admission(100, 99, 0)).toEqual({ open: true });
    expect(await admission(0, 1_000_000, 0)).toEqual({ open: true });
  });

  it('turns a visitor away past the bound, for as long as the queue needs at its pace, within 5 s and 5 min', async () => {
    expect(await admission(100, 100, 10)).toEqual({ open: false, retryAfterSeconds: 5 });
    expect(await admission(100, 399, 10)).toEqual({ open: false, retryAfterSeconds: 30 });
    expect(await admission(100, 100_000, 10)).toEqual({ open: false, retryAfterSeconds: 300 });
  });

  it('asks for 30 s while no pace is known yet', async () => {
    expect(await admission(100, 150, 0)).toEqual({ open: false, retryAfterSeconds: 30 });
  });
});
