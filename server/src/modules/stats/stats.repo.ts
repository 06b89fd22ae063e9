import type { ModelFamily } from '@duet/contracts';
import type { Db } from '../../infra/db.ts';

/** What a vote adds to one model's counters on one tool. */
export interface CounterDelta {
  wins: number;
  losses: number;
  ties: number;
  bothBad: number;
}

/** One model's running totals on one tool (the `model_stats` table). */
export interface ModelStatsRow {
  model: string;
  label: string;
  family: ModelFamily;
  battles: number;
  wins: number;
  losses: number;
  ties: number;
  bothBad: number;
}

/**
 * A tool's counters as PostgreSQL's `tool_win_rates()` gives them (migration 1764300000000), best
 * win rate first: what `listModelStats` reads, and what storing a vote returns.
 */
export type StoredCounters = Array<Omit<ModelStatsRow, 'bothBad'> & { both_bad: number }>;

export const toModelStats = (counters: StoredCounters): ModelStatsRow[] => counters.map(({ both_bad, ...r }) => ({ ...r, bothBad: both_bad }));

/** Every model's totals on a tool, best win rate first: one indexed read. */
export async function listModelStats(db: Db, tool: string): Promise<ModelStatsRow[]> {
  const { rows } = await db.query<{ counters: StoredCounters }>({ name: 'tool-win-rates', text: 'SELECT tool_win_rates($1) AS counters', values: [tool] });
  return toModelStats(rows[0]?.counters ?? []);
}
