// Over 300 lines on purpose: one statistical method (Bradley-Terry by MM iteration, Newton's method for the bootstrap's refits, its bootstrap over grouped counts with the multinomial it needs, ranks and Wilson intervals), most of it the explanation of each step.
/**
 * Leaderboard statistics: Bradley-Terry ratings on an Elo-like scale, bootstrap
 * confidence intervals, interval-based ranks and Wilson intervals for win rates.
 *
 * Everything here is pure and deterministic: no I/O, no global state, no
 * dependencies beyond the standard library. Randomness (bootstrap) comes from a
 * seeded PRNG, so the same input and seed always give the same output.
 *
 * Votes are handled as grouped counts: a million votes over 30 models are about
 * 1,300 distinct (pair, verdict) cells, and both the fit and the bootstrap cost
 * what the cells cost, not what the votes cost.
 */

import { solveSpd } from './cholesky.ts';

/** One vote: model `a` on one side, model `b` on the other, and the verdict. */
export interface Comparison {
  a: string;
  b: string;
  /**
   * `'a'` / `'b'`: that side won (weight 1 / 0 to `a`). `'tie'` and `'both_bad'`
   * both count as half a win for each side (weight 0.5).
   */
  winner: 'a' | 'b' | 'tie' | 'both_bad';
}

/**
 * `n` votes with the same sides and verdict, e.g. one row of
 * `GROUP BY model_a, model_b, winner`: exactly equivalent to `n` copies of the comparison.
 */
export interface ComparisonCell extends Comparison {
  /** How many votes; a non-negative safe integer (0 contributes nothing). */
  n: number;
}

/** What the fit and the bootstrap take: single votes, grouped cells, or a mix (a comparison without `n` is one vote). */
export type Votes = readonly (Comparison | ComparisonCell)[];

/** Options of {@link fitBradleyTerry}. */
export interface FitOptions {
  /** Rating points per factor of 10 in strength. Default 400 (Elo convention). */
  scale?: number;
  /** Rating of a model whose strength equals its component's geometric mean. Default 1000. */
  base?: number;
  /** Maximum number of MM iterations. Default 10 000. (A bootstrap resample's Newton refit takes at most 50 steps, then MM with this cap.) */
  iterations?: number;
  /** Stop when the largest relative change of any strength in one step is below this. Default 1e-10. */
  tolerance?: number;
  /**
   * Weight of the virtual tie added to every pair of models that met at least once
   * (so each side gets `prior / 2` virtual wins). Default {@link DEFAULT_PRIOR} (0.01).
   * `0` gives the pure maximum-likelihood estimate, which exists only when, within
   * every connected component, each model can be reached from each other one along
   * "beat or tied" edges; with `prior: 0` and data violating that, the fit throws a
   * `RangeError` instead of returning infinite ratings.
   */
  prior?: number;
}

/** An option of the plain fit and its intervals, not of {@link FitOptions} (which the style-controlled fit shares). */
export interface WeightingOptions {
  /**
   * Weigh each vote inversely to how often its pair of models met ({@link pairWeights}), so a pair
   * that a campaign or a default matchup over-sampled counts as much as any other. Default false:
   * every vote weighs 1.
   */
  pairWeighting?: boolean;
}

/** Options of {@link bootstrapIntervals}: the fit options plus the resampling ones. */
export interface BootstrapOptions extends FitOptions {
  /** Number of bootstrap resamples. Default 100. */
  resamples?: number;
  /** Seed of the mulberry32 PRNG used to draw the resamples. Default 42. */
  seed?: number;
  /** Confidence level of the percentile interval, in (0, 1). Default 0.95. */
  level?: number;
}

/** A model's full-data rating and its bootstrap percentile interval. */
export interface RatingInterval {
  rating: number;
  ciLow: number;
  ciHigh: number;
}

/**
 * Default weight of the virtual tie added to each pair of models that met (see
 * {@link fitBradleyTerry}). Small enough that a few dozen well-spread votes move
 * ratings by only ~0.1 point versus the pure MLE, large enough to keep models that
 * never won (or never lost) at a finite rating.
 */
export const DEFAULT_PRIOR = 0.01;

const DEFAULTS = { scale: 400, base: 1000, iterations: 10_000, tolerance: 1e-10, prior: DEFAULT_PRIOR };

/** Win weight of side `a` for each verdict. */
export function winWeight(winner: Comparison['winner']): number {
  switch (winner) {
    case 'a':
      return 1;
    case 'b':
      return 0;
    case 'tie':
    case 'both_bad':
      return 0.5;
    default:
      throw new RangeError(`Unknown winner: ${String(winner)}`);
  }
}

function votesIn(c: Comparison | ComparisonCell): number {
  if (!('n' in c)) return 1;
  if (!Number.isSafeInteger(c.n) || c.n < 0) throw new RangeError(`n must be a non-negative integer, got ${String(c.n)}`);
  return c.n;
}

/**
 * Votes as cells of dense model indices (models sorted by id). Cells are merged by
 * what the fit sees, (lower index, higher index, win weight of the lower one), and
 * sorted by that key, so cells of one pair are adjacent and neither the input order
 * nor the side a model was shown on changes anything. Merging is exact for the
 * bootstrap too: drawing from merged cells gives each merged count the law the sum
 * of the separate counts would have (a multinomial's coarsening is a multinomial).
 */
export interface Encoded {
  ids: string[];
  lo: Int32Array;
  /** Equal to `lo` for a model compared with itself (it counts only as "present"). */
  hi: Int32Array;
  /** Win weight of `lo`: 0, 0.5 or 1. */
  winsLo: Float64Array;
  /** Votes in each cell. */
  n: Float64Array;
  total: number;
}

/** @internal Shared with the sandwich intervals (sandwich.ts). */
export function encode(votes: Votes): Encoded {
  const winsA = new Float64Array(votes.length);
  const n = new Float64Array(votes.length);
  const idSet = new Set<string>();
  votes.forEach((c, k) => {
    winsA[k] = winWeight(c.winner);
    n[k] = votesIn(c);
    if (n[k] === 0) return;
    idSet.add(c.a);
    idSet.add(c.b);
  });
  const ids = [...idSet].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
  const index = new Map(ids.map((id, i) => [id, i]));
  const m = ids.length;
  // key = (lo·m + hi)·3 + 2·winsLo: sorting the keys sorts by pair, then verdict.
  const byKey = new Map<number, number>();
  votes.forEach((c, k) => {
    if (n[k] === 0) return;
    const a = index.get(c.a) as number;
    const b = index.get(c.b) as number;
    const lo = Math.min(a, b);
    const hi = Math.max(a, b);
    const winsLo = a === b ? 0.5 : a === lo ? (winsA[k] as number) : 1 - (winsA[k] as number);
    const key = (lo * m + hi) * 3 + 2 * winsLo;
    byKey.set(key, (byKey.get(key) ?? 0) + (n[k] as number));
  });
  const keys = [...byKey.keys()].sort((x, y) => x - y);
  const enc: Encoded = {
    ids,
    lo: new Int32Array(keys.length),
    hi: new Int32Array(keys.length),
    winsLo: new Float64Array(keys.length),
    n: new Float64Array(keys.length),
    total: 0,
  };
  keys.forEach((key, k) => {
    const pair = Math.floor(key / 3);
    enc.lo[k] = Math.floor(pair / m);
    enc.hi[k] = pair % m;
    enc.winsLo[k] = (key % 3) / 2;
    enc.n[k] = byKey.get(key) as number;
    enc.total += enc.n[k] as number;
  });
  if (!Number.isSafeInteger(enc.total)) throw new RangeError('too many votes: the total must be a safe integer');
  return enc;
}

export type ResolvedFit = Required<FitOptions>;

/** The fit options with their defaults, checked. */
export function resolveFit(opts: FitOptions | undefined): ResolvedFit {
  const r: ResolvedFit = {
    scale: opts?.scale ?? DEFAULTS.scale,
    base: opts?.base ?? DEFAULTS.base,
    iterations: opts?.iterations ?? DEFAULTS.iterations,
    tolerance: opts?.tolerance ?? DEFAULTS.tolerance,
    prior: opts?.prior ?? DEFAULTS.prior,
  };
  if (!Number.isFinite(r.scale) || r.scale <= 0) throw new RangeError('scale must be a positive finite number');
  if (!Number.isFinite(r.base)) throw new RangeError('base must be finite');
  if (!Number.isInteger(r.iterations) || r.iterations < 1) throw new RangeError('iterations must be a positive integer');
  if (!(r.tolerance >= 0)) throw new RangeError('tolerance must be >= 0');
  if (!Number.isFinite(r.prior) || r.prior < 0) throw new RangeError('prior must be a finite number >= 0');
  return r;
}

/**
 * Core fit on encoded data. `count[k]` is how many votes cell k holds in this fit
 * (`enc.n` for the full data, a bootstrap draw otherwise). Returns log10
 * strengths, anchored per connected component to mean 0, and NaN for models that
 * do not appear in any counted cell. With `start` (log10 strengths of a nearby fit,
 * as the full-data fit is for a bootstrap resample) it runs Newton's method from
 * there, and falls back to MM from scratch if Newton does not converge. Counts need not be whole:
 * weighted votes ({@link pairWeights}) are counts times weights.
 * @internal Shared with the sandwich intervals.
 */
export function fitEncoded(enc: Encoded, count: Float64Array, o: ResolvedFit, start?: Float64Array): Float64Array {
  const m = enc.ids.length;
  const present = new Uint8Array(m);
  // Per unordered pair (lo < hi) that met: games (with the virtual tie) and win weights.
  const pairLo = new Int32Array(count.length);
  const pairHi = new Int32Array(count.length);
  const pairGames = new Float64Array(count.length);
  let pairs = 0;
  const wins = new Float64Array(m);
  const beat: number[][] = Array.from({ length: m }, () => []); // i -> j when i has win weight > 0 against j
  for (let k = 0; k < count.length; ) {
    const lo = enc.lo[k] as number;
    const hi = enc.hi[k] as number;
    let games = 0;
    let winsLo = 0;
    for (; k < count.length && enc.lo[k] === lo && enc.hi[k] === hi; k++) {
      const c = count[k] as number;
      games += c;
      winsLo += c * (enc.winsLo[k] as number);
    }
    if (games === 0) continue;
    present[lo] = 1;
    present[hi] = 1;
    if (lo === hi) continue; // a model against itself carries no information
    const winsHi = games - winsLo;
    pairLo[pairs] = lo;
    pairHi[pairs] = hi;
    pairGames[pairs] = games + o.prior;
    pairs++;
    wins[lo] = (wins[lo] as number) + winsLo + o.prior / 2;
    wins[hi] = (wins[hi] as number) + winsHi + o.prior / 2;
    if (winsLo > 0) (beat[lo] as number[]).push(hi);
    if (winsHi > 0) (beat[hi] as number[]).push(lo);
  }

  const components = connectedComponents(m, present, pairLo.subarray(0, pairs), pairHi.subarray(0, pairs));
  if (o.prior === 0) assertMleExists(components, beat, enc.ids);
  const componentOf = new Int32Array(m).fill(-1);
  components.forEach((members, c) => members.forEach((i) => (componentOf[i] = c)));

  const fromNewton =
    start && newtonFit(start, pairLo.subarray(0, pairs), pairHi.subarray(0, pairs), pairGames, wins, componentOf, o.tolerance);
  const p = fromNewton || mmFit(m, pairs, pairLo, pairHi, pairGames, wins, componentOf, components, o);

  // Final anchoring in log space so each component's mean log10 strength is exactly 0.
  const out = new Float64Array(m).fill(Number.NaN);
  for (const members of components) {
    let sum = 0;
    for (const i of members) sum += Math.log10(p[i] as number);
    const mean = sum / members.length;
    for (const i of members) out[i] = Math.log10(p[i] as number) - mean;
  }
  return out;
}

/**
 * Classic MM (Zermelo / Hunter 2004), Jacobi form, renormalised each step:
 * p_i ← W_i / Σ_j n_ij / (p_i + p_j), the sum taken pair by pair. Sure to converge
 * from anywhere, linearly: about 60 steps to 1e-10 on 30 models.
 */
function mmFit(
  m: number,
  pairs: number,
  pairLo: Int32Array,
  pairHi: Int32Array,
  pairGames: Float64Array,
  wins: Float64Array,
  componentOf: Int32Array,
  components: number[][],
  o: ResolvedFit,
): Float64Array {
  const size = Float64Array.from(components, (members) => members.length);
  const sumLog = new Float64Array(components.length);
  const geoMean = new Float64Array(components.length);
  let p = new Float64Array(m).fill(1);
  let next = new Float64Array(m);
  const denom = new Float64Array(m);
  for (let it = 0; it < o.iterations; it++) {
    denom.fill(0);
    for (let q = 0; q < pairs; q++) {
      const lo = pairLo[q] as number;
      const hi = pairHi[q] as number;
      const d = (pairGames[q] as number) / ((p[lo] as number) + (p[hi] as number));
      denom[lo] = (denom[lo] as number) + d;
      denom[hi] = (denom[hi] as number) + d;
    }
    sumLog.fill(0);
    for (let i = 0; i < m; i++) {
      const v = denom[i] === 0 ? 1 : (wins[i] as number) / (denom[i] as number);
      next[i] = v;
      const c = componentOf[i] as number;
      if (c >= 0) sumLog[c] = (sumLog[c] as number) + Math.log(v);
    }
    for (let c = 0; c < components.length; c++) geoMean[c] = Math.exp((sumLog[c] as number) / (size[c] as number));
    let maxRel = 0;
    for (let i = 0; i < m; i++) {
      const c = componentOf[i] as number;
      if (c < 0) continue; // absent from this fit
      const v = (next[i] as number) / (geoMean[c] as number);
      next[i] = v;
      const rel = Math.abs(v - (p[i] as number)) / (p[i] as number);
      if (rel > maxRel) maxRel = rel;
    }
    [p, next] = [next, p];
    if (maxRel < o.tolerance) break;
  }
  return p;
}

/** Newton steps before giving up and falling back to MM; from a nearby start it takes 3 to 5. */
const NEWTON_STEPS = 50;
/** Largest change of a log strength in one Newton step (a factor e² in strength): keeps a far start from overshooting. */
const NEWTON_MAX_STEP = 2;

/**
 * Newton's method on the log-likelihood in log strengths θ_i = ln p_i, from
 * `startLog10`. The gradient is g_i = W_i − Σ_j n_ij p_i / (p_i + p_j) (wins minus
 * expected wins) and the negative Hessian is the comparison graph's Laplacian with
 * edge weights n_ij p_i p_j / (p_i + p_j)². That matrix is singular along "all of a
 * component up by the same amount"; adding 1 to every entry within a component
 * makes it positive definite without changing the step, because the gradient sums
 * to 0 over each component. Solved by Cholesky (30 models: a 30×30 system). Stops
 * by MM's rule, the largest relative change of any strength below `tolerance`,
 * reached quadratically. Returns strengths, or null if a step is not finite or it
 * has not converged in {@link NEWTON_STEPS}.
 */
function newtonFit(
  startLog10: Float64Array,
  pairLo: Int32Array,
  pairHi: Int32Array,
  pairGames: Float64Array,
  wins: Float64Array,
  componentOf: Int32Array,
  tolerance: number,
): Float64Array | null {
  const m = componentOf.length;
  const theta = new Float64Array(m);
  for (let i = 0; i < m; i++) {
    const s = startLog10[i] as number;
    theta[i] = componentOf[i] as number >= 0 && Number.isFinite(s) ? s * Math.LN10 : 0;
  }
  // The ones within each component (and on the diagonal of an absent model), copied in at every step.
  const ones = new Float64Array(m * m);
  for (let i = 0; i < m; i++) {
    const c = componentOf[i] as number;
    if (c < 0) ones[i * m + i] = 1;
    else for (let j = 0; j < m; j++) if (componentOf[j] === c) ones[i * m + j] = 1;
  }
  const p = new Float64Array(m);
  const a = new Float64Array(m * m);
  const step = new Float64Array(m);
  for (let it = 0; it < NEWTON_STEPS; it++) {
    for (let i = 0; i < m; i++) {
      p[i] = Math.exp(theta[i] as number);
      step[i] = (componentOf[i] as number) >= 0 ? (wins[i] as number) : 0;
    }
    a.set(ones);
    for (let q = 0; q < pairLo.length; q++) {
      const lo = pairLo[q] as number;
      const hi = pairHi[q] as number;
      const pl = p[lo] as number;
      const ph = p[hi] as number;
      const sum = pl + ph;
      const n = pairGames[q] as number;
      const expectedLo = (n * pl) / sum;
      const h = (expectedLo * ph) / sum;
      step[lo] = (step[lo] as number) - expectedLo;
      step[hi] = (step[hi] as number) - (n - expectedLo);
      a[lo * m + lo] = (a[lo * m + lo] as number) + h;
      a[hi * m + hi] = (a[hi * m + hi] as number) + h;
      a[lo * m + hi] = (a[lo * m + hi] as number) - h;
      a[hi * m + lo] = (a[hi * m + lo] as number) - h;
    }
    if (!solveSpd(a, step, m)) return null;
    let largest = 0;
    for (let i = 0; i < m; i++) largest = Math.max(largest, Math.abs(step[i] as number));
    if (!Number.isFinite(largest)) return null;
    const shrink = largest > NEWTON_MAX_STEP ? NEWTON_MAX_STEP / largest : 1;
    let maxRel = 0;
    for (let i = 0; i < m; i++) {
      const d = (step[i] as number) * shrink;
      theta[i] = (theta[i] as number) + d;
      maxRel = Math.max(maxRel, Math.abs(Math.expm1(d)));
    }
    if (maxRel < tolerance) {
      for (let i = 0; i < m; i++) p[i] = Math.exp(theta[i] as number);
      return p;
    }
  }
  return null;
}

/** Connected components of the comparison graph, present models only, each listed from its lowest index. */
function connectedComponents(m: number, present: Uint8Array, pairLo: Int32Array, pairHi: Int32Array): number[][] {
  const nbr: number[][] = Array.from({ length: m }, () => []);
  for (let q = 0; q < pairLo.length; q++) {
    (nbr[pairLo[q] as number] as number[]).push(pairHi[q] as number);
    (nbr[pairHi[q] as number] as number[]).push(pairLo[q] as number);
  }
  const comp = new Int32Array(m).fill(-1);
  const components: number[][] = [];
  for (let s = 0; s < m; s++) {
    if (!present[s] || comp[s] !== -1) continue;
    const members = [s];
    comp[s] = components.length;
    for (let q = 0; q < members.length; q++) {
      for (const j of nbr[members[q] as number] as number[]) {
        if (comp[j] === -1) {
          comp[j] = components.length;
          members.push(j);
        }
      }
    }
    components.push(members);
  }
  return components;
}

/**
 * With no prior the MLE exists iff, inside each connected component, the directed
 * "i won weight > 0 against j" graph is strongly connected (Zermelo/Ford condition).
 */
function assertMleExists(components: number[][], beat: number[][], ids: string[]): void {
  const m = beat.length;
  const reverse: number[][] = Array.from({ length: m }, () => []);
  for (let i = 0; i < m; i++) for (const j of beat[i] as number[]) (reverse[j] as number[]).push(i);
  const reachesAll = (start: number, size: number, edges: number[][]): boolean => {
    const seen = new Set<number>([start]);
    const stack = [start];
    while (stack.length > 0) {
      const i = stack.pop() as number;
      for (const j of edges[i] as number[]) {
        if (!seen.has(j)) {
          seen.add(j);
          stack.push(j);
        }
      }
    }
    return seen.size === size;
  };
  for (const members of components) {
    const s = members[0] as number;
    if (!reachesAll(s, members.length, beat) || !reachesAll(s, members.length, reverse)) {
      throw new RangeError(
        `Bradley-Terry MLE does not exist without a prior: some model in the component of "${ids[s]}" never wins or never loses against the rest; use prior > 0`,
      );
    }
  }
}

/**
 * Inverse pair frequency weights, one per cell of `enc` (with `count` votes in each, default the
 * data's): a vote between models i and j weighs
 * N / (P · n_ij), where n_ij is the votes of that pair, P the number of pairs of distinct models that
 * met and N their votes. Every pair that met then carries the same total weight N / P and the
 * weights still sum to N, so the prior and the scale of the fit keep their meaning. A model's votes
 * against itself (which the fit ignores) weigh 1.
 * @internal
 */
export function pairWeights(enc: Encoded, count: Float64Array = enc.n): Float64Array {
  const w = new Float64Array(count.length).fill(1);
  const perPair: [number, number, number][] = []; // first cell, end, votes
  for (let k = 0; k < count.length; ) {
    const start = k;
    let votes = 0;
    for (; k < count.length && enc.lo[k] === enc.lo[start] && enc.hi[k] === enc.hi[start]; k++) votes += count[k] as number;
    if (enc.lo[start] !== enc.hi[start] && votes > 0) perPair.push([start, k, votes]);
  }
  const total = perPair.reduce((s, [, , v]) => s + v, 0);
  for (const [start, end, votes] of perPair) w.fill(total / (perPair.length * votes), start, end);
  return w;
}

/** The counts the fit sees: the votes, times their {@link pairWeights} with `pairWeighting`. @internal */
export function weightedCounts(enc: Encoded, count: Float64Array, pairWeighting: boolean | undefined): Float64Array {
  if (!pairWeighting) return count;
  const weights = pairWeights(enc, count);
  return Float64Array.from(count, (c, k) => c * (weights[k] as number));
}

/** @internal Shared with the sandwich intervals. */
export function toRatings(ids: string[], log10Strength: Float64Array, o: ResolvedFit): Map<string, number> {
  const rows: [string, number][] = [];
  ids.forEach((id, i) => {
    const l = log10Strength[i] as number;
    if (!Number.isNaN(l)) rows.push([id, o.base + o.scale * l]);
  });
  rows.sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
  return new Map(rows);
}

/**
 * Maximum-likelihood Bradley-Terry ratings on the Elo-like scale used by public
 * model arenas.
 *
 * Model: P(i beats j) = p_i / (p_i + p_j). Every vote contributes win weight
 * w ∈ {1, 0.5, 0} to `a` and 1 − w to `b`; `tie` and `both_bad` are half a win for
 * each side. A cell of `n` votes weighs `n` times one vote, so grouped counts and
 * the same votes listed one by one give the same ratings. Strengths are fitted
 * with the classic MM / Zermelo iteration (Hunter 2004, "MM algorithms for
 * generalized Bradley-Terry models"): `p_i ← W_i / Σ_j n_ij / (p_i + p_j)`
 * (W_i = total win weight of i, n_ij = number of votes between i and j), applied to
 * all models at once, then renormalised; it stops when the largest relative change
 * of any strength is below `tolerance` (default 1e-10) or after `iterations`
 * (default 10 000) steps. The result does not depend on the order of `votes`, on
 * how they are grouped, or on which side a model was shown.
 *
 * Reported rating: `base + scale · log10(p_i)` (defaults 1000 and 400), so a 75 %
 * win rate between two models is a gap of 400·log10(3) ≈ 190.8 points.
 *
 * Anchoring: the scale of BT strengths is arbitrary; the geometric mean of the
 * strengths is fixed to 1, so the arithmetic mean of the ratings is exactly `base`.
 * Disconnected components (groups of models never compared with each other, even
 * indirectly) have no common scale, so each component is anchored separately: the
 * mean rating within each component is `base`, and ratings from different
 * components are not comparable.
 *
 * Prior: under pure MLE a model that never won (or never lost) has strength 0 (or
 * ∞). To keep every rating finite, each pair of models that met at least once gets
 * one virtual tie of weight `prior` (default 0.01: `prior / 2` virtual wins for
 * each side, `prior` added to n_ij). It is symmetric, does not connect separate
 * components, and is tiny: on a few dozen well-spread votes ratings move ~0.1
 * point; the effect shrinks as 1/votes. `prior: 0` gives the exact MLE (and throws
 * a `RangeError` when the MLE does not exist).
 *
 * Other edge cases: every model appearing in a vote (a cell with `n > 0`) is in the
 * result; a model whose only votes are against itself (ignored as uninformative)
 * is its own component and gets `base`; an empty input gives an empty map; an
 * unknown `winner` or an `n` that is not a non-negative integer throws a `RangeError`.
 *
 * With `pairWeighting` each vote counts with its {@link pairWeights} weight instead of 1.
 *
 * @returns model id → rating, ordered by rating descending (ties by id ascending).
 */
export function fitBradleyTerry(votes: Votes, opts?: FitOptions & WeightingOptions): Map<string, number> {
  const o = resolveFit(opts);
  const enc = encode(votes);
  return toRatings(enc.ids, fitEncoded(enc, weightedCounts(enc, enc.n, opts?.pairWeighting), o), o);
}

/** mulberry32: small, fast, seeded 32-bit PRNG returning floats in [0, 1). Shared with the style-controlled fit. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * One bootstrap resample of grouped votes: `total` votes drawn with replacement
 * from the cells, i.e. counts ~ Multinomial(total; n_k / total). Drawn as
 * sequential conditional binomials, which is exact: cell k gets
 * Binomial(votes still to place, n_k / votes in cells k and after), with the
 * probability formed from integer counts so no rounding drift builds up.
 */
export function resampleCells(n: Float64Array, total: number, rand: () => number, out: Float64Array): void {
  let left = total;
  let mass = total;
  for (let k = 0; k < n.length; k++) {
    const nk = n[k] as number;
    if (left === 0 || nk === 0) {
      out[k] = 0;
    } else if (nk === mass) {
      out[k] = left;
    } else {
      // Draw the rarer of "in this cell" and "after it", so the sampler always sees p ≤ 0.5.
      const flip = 2 * nk > mass;
      const x = binomial(left, (flip ? mass - nk : nk) / mass, rand);
      out[k] = flip ? left - x : x;
    }
    left -= out[k] as number;
    mass -= nk;
  }
}

/**
 * An exact Binomial(trials, p) draw for p ≤ 0.5: inversion (sequential search from
 * 0, Kachitvichyanukul & Schmeiser's BINV) when the mean is below 10, else
 * Hörmann's BTRS transformed rejection (1993), whose cost does not grow with
 * `trials`. Both are exact samplers; BTRS's acceptance test uses Stirling's series
 * with four terms (a table below 10), accurate to about 1e-13 in log-probability.
 */
function binomial(trials: number, p: number, rand: () => number): number {
  if (trials * p < 10) return binomialInversion(trials, p, rand);
  return binomialBtrs(trials, p, rand);
}

function binomialInversion(trials: number, p: number, rand: () => number): number {
  const s = p / (1 - p);
  const a = (trials + 1) * s;
  const first = Math.exp(trials * Math.log1p(-p)); // P(X = 0) = (1 − p)^trials
  for (;;) {
    let u = rand();
    let r = first;
    let x = 0;
    while (u > r && x <= trials) {
      u -= r;
      x++;
      r *= a / x - s; // P(X = x) / P(X = x − 1) = (trials − x + 1)/x · p/(1 − p)
    }
    if (x <= trials) return x; // else rounding walked past the last value: draw again
  }
}

/** log(k!) − Stirling's main term, exactly for k < 10. */
const STIRLING_TAIL = Array.from({ length: 10 }, (_, k) => {
  let logFactorial = 0;
  for (let i = 2; i <= k; i++) logFactorial += Math.log(i);
  return logFactorial - ((k + 0.5) * Math.log(k + 1) - (k + 1) + 0.5 * Math.log(2 * Math.PI));
});

function stirlingTail(k: number): number {
  if (k < 10) return STIRLING_TAIL[k] as number;
  const x = k + 1;
  const x2 = x * x;
  return (1 / 12 - (1 / 360 - (1 / 1260 - 1 / (1680 * x2)) / x2) / x2) / x;
}

function binomialBtrs(trials: number, p: number, rand: () => number): number {
  const q = 1 - p;
  const spq = Math.sqrt(trials * p * q);
  const b = 1.15 + 2.53 * spq;
  const a = -0.0873 + 0.0248 * b + 0.01 * p;
  const c = trials * p + 0.5;
  const vr = 0.92 - 4.2 / b;
  const alpha = (2.83 + 5.1 / b) * spq;
  const r = p / q;
  const mode = Math.floor((trials + 1) * p);
  for (;;) {
    const u = rand() - 0.5;
    const v = rand();
    const us = 0.5 - Math.abs(u);
    const k = Math.floor(((2 * a) / us + b) * u + c);
    if (k < 0 || k > trials) continue;
    if (us >= 0.07 && v <= vr) return k;
    // log of f(k)/f(mode), written as differences so large factorials never cancel.
    const logRatio =
      (mode + 0.5) * Math.log((mode + 1) / (r * (trials - mode + 1))) +
      (trials + 1) * Math.log((trials - mode + 1) / (trials - k + 1)) +
      (k + 0.5) * Math.log((r * (trials - k + 1)) / (k + 1)) +
      stirlingTail(mode) +
      stirlingTail(trials - mode) -
      stirlingTail(k) -
      stirlingTail(trials - k);
    if (Math.log((v * alpha) / (a / (us * us) + b)) <= logRatio) return k;
  }
}

/** Percentile of sorted values, linear interpolation between order statistics (R type 7 / numpy default). */
export function quantileSorted(sorted: readonly number[], q: number): number {
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  const x = sorted[lo] as number;
  return x + (h - lo) * ((sorted[hi] as number) - x);
}

/**
 * Bradley-Terry ratings with bootstrap percentile confidence intervals.
 *
 * `rating` is the full-data {@link fitBradleyTerry} rating (same options). The
 * interval comes from `resamples` (default 100) nonparametric bootstrap resamples.
 * Each resample is what drawing all N votes again with replacement would give,
 * drawn per cell instead of per vote: the cells' counts are one
 * Multinomial(N; n_k / N) draw (sequential conditional binomials), which has
 * exactly the distribution of the per-vote counts, at the cost of the ~1,300 cells
 * of 30 models rather than of N draws. The PRNG is mulberry32 seeded with `seed`
 * (default 42); cells are put in a canonical order first, so the same votes and
 * seed give identical intervals whatever their order or grouping. Each resample is
 * refitted with the same options and anchoring (geometric mean 1 over the models
 * present in it), by Newton's method from the full-data fit (3 to 5 steps where MM
 * from scratch takes ~60, and thousands on sparse boards; MM if Newton fails); a
 * model absent from a resample is skipped for that resample.
 * `ciLow`/`ciHigh` are the (1 − level)/2 and (1 + level)/2 percentiles (default
 * level 0.95, linear interpolation between order statistics) of the model's
 * resampled ratings. With `pairWeighting` the full-data fit and every resample's refit weigh each
 * vote by {@link pairWeights}, computed again on each resample's counts: the weights are part of
 * the estimator the bootstrap repeats (weights fixed at the data's undercover on lopsided boards).
 *
 * Guarantees: `ciLow ≤ rating ≤ ciHigh` — if the percentile interval does not
 * contain the full-data rating (possible with skewed, sparse data) it is widened
 * to include it. A model missing from every resample gets `ciLow = -Infinity`,
 * `ciHigh = Infinity` (nothing is known about its spread).
 *
 * @returns model id → interval, in the order of {@link fitBradleyTerry} (rating descending).
 */
export function bootstrapIntervals(votes: Votes, opts?: BootstrapOptions & WeightingOptions): Map<string, RatingInterval> {
  const o = resolveFit(opts);
  const resamples = opts?.resamples ?? 100;
  const seed = opts?.seed ?? 42;
  const level = opts?.level ?? 0.95;
  if (!Number.isInteger(resamples) || resamples < 1) throw new RangeError('resamples must be a positive integer');
  if (!Number.isFinite(seed)) throw new RangeError('seed must be finite');
  if (!(level > 0 && level < 1)) throw new RangeError('level must be in (0, 1)');

  const enc = encode(votes);
  const fullLog10 = fitEncoded(enc, weightedCounts(enc, enc.n, opts?.pairWeighting), o);
  const full = toRatings(enc.ids, fullLog10, o);
  const samples: number[][] = enc.ids.map(() => []);
  const rand = mulberry32(seed);
  const count = new Float64Array(enc.n.length);
  for (let r = 0; r < resamples; r++) {
    resampleCells(enc.n, enc.total, rand, count);
    const log10Strength = fitEncoded(enc, weightedCounts(enc, count, opts?.pairWeighting), o, fullLog10);
    for (let i = 0; i < enc.ids.length; i++) {
      const l = log10Strength[i] as number;
      if (!Number.isNaN(l)) (samples[i] as number[]).push(o.base + o.scale * l);
    }
  }

  const index = new Map(enc.ids.map((id, i) => [id, i]));
  const alpha = (1 - level) / 2;
  const out = new Map<string, RatingInterval>();
  for (const [id, rating] of full) {
    const s = (samples[index.get(id) as number] as number[]).sort((x, y) => x - y);
    if (s.length === 0) {
      out.set(id, { rating, ciLow: -Infinity, ciHigh: Infinity });
      continue;
    }
    out.set(id, {
      rating,
      ciLow: Math.min(rating, quantileSorted(s, alpha)),
      ciHigh: Math.max(rating, quantileSorted(s, 1 - alpha)),
    });
  }
  return out;
}

/**
 * Interval-based rank, as on public model arenas: a model's rank is
 * `1 + (number of models whose ciLow is strictly above this model's ciHigh)`, i.e.
 * the number of models that are statistically clearly better, plus one. Models
 * with overlapping intervals share ranks, and ranks can skip (1, 1, 3, …).
 *
 * @returns model id → rank, in the iteration order of `intervals`.
 */
export function rankModels(
  intervals: ReadonlyMap<string, { ciLow: number; ciHigh: number }>,
): Map<string, number> {
  const lows = [...intervals.values()].map((v) => v.ciLow);
  const ranks = new Map<string, number>();
  for (const [id, { ciHigh }] of intervals) {
    let better = 0;
    for (const low of lows) if (low > ciHigh) better++;
    ranks.set(id, 1 + better);
  }
  return ranks;
}

/**
 * Wilson score interval for a binomial proportion (e.g. a model's win rate):
 * centre `(p̂ + z²/2n) / (1 + z²/n)`, half-width
 * `z / (1 + z²/n) · sqrt(p̂(1 − p̂)/n + z²/4n²)`. Unlike the normal (Wald)
 * interval it stays inside [0, 1] and behaves well for small n and p̂ near 0 or 1.
 *
 * `z` defaults to the two-sided 95 % normal quantile (1.959963984540054).
 * `trials = 0` gives the uninformative `{ low: 0, high: 1 }`. Throws a
 * `RangeError` unless `0 ≤ successes ≤ trials` (fractional counts, e.g. half
 * wins for ties, are allowed) and `z ≥ 0`.
 */
export function wilsonInterval(
  successes: number,
  trials: number,
  z = 1.959963984540054,
): { low: number; high: number } {
  if (!Number.isFinite(trials) || trials < 0) throw new RangeError('trials must be a finite number >= 0');
  if (!Number.isFinite(successes) || successes < 0 || successes > trials) {
    throw new RangeError('successes must be between 0 and trials');
  }
  if (!Number.isFinite(z) || z < 0) throw new RangeError('z must be a finite number >= 0');
  if (trials === 0) return { low: 0, high: 1 };
  const p = successes / trials;
  const z2 = z * z;
  const d = 1 + z2 / trials;
  const centre = (p + z2 / (2 * trials)) / d;
  const half = (z / d) * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials));
  return {
    low: successes === 0 ? 0 : Math.max(0, centre - half),
    high: successes === trials ? 1 : Math.min(1, centre + half),
  };
}
