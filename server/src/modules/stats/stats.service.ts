import type { ModelFamily, Side, WinRate, Winner } from '@duet/contracts';
import { wilsonInterval } from '@duet/ratings/ratings';
import type { Db } from '../../infra/db.ts';
import * as repo from './stats.repo.ts';
import type { CounterDelta, ModelStatsRow, StoredCounters } from './stats.repo.ts';

export type StatsService = ReturnType<typeof createStatsService>;
export type { CounterDelta, StoredCounters } from './stats.repo.ts';

/** Share of battles won, in percent with one decimal. */
export const winPercent = (wins: number, battles: number): number => (battles === 0 ? 0 : Math.round((wins / battles) * 1000) / 10);

/** The Wilson 95% interval of a win rate, in percent with one decimal. */
export function wilsonPercent(wins: number, battles: number): { winRateLow: number; winRateHigh: number } {
  const { low, high } = wilsonInterval(wins, battles);
  return { winRateLow: Math.round(low * 1000) / 10, winRateHigh: Math.round(high * 1000) / 10 };
}

/** A model's totals as win rates read them. */
export const winRateOf = (r: ModelStatsRow): WinRate => ({ ...r, winRate: winPercent(r.wins, r.battles), ...wilsonPercent(r.wins, r.battles) });

/** One family's share of wins on a tool, over all its models (the specification's two-model view). */
export function familyPercent(rates: WinRate[], family: ModelFamily): number {
  const mine = rates.filter((r) => r.family === family);
  return winPercent(
    mine.reduce((n, r) => n + r.wins, 0),
    mine.reduce((n, r) => n + r.battles, 0),
  );
}

/** What a vote with `winner` adds to the model on `side`. */
function deltaOf(side: Side, winner: Winner): CounterDelta {
  return {
    wins: winner === side ? 1 : 0,
    losses: winner === 'a' || winner === 'b' ? (winner === side ? 0 : 1) : 0,
    ties: winner === 'tie' ? 1 : 0,
    bothBad: winner === 'both_bad' ? 1 : 0,
  };
}

/**
 * Win rates per tool per model: running totals bumped with each counted vote, in the vote's own
 * transaction (the vote's store adds `deltas` to them), so reading is O(1).
 */
export function createStatsService(deps: { db: Db }) {
  return {
    /** Every model's win rate on a tool, best first. */
    winRates: async (tool: string): Promise<WinRate[]> => (await repo.listModelStats(deps.db, tool)).map(winRateOf),
    /** The win rates of counters as the vote's store returned them. */
    winRatesOf: (counters: StoredCounters): WinRate[] => repo.toModelStats(counters).map(winRateOf),
    /** What a counted vote adds to the counters of each side's model. */
    deltas: (winner: Winner): Record<Side, CounterDelta> => ({ a: deltaOf('a', winner), b: deltaOf('b', winner) }),
  };
}
