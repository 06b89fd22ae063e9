import type { Comparison, ComparisonCell } from '@duet/ratings/ratings';
import { TRUE_ORDER } from '../../test/helpers/synthetic-votes.ts';

/** The same votes as the leaderboard's SQL hands them over: one cell per (a, b, winner). */
export function groupVotes(votes: readonly Comparison[]): ComparisonCell[] {
  const cells = new Map<string, ComparisonCell>();
  for (const v of votes) {
    const key = `${v.a}\u0000${v.b}\u0000${v.winner}`;
    const cell = cells.get(key);
    if (cell) cell.n++;
    else cells.set(key, { ...v, n: 1 });
  }
  return [...cells.values()];
}

/** Kendall's tau between a fitted order and the true one: 1 when every pair is in the right order. */
export function kendallTau(order: readonly string[], truth: readonly string[] = TRUE_ORDER): number {
  const rank = new Map(order.map((id, k) => [id, k]));
  let concordant = 0;
  let discordant = 0;
  for (let x = 0; x < truth.length; x++) {
    for (let y = x + 1; y < truth.length; y++) {
      if ((rank.get(truth[x] as string) ?? 0) < (rank.get(truth[y] as string) ?? 0)) concordant++;
      else discordant++;
    }
  }
  return (concordant - discordant) / (concordant + discordant);
}
