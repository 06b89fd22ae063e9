import type { LeaderboardModel, ModelReasons } from '@duet/contracts';
import { NO_SPEED } from '@duet/contracts/schemas/leaderboard.schema';
import { PICKED_REASONS } from '@duet/contracts/schemas/vote-reason.schema';
import { describe, expect, it } from 'vitest';
import { reasonLines, topReasons } from './model-reasons.ts';

const model = (id: string, label: string, rank: number, rating: number): LeaderboardModel => ({
  model: id,
  label,
  family: 'gpt',
  rating,
  ciLow: rating - 50,
  ciHigh: rating + 50,
  rank,
  provisional: false,
  battles: 10,
  winRate: 50,
  speed: NO_SPEED,
});

describe('the reasons a model was picked or passed over for', () => {
  it('keeps the three most given, most first, equal counts in the list’s order', () => {
    expect(topReasons({ concise: 2, accurate: 12, clear: 7, creative: 2 }, PICKED_REASONS)).toEqual([
      { reason: 'accurate', count: 12 },
      { reason: 'clear', count: 7 },
      { reason: 'creative', count: 2 },
    ]);
  });

  it('leaves out reasons it has no words for, and counts that are not positive whole numbers', () => {
    const counts = { accurate: 0, clear: 1.5, nice: 9, constructor: 4, creative: '3' } as unknown as ModelReasons['picked'];
    expect(topReasons(counts, PICKED_REASONS)).toEqual([]);
    expect(topReasons(undefined, PICKED_REASONS)).toEqual([]);
  });

  it('lists the models with any reasons in the board’s order, then unlisted ones by the name their history gives, else their id', () => {
    const lines = reasonLines(
      {
        models: [model('m:second', 'Second', 2, 950), model('m:first', 'First', 1, 1050)],
        reasons: {
          'm:new': { picked: { clear: 1 }, passed: {} },
          'm:second': { picked: {}, passed: { too_long: 3 } },
          'm:silent': { picked: {}, passed: {} },
          'm:first': { picked: { accurate: 2 }, passed: { wrong: 1 } },
          'm:old': { picked: { concise: 1 }, passed: {} },
        },
      },
      { days: [{ day: '2025-01-01', votes: 3, models: [{ model: 'm:old', label: 'Alpha (retired)', rating: 1000, ciLow: 900, ciHigh: 1100 }] }] },
    );
    expect(lines.map((l) => [l.model, l.label, l.family])).toEqual([
      ['m:first', 'First', 'gpt'],
      ['m:second', 'Second', 'gpt'],
      ['m:old', 'Alpha (retired)', null],
      ['m:new', 'm:new', null],
    ]);
    expect(lines[0]).toMatchObject({ picked: [{ reason: 'accurate', count: 2 }], passed: [{ reason: 'wrong', count: 1 }] });
  });

  it('has no lines for a board without reasons', () => {
    expect(reasonLines({ models: [model('m:first', 'First', 1, 1000)] })).toEqual([]);
  });
});
