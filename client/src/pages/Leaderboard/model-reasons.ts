import type { Leaderboard, LeaderboardHistory, ModelFamily, PassedReason, PickedReason } from '@duet/contracts';
import { PASSED_REASONS, PICKED_REASONS } from '@duet/contracts/schemas/vote-reason.schema';
import { compareBoardModels } from '@duet/contracts/schemas/leaderboard.schema';

/** How many reasons a line shows: the most given ones. */
export const TOP_REASONS = 3;

export interface ReasonCount<R extends string> {
  reason: R;
  count: number;
}

/** One model's lines under the board: what it was picked for, and passed over for. */
export interface ModelReasonLines {
  model: string;
  label: string;
  /** Known once the model is on the board. */
  family: ModelFamily | null;
  picked: ReasonCount<PickedReason>[];
  passed: ReasonCount<PassedReason>[];
}

/**
 * A model's most given reasons of one list, most first (equal counts in the list's order). Only
 * the list's reasons are read, so a reason from a newer gateway is left out rather than shown
 * untranslated.
 */
export function topReasons<R extends string>(counts: Partial<Record<R, number>> | undefined, list: readonly R[], limit = TOP_REASONS): ReasonCount<R>[] {
  return list
    .map((reason) => {
      const n = counts && Object.hasOwn(counts, reason) ? counts[reason] : undefined;
      return { reason, count: typeof n === 'number' && Number.isInteger(n) ? n : 0 };
    })
    .filter((r) => r.count > 0)
    .sort((x, y) => y.count - x.count)
    .slice(0, limit);
}

/**
 * Every model with any reasons: in the board's order, then the models the board does not list
 * yet (votes waiting for the first refit) by name. A name comes from the board, else from the
 * board's history, else it is the model's id.
 */
export function reasonLines(board: Pick<Leaderboard, 'models' | 'reasons'>, history?: LeaderboardHistory): ModelReasonLines[] {
  const known = new Map<string, { label: string; family: ModelFamily | null }>();
  for (const day of history?.days ?? []) for (const m of day.models) known.set(m.model, { label: m.label, family: null });
  for (const m of board.models) known.set(m.model, { label: m.label, family: m.family });
  // The table's order: the ranked models by rank, then by rating, then the provisional ones.
  const rank = new Map([...board.models].sort(compareBoardModels).map((m, i) => [m.model, i]));

  const lines = Object.entries(board.reasons ?? {}).flatMap(([model, r]): ModelReasonLines[] => {
    const picked = topReasons(r.picked, PICKED_REASONS);
    const passed = topReasons(r.passed, PASSED_REASONS);
    if (picked.length === 0 && passed.length === 0) return [];
    const { label, family } = known.get(model) ?? { label: model, family: null };
    return [{ model, label, family, picked, passed }];
  });
  const order = (m: string) => rank.get(m) ?? Number.POSITIVE_INFINITY;
  return lines.sort((x, y) => order(x.model) - order(y.model) || x.label.localeCompare(y.label));
}
