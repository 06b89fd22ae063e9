import { LEADERBOARD_SCHEDULER, LEADERBOARD_STYLE_SCHEDULER } from '@duet/contracts';
import { describe, expect, it } from 'vitest';
import { nextRefitFrom } from './next-refit.ts';

const PLAIN_NEXT = 1_000;
const STYLE_NEXT = 3_600_000;
const refits = {
  getJobScheduler: async (id: string) => ({ [LEADERBOARD_SCHEDULER]: { next: PLAIN_NEXT }, [LEADERBOARD_STYLE_SCHEDULER]: { next: STYLE_NEXT } })[id],
};

describe('next refit of a board', () => {
  it('gives the style-controlled boards the plain refit’s next run while their refit is cheap', async () => {
    expect(await nextRefitFrom(refits, async () => 'cheap')('style')).toBe(PLAIN_NEXT);
  });

  it('gives them the style schedule’s next run when their refit is costly or not measured yet, and the plain boards the plain refit’s always', async () => {
    for (const cost of ['costly', null]) {
      const next = nextRefitFrom(refits, async () => cost);
      expect(await next('style')).toBe(STYLE_NEXT);
      expect(await next('none')).toBe(PLAIN_NEXT);
    }
  });

  it('says nothing is scheduled without the leaderboard queue', async () => {
    expect(await nextRefitFrom(undefined, async () => 'cheap')('style')).toBeNull();
  });
});
