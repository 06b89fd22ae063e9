import { ZLeaderboardSchema } from '@duet/contracts';
import type { LeaderboardModel } from '@duet/contracts';
import { describe, expect, it } from 'vitest';
import { loadGatewayConfig } from '../../config.ts';
import { withIntervals } from './board-intervals.ts';

const model = (model: string, ciLow: number, ciHigh: number, rank: number): LeaderboardModel => ({
  model,
  label: model,
  family: 'gpt',
  rating: 1000,
  ciLow,
  ciHigh,
  rank,
  provisional: false,
  battles: 400,
  winRate: 50,
  speed: { ttftMsP50: null, tokensPerSecondP50: null, answerCharsP50: null, ttftMsP25: null, ttftMsP75: null, answers: 0 },
});

const board = ZLeaderboardSchema.parse({
  tool: null,
  control: 'none',
  votes: 800,
  updatedAt: '2026-11-29T00:00:00.000Z',
  models: [model('a', 990, 1010, 1)],
  otherIntervals: [{ intervals: 'sandwich', models: [model('a', 985, 1015, 1)] }],
});

describe('the intervals a board is served with', () => {
  it('swaps the chosen intervals into the models and keeps the others beside them', () => {
    const sandwich = withIntervals(board, 'sandwich');
    expect(sandwich.intervals).toBe('sandwich');
    expect(sandwich.models[0]!.ciLow).toBe(985);
    expect(sandwich.otherIntervals).toEqual([{ intervals: 'bootstrap', models: board.models }]);
    expect(withIntervals(sandwich, 'bootstrap')).toEqual(board);
    expect(withIntervals(board, 'bootstrap')).toBe(board);
  });

  it('serves a board without the chosen intervals as it is, saying which it shows', () => {
    const styleBoard = { ...board, control: 'style' as const, otherIntervals: [] };
    expect(withIntervals(styleBoard, 'sandwich')).toEqual(styleBoard);
    expect(withIntervals(styleBoard, 'sandwich').intervals).toBe('bootstrap');
  });

  it('reads a board cached before there were two kinds as the bootstrap’s, unweighted', () => {
    const older = Object.fromEntries(Object.entries(board).filter(([key]) => !['intervals', 'pairWeighting', 'otherIntervals'].includes(key)));
    expect(ZLeaderboardSchema.parse(older)).toMatchObject({ intervals: 'bootstrap', pairWeighting: false, otherIntervals: [] });
  });

  it('takes its default from RATING_INTERVALS, the bootstrap unless set, and refuses another method', () => {
    expect(loadGatewayConfig({}).ratingIntervals).toBe('bootstrap');
    expect(loadGatewayConfig({ RATING_INTERVALS: 'sandwich' }).ratingIntervals).toBe('sandwich');
    expect(() => loadGatewayConfig({ RATING_INTERVALS: 'jackknife' })).toThrow(/RATING_INTERVALS/);
  });
});
