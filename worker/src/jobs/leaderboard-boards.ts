import { boardScope, CATEGORY_MIN_VOTES, compareBoardModels, LEADERBOARD_CATEGORIES, NO_SPEED, TOOLS } from '@duet/contracts';
import { ZYesNoSchema } from '@duet/platform/env';
import { DEFAULT_PROMPT_CAP } from '@duet/platform/prompt-cap';
import { bootstrapIntervals, rankModels } from '@duet/ratings/ratings';
import { sandwichIntervals } from '@duet/ratings/sandwich';
import { styleControlledIntervals } from '@duet/ratings/style-control';
import { topRobustness } from '@duet/ratings/top-robustness';
import { z } from 'zod';
import type { BoardId, Dedup, Leaderboard, LeaderboardCategory, LeaderboardModel, LeaderboardPair, ModelFamily, ModelSpeed } from '@duet/contracts';
import type { ComparisonCell, RatingInterval } from '@duet/ratings/ratings';
import type { StyledComparison } from '@duet/ratings/style-control';
import type { CountedRow, SnapshotRow, SpeedRow, StyledRow } from '../store/leaderboard.repo.ts';

/** What one refit read: the counted votes grouped, one by one with their styles (null: no style control), and the answers' speed. */
export interface RefitData {
  cells: CountedRow[];
  styled: StyledVotes | ScopedStyledVotes | null;
  speed: SpeedRow[];
  /** ISO: when the ratings were computed, and the database clock when the votes were read. */
  updatedAt: string;
  countedThrough: string | null;
}

/** Counted votes a model needs on a board to be ranked: below, its rating is provisional. */
export interface RankedMinimum {
  /** On the overall board. */
  overall: number;
  /** On a tool's or a category's board (a slice of the votes). */
  slice: number;
}

/** The settings of {@link RankedMinimum}, read by the worker at start and by the refit's own process. */
export const ZRankedMinimumEnvSchema = z.object({
  MIN_VOTES_RANKED: z.coerce.number().int().min(0).default(300),
  MIN_VOTES_RANKED_SLICE: z.coerce.number().int().min(0).default(100),
});

export const rankedMinimumOf = (e: z.infer<typeof ZRankedMinimumEnvSchema>): RankedMinimum => ({ overall: e.MIN_VOTES_RANKED, slice: e.MIN_VOTES_RANKED_SLICE });

/** The settings' defaults, for a refit called without them. */
export const DEFAULT_RANKED_MINIMUM: RankedMinimum = rankedMinimumOf(ZRankedMinimumEnvSchema.parse({}));

/** The setting of {@link FitSettings.pairWeighting}, read by the worker at start and by the refit's own process. */
export const ZPairWeightingEnvSchema = z.object({
  RATING_PAIR_WEIGHTING: ZYesNoSchema.default(false),
});

export interface FitSettings {
  resamples: number;
  seed: number;
  /** Weigh each vote of the plain fit inversely to how often its pair of models met (default false). */
  pairWeighting?: boolean;
  /** Default {@link DEFAULT_RANKED_MINIMUM}. */
  minVotesRanked?: RankedMinimum;
  /** DEDUP_MAX_PER_PROMPT, the cap the cells' `over_cap` was read with (default DEFAULT_PROMPT_CAP); the boards say it. */
  promptCap?: number;
  /** Which boards: `on` (default) leaves out the votes over the prompt cap, `off` counts them too. */
  dedup?: Dedup;
}

export type Scope = Pick<BoardId, 'tool' | 'category'>;

/** Every board's scope: overall, each tool's, each category's. */
export const SCOPES: readonly Scope[] = [
  { tool: null, category: null },
  ...TOOLS.map((t) => ({ tool: t.slug, category: null })),
  ...LEADERBOARD_CATEGORIES.map((category) => ({ tool: null, category })),
];

/** What decides which boards a counted vote is on, besides its models and verdict. */
export interface VoteKind {
  tool: string;
  lang: string;
  hasImage: boolean;
  multiTurn: boolean;
}

/** Whether a counted vote of this kind belongs to the scope. */
export function inScope(s: Scope, v: VoteKind): boolean {
  if (s.tool !== null) return v.tool === s.tool;
  return categoryHolds(s.category, v);
}

function categoryHolds(category: LeaderboardCategory | null, v: VoteKind): boolean {
  switch (category) {
    case null:
      return true;
    case 'ko':
    case 'en':
      return v.lang === category;
    case 'image':
      return v.hasImage;
    case 'text':
      return !v.hasImage;
    case 'multi-turn':
      return v.multiTurn;
  }
}

/** Whether a speed row is the figures of the scope's slice (each row has at most one key set). */
function speedHolds(r: SpeedRow, s: Scope): boolean {
  if (s.tool !== null) return r.tool === s.tool;
  const overall = r.tool === null && r.lang === null && r.has_image === null && r.multi_turn === null;
  switch (s.category) {
    case null:
      return overall;
    case 'ko':
    case 'en':
      return r.lang === s.category && r.tool === null;
    case 'image':
    case 'text':
      return r.has_image === (s.category === 'image') && r.lang === null && r.tool === null;
    case 'multi-turn':
      return r.multi_turn === true;
  }
}

function speedOf(rows: SpeedRow[], s: Scope): Map<string, ModelSpeed> {
  const out = new Map<string, ModelSpeed>();
  const round = (x: number | null) => (x === null ? null : Math.round(x * 10) / 10);
  for (const r of rows) {
    if (!speedHolds(r, s)) continue;
    out.set(r.model, {
      ttftMsP50: round(r.ttftMsP50),
      ttftMsP25: round(r.ttftMsP25),
      ttftMsP75: round(r.ttftMsP75),
      tokensPerSecondP50: round(r.tokensPerSecondP50),
      answerCharsP50: round(r.answerCharsP50),
      answers: r.answers,
    });
  }
  return out;
}

interface ModelMeta {
  label: string;
  family: ModelFamily;
  battles: number;
  wins: number;
}

/** Battles and outright wins per model and per pair of models. */
function tally(rows: CountedRow[]): { meta: Map<string, ModelMeta>; pairs: LeaderboardPair[]; votes: number } {
  const meta = new Map<string, ModelMeta>();
  const pairs = new Map<string, LeaderboardPair>();
  let votes = 0;
  const note = (model: string, label: string, family: ModelFamily, battles: number, wins: number) => {
    const m = meta.get(model) ?? { label, family, battles: 0, wins: 0 };
    m.battles += battles;
    m.wins += wins;
    meta.set(model, m);
  };
  for (const r of rows) {
    votes += r.n;
    note(r.model_a, r.label_a, r.family_a, r.n, r.winner === 'a' ? r.n : 0);
    note(r.model_b, r.label_b, r.family_b, r.n, r.winner === 'b' ? r.n : 0);
    const [a, b] = r.model_a < r.model_b ? [r.model_a, r.model_b] : [r.model_b, r.model_a];
    const key = `${a}\u0000${b}`;
    const p = pairs.get(key) ?? { a, b, battles: 0, winsA: 0, winsB: 0 };
    p.battles += r.n;
    const winner = r.winner === 'a' ? r.model_a : r.winner === 'b' ? r.model_b : null;
    if (winner === a) p.winsA += r.n;
    else if (winner === b) p.winsB += r.n;
    pairs.set(key, p);
  }
  return { meta, pairs: [...pairs.values()].sort((x, y) => (x.a < y.a ? -1 : x.a > y.a ? 1 : x.b < y.b ? -1 : x.b > y.b ? 1 : 0)), votes };
}

/** Rounded, and never −0: a board goes through JSON, which writes it as 0, and must read back as computed. */
const round1 = (x: number) => Math.round(x * 10) / 10 || 0;

/**
 * The interval as the board shows it, to a tenth of a point; null when there is none (a sandwich
 * interval has zero width only for a model alone in its part of the board). The bootstrap's: a
 * model in no resample (infinite bounds), or resamples that never varied (one vote, a pair whose
 * verdicts all agree), whose interval rounds to zero width. "±0" would claim a certainty that
 * only the bootstrap's blindness to such votes gives.
 */
function shownInterval(iv: RatingInterval): { ciLow: number; ciHigh: number } | null {
  if (!Number.isFinite(iv.ciLow) || !Number.isFinite(iv.ciHigh)) return null;
  const [ciLow, ciHigh] = [round1(iv.ciLow), round1(iv.ciHigh)];
  return ciHigh > ciLow ? { ciLow, ciHigh } : null;
}

/**
 * The board's models: ranked where they have `minVotes` counted battles and an interval, ranked by
 * interval among those only (a provisional model's interval, wide or missing, ranks no one), in
 * the board's order ({@link compareBoardModels}).
 */
function modelsOf(intervals: Map<string, RatingInterval>, meta: Map<string, ModelMeta>, speed: Map<string, ModelSpeed>, minVotes: number): LeaderboardModel[] {
  const shown = new Map([...intervals].map(([model, iv]) => [model, shownInterval(iv)]));
  const ranks = rankModels(new Map([...intervals].filter(([model]) => shown.get(model) && meta.get(model)!.battles >= minVotes)));
  const models: LeaderboardModel[] = [...intervals].map(([model, iv]) => {
    const m = meta.get(model)!;
    const rank = ranks.get(model) ?? null;
    return {
      model,
      label: m.label,
      family: m.family,
      rating: round1(iv.rating),
      ciLow: shown.get(model)?.ciLow ?? null,
      ciHigh: shown.get(model)?.ciHigh ?? null,
      rank,
      provisional: rank === null,
      battles: m.battles,
      winRate: m.battles ? round1((100 * m.wins) / m.battles) : 0,
      speed: speed.get(model) ?? NO_SPEED,
    };
  });
  return models.sort(compareBoardModels);
}

/** The styled votes as the fit takes them, built once for every scope. */
export type StyledVotes = (VoteKind & { vote: StyledComparison })[];

/**
 * Styled votes that hand over one scope's votes at a time, as the fit takes them (style-sample.ts:
 * each board's sample, kept compact until its board is fitted).
 */
export interface ScopedStyledVotes {
  votesOf(scope: Scope): StyledComparison[];
}

/** The database's rows as the fit takes them (drop the rows after: at a million votes they weigh hundreds of MB). */
export function styledVotesOf(rows: StyledRow[]): StyledVotes {
  return rows.map((r) => ({
    tool: r[0],
    lang: r[1],
    hasImage: r[2],
    multiTurn: r[3],
    vote: { a: r[4], b: r[5], winner: r[6], styleA: r.slice(7, 12) as number[], styleB: r.slice(12, 17) as number[] },
  }));
}

const WINNERS: readonly CountedRow['winner'][] = ['a', 'b', 'tie', 'both_bad'];

/**
 * The counted cells sorted once into slices of one (tool, language, picture, turns), each slice
 * merged by (model a, model b, verdict) with integer keys: a scope's rows are then the merge of its
 * slices (a few thousand rows) instead of a filter over every cell (~100,000 at a million votes,
 * read by every board). A merged row keeps the labels of its first row in `cells` and the rows stay
 * in the order of their first row, so the first label seen per model, the tallies and the fit
 * (which puts cells in a canonical order) are what the unmerged rows give.
 */
interface CellSlice extends VoteKind {
  keys: number[];
  n: number[];
  /** Position in `cells` of each key's first row. */
  first: number[];
  /** Votes over the prompt cap in this slice: merged into `keys` only with `dedup` `off`. */
  capped: number;
}

/** Built once per refit (and per `dedup`), by each of the exported functions below, and passed to every board. */
function slicesOf(cells: CountedRow[], dedup: Dedup = 'on'): CellSlice[] {
  const modelIndex = new Map<string, number>();
  const indexOf = (model: string) => {
    let i = modelIndex.get(model);
    if (i === undefined) modelIndex.set(model, (i = modelIndex.size));
    if (i >= 2 ** 20) throw new RangeError('more than 2^20 models in the counted votes');
    return i;
  };
  const verdictOf = (winner: CountedRow['winner']) => {
    const w = WINNERS.indexOf(winner);
    if (w < 0) throw new RangeError(`Unknown winner: ${String(winner)}`);
    return w;
  };
  const bySlice = new Map<string, { slice: CellSlice; slot: Map<number, number> }>();
  cells.forEach((r, row) => {
    const sliceKey = `${r.tool}\u0000${r.lang}\u0000${r.has_image ? 1 : 0}${r.multi_turn ? 1 : 0}`;
    let s = bySlice.get(sliceKey);
    if (!s) {
      const slice: CellSlice = { tool: r.tool, lang: r.lang, hasImage: r.has_image, multiTurn: r.multi_turn, keys: [], n: [], first: [], capped: 0 };
      bySlice.set(sliceKey, (s = { slice, slot: new Map() }));
    }
    if (r.over_cap) {
      s.slice.capped += r.n;
      if (dedup === 'on') return;
    }
    // Model indices below 2^20, so the key stays below 2^42: exact in a double.
    const key = (indexOf(r.model_a) * 2 ** 20 + indexOf(r.model_b)) * 4 + verdictOf(r.winner);
    const k = s.slot.get(key);
    if (k === undefined) {
      s.slot.set(key, s.slice.keys.length);
      s.slice.keys.push(key);
      s.slice.n.push(r.n);
      s.slice.first.push(row);
    } else {
      s.slice.n[k] = (s.slice.n[k] as number) + r.n;
    }
  });
  return [...bySlice.values()].map((s) => s.slice);
}

/** The scope's counted rows, merged by (model a, model b, verdict), in the order of their first row. */
function rowsInScope(scope: Scope, cells: CountedRow[], slices: CellSlice[]): CountedRow[] {
  const merged = new Map<number, { first: number; n: number }>();
  for (const s of slices) {
    if (!inScope(scope, s)) continue;
    s.keys.forEach((key, k) => {
      const m = merged.get(key);
      const first = s.first[k] as number;
      const n = s.n[k] as number;
      if (!m) merged.set(key, { first, n });
      else {
        m.n += n;
        m.first = Math.min(m.first, first);
      }
    });
  }
  return [...merged.values()].sort((x, y) => x.first - y.first).map(({ first, n }) => ({ ...(cells[first] as CountedRow), n }));
}

/** What every board of one scope shares: its votes, battles and wins, pairs and speeds. */
function scopeOf(scope: Scope, data: RefitData, slices: CellSlice[], opts: FitSettings) {
  const rows = rowsInScope(scope, data.cells, slices);
  const { meta, pairs, votes } = tally(rows);
  let cappedVotes = 0;
  for (const s of slices) if (inScope(scope, s)) cappedVotes += s.capped;
  const dedup = { dedup: opts.dedup ?? 'on', promptCap: opts.promptCap ?? DEFAULT_PROMPT_CAP, cappedVotes };
  const minVotes = scope.category ? CATEGORY_MIN_VOTES : 0;
  const ranked = opts.minVotesRanked ?? DEFAULT_RANKED_MINIMUM;
  const minVotesRanked = scope.tool === null && scope.category === null ? ranked.overall : ranked.slice;
  const enough = votes >= minVotes;
  const base = { ...scope, votes, ...dedup, minVotes, minVotesRanked, pairs: enough ? pairs : [], updatedAt: data.updatedAt, countedThrough: data.countedThrough };
  return { rows, meta, enough, base, speed: speedOf(data.speed, scope) };
}

/**
 * The scope's plain board: the Bradley-Terry fit on its cells, with bootstrap intervals (`models`,
 * what the snapshots keep) and sandwich ones (`otherIntervals`).
 */
function plainBoardOf(scope: Scope, data: RefitData, slices: CellSlice[], opts: FitSettings): Leaderboard {
  const { rows, meta, enough, base, speed } = scopeOf(scope, data, slices, opts);
  const cells: ComparisonCell[] = rows.map((r) => ({ a: r.model_a, b: r.model_b, winner: r.winner, n: r.n }));
  const fit = { ...opts, pairWeighting: opts.pairWeighting ?? false };
  const plain = enough ? modelsOf(bootstrapIntervals(cells, fit), meta, speed, base.minVotesRanked) : [];
  const sandwich = enough ? modelsOf(sandwichIntervals(cells, fit), meta, speed, base.minVotesRanked) : [];
  // Only a ranked model is #1 or can take its place: a provisional one is shown after them whatever its rating.
  const contenders = plain.flatMap((m) => (m.rank !== null ? [m.model] : []));
  const robust = contenders.length >= 2 ? topRobustness(cells, { ...fit, contenders }) : null;
  return {
    ...base,
    control: 'none',
    models: plain,
    style: null,
    intervals: 'bootstrap',
    pairWeighting: fit.pairWeighting,
    otherIntervals: [{ intervals: 'sandwich', models: sandwich }],
    topRobustness: robust && { votes: robust.votes, challenger: robust.challenger },
  };
}

/** The scope's style-controlled board: the joint fit of strengths and style on its styled votes. */
function styleBoardOf(scope: Scope, data: RefitData, slices: CellSlice[], styled: StyledVotes | ScopedStyledVotes, opts: FitSettings, failures?: string[]): Leaderboard {
  const { meta, enough, base, speed } = scopeOf(scope, data, slices, opts);
  const votesOf: StyledComparison[] = Array.isArray(styled) ? styled.flatMap((r) => (inScope(scope, r) ? [r.vote] : [])) : styled.votesOf(scope);
  let fit: ReturnType<typeof styleControlledIntervals> | null = null;
  try {
    fit = enough && votesOf.length > 0 ? styleControlledIntervals(votesOf, opts) : null;
  } catch (err) {
    // A fit that cannot be computed leaves this one board without ratings, not every board stale.
    failures?.push(`${boardScope(scope)}: ${err instanceof Error ? err.message : String(err)}`);
  }
  return {
    ...base,
    control: 'style',
    intervals: 'bootstrap',
    pairWeighting: false,
    otherIntervals: [],
    models: fit ? modelsOf(fit.intervals, meta, speed, base.minVotesRanked) : [],
    style: fit ? fit.coefficients.map((c) => ({ ...c, estimate: round3(c.estimate), ciLow: round3(c.ciLow), ciHigh: round3(c.ciHigh) })) : null,
  };
}

/** Rounded, and never −0 (as `round1`). */
const round3 = (x: number) => Math.round(x * 1000) / 1000 || 0;

/**
 * Every board of a full recompute: overall, each tool's and each category's, plain then (with
 * styled votes) style-controlled. A style-controlled fit that fails leaves its board empty and
 * says why in `failures`.
 */
export function leaderboardsOf(data: RefitData, opts: FitSettings, failures?: string[]): Leaderboard[] {
  const styled = data.styled;
  const slices = slicesOf(data.cells);
  return SCOPES.flatMap((s) =>
    styled ? [plainBoardOf(s, data, slices, opts), styleBoardOf(s, data, slices, styled, opts, failures)] : [plainBoardOf(s, data, slices, opts)],
  );
}

/** The plain boards only (what the frequent refit computes), in the order of {@link SCOPES}. */
export function plainLeaderboardsOf(data: RefitData, opts: FitSettings): Leaderboard[] {
  const slices = slicesOf(data.cells, opts.dedup);
  return SCOPES.map((s) => plainBoardOf(s, data, slices, opts));
}

/**
 * The plain boards without de-duplication (`dedup` `off`: the votes over the prompt cap counted
 * too), in the order of {@link SCOPES}, given the de-duplicated ones of the same data (`deduped`,
 * as {@link plainLeaderboardsOf} gives them): a scope with no vote over the cap has the same
 * board, copied rather than fitted again.
 */
export function undedupedLeaderboardsOf(data: RefitData, opts: FitSettings, deduped: readonly Leaderboard[]): Leaderboard[] {
  const off = { ...opts, dedup: 'off' as const };
  const slices = slicesOf(data.cells, 'off');
  return SCOPES.map((s, i) => {
    const same = deduped[i];
    return same && same.cappedVotes === 0 ? { ...same, dedup: 'off' } : plainBoardOf(s, data, slices, off);
  });
}

/** The style-controlled boards only (what the style refit computes), in the order of {@link SCOPES}. */
export function styleLeaderboardsOf(data: RefitData & { styled: StyledVotes | ScopedStyledVotes }, opts: FitSettings, failures?: string[]): Leaderboard[] {
  const slices = slicesOf(data.cells);
  return SCOPES.map((s) => styleBoardOf(s, data, slices, data.styled, opts, failures));
}

/** What the daily snapshot keeps of a board: its ranked models (boards with any only); a provisional rating is no part of its history. */
export function snapshotsOf(boards: Leaderboard[]): SnapshotRow[] {
  return boards.flatMap((b) => {
    const models = b.models.flatMap((m) => (m.rank !== null && m.ciLow !== null && m.ciHigh !== null ? [{ model: m.model, label: m.label, rating: m.rating, ciLow: m.ciLow, ciHigh: m.ciHigh }] : []));
    return models.length > 0 ? [{ scope: boardScope(b), control: b.control, votes: b.votes, models }] : [];
  });
}
