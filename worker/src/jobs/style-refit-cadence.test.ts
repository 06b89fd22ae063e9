import { styleRefitFollowsPlain } from '@duet/contracts';
import { describe, expect, it } from 'vitest';
import { DEFAULT_STYLE_CHEAP_MS, styleRefitCost, ZStyleCheapEnvSchema } from './style-refit-cadence.ts';

describe('style refit cadence', () => {
  it('counts a style refit quicker than the threshold as cheap and one that takes it or longer as costly', () => {
    expect(DEFAULT_STYLE_CHEAP_MS).toBe(1_000);
    expect(styleRefitCost(12, 1_000)).toBe('cheap');
    expect(styleRefitCost(999, 1_000)).toBe('cheap');
    expect(styleRefitCost(1_000, 1_000)).toBe('costly');
    expect(styleRefitCost(4_500, 1_000)).toBe('costly');
  });

  it('never counts a style refit as cheap with the threshold at 0', () => {
    expect(styleRefitCost(0, 0)).toBe('costly');
  });

  it('follows the plain refit while the last style refit was cheap, not once it was costly nor before the first one measured it', () => {
    expect(styleRefitFollowsPlain(null)).toBe(false);
    expect(styleRefitFollowsPlain(styleRefitCost(5, 1_000))).toBe(true);
    expect(styleRefitFollowsPlain(styleRefitCost(5_000, 1_000))).toBe(false);
  });

  it('rejects a negative or fractional threshold', () => {
    expect(ZStyleCheapEnvSchema.safeParse({ LEADERBOARD_STYLE_CHEAP_MS: '-1' }).success).toBe(false);
    expect(ZStyleCheapEnvSchema.safeParse({ LEADERBOARD_STYLE_CHEAP_MS: '1.5' }).success).toBe(false);
    expect(ZStyleCheapEnvSchema.parse({ LEADERBOARD_STYLE_CHEAP_MS: '250' }).LEADERBOARD_STYLE_CHEAP_MS).toBe(250);
  });
});
