// Over 300 lines on purpose, like ratings.ts: one statistical method (the joint Newton fit, its exact and one-step bootstraps), most of it the explanation of each step.
/**
 * Style-controlled Bradley-Terry ratings ("Does style matter?", Chatbot Arena, 2024).
 *
 * Longer answers, or answers with more Markdown, win votes for their looks. The plain fit
 * (ratings.ts) gives that advantage to the model that writes them. Here the Bradley-Terry model is
 * fitted as a logistic regression with the model strengths and, per vote, the normalised
 * difference (a − b) / (a + b + 1) of each style feature of the two answers (FastChat's; see
 * {@link StyleNormalization}), standardised: P(a wins) = σ(θ_a − θ_b + Σ_k β_k x_k). Strengths and style coefficients are
 * fitted jointly, so a model's rating reads "as if both answers had the same style".
 *
 * Pure and deterministic like ratings.ts, and on the same scale, with the same virtual ties,
 * anchoring per connected component and bootstrap: with every style feature 0 it gives the plain
 * fit's ratings.
 */
import { mulberry32, quantileSorted, resampleCells, resolveFit, winWeight } from './ratings.ts';
import type { BootstrapOptions, Comparison, FitOptions, RatingInterval } from './ratings.ts';
import { solveFactored, solveSpd } from './cholesky.ts';
import { STYLE_FEATURES } from '@duet/contracts/style-features';
import type { StyleFeature } from '@duet/contracts/style-features';


/** One vote with the style features of both answers (each in the order of {@link STYLE_FEATURES}). */
export interface StyledComparison extends Comparison {
  styleA: readonly number[];
  styleB: readonly number[];
  /** Votes with exactly these sides, verdict and styles; default 1. */
  n?: number;
}

/** A style coefficient: log-odds per standard deviation of its normalised difference, with its bootstrap interval. */
export interface StyleCoefficient {
  feature: StyleFeature;
  estimate: number;
  ciLow: number;
  ciHigh: number;
}

export interface StyleControlledResult {
  /** model id → rating and interval, rating descending (ties by id). */
  intervals: Map<string, RatingInterval>;
  coefficients: StyleCoefficient[];
}

/** (a − b) / (a + b), 0 when both are 0 (features are counts, never negative). */
export function normalizedDifference(a: number, b: number): number {
  const sum = a + b;
  return sum > 0 ? (a - b) / sum : 0;
}

/**
 * How a feature's two counts become one covariate: `ratio-plus-one` is (a − b) / (a + b + 1)
 * (FastChat's style control, the default), which keeps "1 against 0" smaller than "6 against 0";
 * `ratio` is (a − b) / (a + b) (LMArena's arena-rank, Duet's before the style study), which makes
 * them both ±1. Length, in the hundreds, is the same under both. The style study
 * (`npm run bench -- style-study`, docs/benchmarks.md) found `ratio-plus-one` recovers the
 * strengths as well or better unless the voters themselves react to the `ratio` form.
 */
export type StyleNormalization = 'ratio' | 'ratio-plus-one';
export const STYLE_NORMALIZATIONS: readonly StyleNormalization[] = ['ratio', 'ratio-plus-one'];
export const DEFAULT_STYLE_NORMALIZATION: StyleNormalization = 'ratio-plus-one';

/** A feature's covariate under `normalization` (0 when both counts are 0). */
export function styleDifference(a: number, b: number, normalization: StyleNormalization = DEFAULT_STYLE_NORMALIZATION): number {
  return normalization === 'ratio' ? normalizedDifference(a, b) : (a - b) / (a + b + 1);
}

const K = STYLE_FEATURES.length;

interface Rows {
  ids: string[];
  a: Int32Array;
  b: Int32Array;
  /** Win weight of `a`. */
  y: Float64Array;
  n: Float64Array;
  /** Standardised covariates, row-major, K per row. */
  x: Float64Array;
  /** Which features vary at all (a constant-zero column has no coefficient). */
  active: boolean[];
  /** Models that appear in some row (a model only ever against itself appears, but meets no one). */
  total: number;
}

function encodeRows(votes: readonly StyledComparison[], normalization: StyleNormalization): Rows {
  const idSet = new Set<string>();
  for (const v of votes) {
    if ((v.n ?? 1) === 0) continue;
    idSet.add(v.a);
    idSet.add(v.b);
  }
  const ids = [...idSet].sort((p, q) => (p < q ? -1 : p > q ? 1 : 0));
  const index = new Map(ids.map((id, i) => [id, i]));
  const len = votes.length;
  const rows: Rows = {
    ids,
    a: new Int32Array(len),
    b: new Int32Array(len),
    y: new Float64Array(len),
    n: new Float64Array(len),
    x: new Float64Array(len * K),
    active: new Array<boolean>(K).fill(false),
    total: 0,
  };
  const sumSq = new Float64Array(K);
  votes.forEach((v, r) => {
    const n = v.n ?? 1;
    if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`n must be a non-negative integer, got ${String(n)}`);
    if (v.styleA.length !== K || v.styleB.length !== K) throw new RangeError(`each style vector needs ${K} features`);
    rows.y[r] = winWeight(v.winner);
    rows.n[r] = n;
    rows.total += n;
    if (n === 0) return;
    rows.a[r] = index.get(v.a) as number;
    rows.b[r] = index.get(v.b) as number;
    for (let k = 0; k < K; k++) {
      const d = styleDifference(v.styleA[k] as number, v.styleB[k] as number, normalization);
      if (!Number.isFinite(d)) throw new RangeError('style features must be finite numbers >= 0');
      rows.x[r * K + k] = d;
      sumSq[k] = (sumSq[k] as number) + n * d * d;
    }
  });
  if (!Number.isSafeInteger(rows.total)) throw new RangeError('too many votes: the total must be a safe integer');
  // Standardised by the spread around 0: the difference changes sign with the sides, so its
  // centre is 0 by construction, and scaling alone keeps "a" and "b" interchangeable.
  for (let k = 0; k < K; k++) {
    const sd = rows.total > 0 ? Math.sqrt((sumSq[k] as number) / rows.total) : 0;
    rows.active[k] = sd > 1e-12;
    if (!rows.active[k]) continue;
    for (let r = 0; r < len; r++) rows.x[r * K + k] = (rows.x[r * K + k] as number) / sd;
  }
  return rows;
}

/** Connected components of the "met" graph over the models present in `count`. */
function components(m: number, rows: Rows, count: Float64Array): { of: Int32Array; list: number[][]; met: Map<number, true> } {
  const parent = Int32Array.from({ length: m }, (_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i] as number] as number;
      i = parent[i] as number;
    }
    return i;
  };
  const present = new Uint8Array(m);
  const met = new Map<number, true>();
  for (let r = 0; r < count.length; r++) {
    if (count[r] === 0) continue;
    const a = rows.a[r] as number;
    const b = rows.b[r] as number;
    present[a] = 1;
    present[b] = 1;
    if (a === b) continue;
    met.set(Math.min(a, b) * m + Math.max(a, b), true);
    parent[find(a)] = find(b);
  }
  const of = new Int32Array(m).fill(-1);
  const byRoot = new Map<number, number[]>();
  for (let i = 0; i < m; i++) {
    if (!present[i]) continue;
    const root = find(i);
    const members = byRoot.get(root) ?? [];
    members.push(i);
    byRoot.set(root, members);
  }
  const list = [...byRoot.values()];
  list.forEach((members, c) => members.forEach((i) => (of[i] = c)));
  return { of, list, met };
}

const NEWTON_MAX_ITERATIONS = 100;
/**
 * Default weight of the ridge on the style coefficients: a normal prior of standard deviation 1
 * (log-odds per standard deviation of the feature), as weak next to thousands of votes as the
 * virtual ties are, but it keeps a coefficient finite when a feature appears in a handful of votes
 * that all went one way (a perfect separation, where the plain maximum likelihood has no solution).
 * The style study (docs/benchmarks.md) found penalties 100 and 1,000 times stronger recover the
 * strengths worse on boards of a few thousand votes.
 */
export const STYLE_RIDGE = 1;
/** Largest change of any parameter in one Newton step, in log-odds: keeps a far start from overshooting. */
const MAX_STEP = 2;

/**
 * Newton's method on the joint log-likelihood, from `theta`/`beta` (updated in place). Models are
 * parameters 0..m−1, active features m..m+K−1. Each component's mean strength is pinned to 0 by
 * adding (Σ_{i∈c} θ_i)² to the objective, which the likelihood does not see.
 * Models absent from `count` get θ = NaN. Returns the Cholesky factor of the last step's
 * (penalised) Hessian, and which parameters were left out of the fit.
 */
function newton(
  rows: Rows,
  count: Float64Array,
  prior: number,
  ridge: number,
  tolerance: number,
  theta: Float64Array,
  beta: Float64Array,
): { factor: Float64Array; idle: Uint8Array } {
  const m = rows.ids.length;
  const comp = components(m, rows, count);
  const p = m + K;
  const H = new Float64Array(p * p);
  const g = new Float64Array(p);
  const hk = new Float64Array(K);
  const gf = new Float64Array(K);
  const hf = new Float64Array(K * K);
  const cross = new Float64Array(m * K);
  const x = rows.x;
  const idle = new Uint8Array(p);
  for (let i = 0; i < m; i++) if (comp.of[i] === -1) theta[i] = Number.NaN;
  for (let it = 0; it < NEWTON_MAX_ITERATIONS; it++) {
    H.fill(0);
    g.fill(0);
    gf.fill(0);
    hf.fill(0);
    cross.fill(0);
    for (let r = 0; r < count.length; r++) {
      const n = count[r] as number;
      if (n === 0) continue;
      const a = rows.a[r] as number;
      const b = rows.b[r] as number;
      if (a === b) continue;
      const o = r * K;
      let eta = (theta[a] as number) - (theta[b] as number);
      for (let k = 0; k < K; k++) eta += (beta[k] as number) * (x[o + k] as number);
      const prob = 1 / (1 + Math.exp(-eta));
      const res = n * ((rows.y[r] as number) - prob);
      const w = n * prob * (1 - prob);
      g[a] = (g[a] as number) + res;
      g[b] = (g[b] as number) - res;
      H[a * p + a] = (H[a * p + a] as number) + w;
      H[b * p + b] = (H[b * p + b] as number) + w;
      H[a * p + b] = (H[a * p + b] as number) - w;
      H[b * p + a] = (H[b * p + a] as number) - w;
      for (let k = 0; k < K; k++) {
        const xk = x[o + k] as number;
        const wx = w * xk;
        gf[k] = (gf[k] as number) + res * xk;
        cross[a * K + k] = (cross[a * K + k] as number) + wx;
        cross[b * K + k] = (cross[b * K + k] as number) - wx;
        for (let l = k; l < K; l++) hf[k * K + l] = (hf[k * K + l] as number) + wx * (x[o + l] as number);
      }
    }
    // The virtual ties: one of weight `prior` per pair that met, with no style difference.
    if (prior > 0) {
      for (const key of comp.met.keys()) {
        const a = Math.floor(key / m);
        const b = key % m;
        const prob = 1 / (1 + Math.exp((theta[b] as number) - (theta[a] as number)));
        const res = prior * (0.5 - prob);
        const w = prior * prob * (1 - prob);
        g[a] = (g[a] as number) + res;
        g[b] = (g[b] as number) - res;
        H[a * p + a] = (H[a * p + a] as number) + w;
        H[b * p + b] = (H[b * p + b] as number) + w;
        H[a * p + b] = (H[a * p + b] as number) - w;
        H[b * p + a] = (H[b * p + a] as number) - w;
      }
    }
    // The model×feature and feature×feature blocks, accumulated apart (they are dense and small).
    for (let k = 0; k < K; k++) {
      const c = m + k;
      g[c] = gf[k] as number;
      for (let i = 0; i < m; i++) H[c * p + i] = H[i * p + c] = cross[i * K + k] as number;
      for (let l = k; l < K; l++) H[(m + l) * p + c] = H[c * p + m + l] = hf[k * K + l] as number;
      hk[k] = H[c * p + c] as number;
      H[c * p + c] = (H[c * p + c] as number) + ridge;
      g[c] = (g[c] as number) - ridge * (beta[k] as number);
    }
    // Parameters that are not in this fit (absent models, constant features) stay put.
    for (let i = 0; i < p; i++) {
      idle[i] = (i < m ? comp.of[i] === -1 : !rows.active[i - m] || hk[i - m] === 0) ? 1 : 0;
      if (!idle[i]) continue;
      for (let j = 0; j < p; j++) {
        H[i * p + j] = 0;
        H[j * p + i] = 0;
      }
      H[i * p + i] = 1;
      g[i] = 0;
    }
    for (const members of comp.list) {
      let sum = 0;
      for (const i of members) sum += theta[i] as number;
      for (const i of members) {
        g[i] = (g[i] as number) - sum;
        for (const j of members) H[i * p + j] = (H[i * p + j] as number) + 1;
      }
    }
    if (!solveSpd(H, g, p)) throw new RangeError('the style-controlled fit is singular (a style feature separates the votes?)');
    let largest = 0;
    for (let i = 0; i < p; i++) largest = Math.max(largest, Math.abs(g[i] as number));
    const damp = largest > MAX_STEP ? MAX_STEP / largest : 1;
    for (let i = 0; i < m; i++) if (comp.of[i] !== -1) theta[i] = (theta[i] as number) + damp * (g[i] as number);
    for (let k = 0; k < K; k++) beta[k] = (beta[k] as number) + damp * (g[m + k] as number);
    if (largest < tolerance) break;
  }
  return { factor: H, idle };
}

/** Options of the style-controlled fit alone: the plain fit's, the feature normalisation and the penalty. */
export interface StyleFitOptions extends FitOptions {
  /** How the two answers' counts become a covariate. Default {@link DEFAULT_STYLE_NORMALIZATION}. */
  normalization?: StyleNormalization;
  /** Weight of the ridge on the style coefficients, > 0. Default {@link STYLE_RIDGE}. */
  styleRidge?: number;
}

/** Options of {@link styleControlledIntervals}: the fit's, the bootstrap's, and the size of each resample. */
export interface StyleControlOptions extends StyleFitOptions, BootstrapOptions {
  /**
   * Largest number of votes drawn per resample. Default {@link STYLE_RESAMPLE_VOTES}. Above it the
   * bootstrap is m-out-of-n: see {@link styleControlledIntervals}.
   */
  resampleVotes?: number;
}

/**
 * Votes per bootstrap resample at most: the style fit cannot group votes into a few cells (each
 * vote has its own covariates), so its cost grows with the votes; this bound keeps each refit's
 * bootstrap at a fixed cost however many votes there are.
 */
export const STYLE_RESAMPLE_VOTES = 20_000;

/** m draws with replacement, each row with probability n_r / total (prefix sums and binary search; `cum` null when every row is one vote). */
function drawRows(total: number, cum: Float64Array | null, draws: number, rand: () => number, picks: Int32Array): void {
  for (let d = 0; d < draws; d++) {
    const u = rand() * total;
    if (cum === null) {
      picks[d] = Math.min(Math.floor(u), total - 1); // one vote per row: the row is the draw
      continue;
    }
    let lo = 0;
    let hi = cum.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((cum[mid] as number) > u) hi = mid;
      else lo = mid + 1;
    }
    picks[d] = lo;
  }
}

/**
 * The one-step bootstrap of large samples: a resample's estimate is the full-data one plus one
 * Newton step from it, H⁻¹·g*, with H the full-data Hessian (factored once) and g* the resample's
 * score at the full-data estimate. Drawn as m votes out of n: g* is the m votes' score scaled to
 * n votes, minus the full data's, times √(m/n) so its spread is that of n votes. Per resample it
 * costs m residual lookups, not a refit of n votes.
 */
function oneStepResamples(
  rows: Rows,
  theta: Float64Array,
  beta: Float64Array,
  fitted: { factor: Float64Array; idle: Uint8Array },
  o: { resamples: number; draws: number; rand: () => number },
  keep: (th: Float64Array, be: Float64Array) => void,
): void {
  const m = rows.ids.length;
  const p = m + K;
  const len = rows.n.length;
  // Each row's residual at the full-data estimate, and the full data's score.
  const res = new Float64Array(len);
  const full = new Float64Array(p);
  const accumulate = (g: Float64Array, r: number, weight: number) => {
    const a = rows.a[r] as number;
    const b = rows.b[r] as number;
    if (a === b) return;
    const v = weight * (res[r] as number);
    g[a] = (g[a] as number) + v;
    g[b] = (g[b] as number) - v;
    for (let k = 0; k < K; k++) g[m + k] = (g[m + k] as number) + v * (rows.x[r * K + k] as number);
  };
  for (let r = 0; r < len; r++) {
    const a = rows.a[r] as number;
    const b = rows.b[r] as number;
    if (a === b || rows.n[r] === 0) continue;
    let eta = (theta[a] as number) - (theta[b] as number);
    for (let k = 0; k < K; k++) eta += (beta[k] as number) * (rows.x[r * K + k] as number);
    res[r] = (rows.y[r] as number) - 1 / (1 + Math.exp(-eta));
    accumulate(full, r, rows.n[r] as number);
  }
  let cum: Float64Array | null = null;
  if (rows.n.some((n) => n !== 1)) {
    cum = new Float64Array(len);
    rows.n.forEach((n, r) => ((cum as Float64Array)[r] = (r > 0 ? ((cum as Float64Array)[r - 1] as number) : 0) + n));
  }
  const picks = new Int32Array(o.draws);
  const g = new Float64Array(p);
  const th = new Float64Array(m);
  const be = new Float64Array(K);
  const up = rows.total / o.draws;
  const shrink = Math.sqrt(o.draws / rows.total);
  for (let s = 0; s < o.resamples; s++) {
    drawRows(rows.total, cum, o.draws, o.rand, picks);
    g.fill(0);
    for (let d = 0; d < o.draws; d++) accumulate(g, picks[d] as number, 1);
    for (let i = 0; i < p; i++) g[i] = fitted.idle[i] ? 0 : shrink * (up * (g[i] as number) - (full[i] as number));
    solveFactored(fitted.factor, g, p);
    for (let i = 0; i < m; i++) th[i] = (theta[i] as number) + (g[i] as number);
    for (let k = 0; k < K; k++) be[k] = (beta[k] as number) + (g[m + k] as number);
    keep(th, be);
  }
}

function resolveStyleFit(opts: StyleFitOptions | undefined) {
  const normalization = opts?.normalization ?? DEFAULT_STYLE_NORMALIZATION;
  const ridge = opts?.styleRidge ?? STYLE_RIDGE;
  if (!STYLE_NORMALIZATIONS.includes(normalization)) throw new RangeError(`normalization must be one of ${STYLE_NORMALIZATIONS.join(', ')}`);
  if (!Number.isFinite(ridge) || ridge <= 0) throw new RangeError('styleRidge must be a positive finite number');
  return { normalization, ridge };
}

/**
 * The style-controlled ratings and coefficients alone, without intervals: what
 * {@link styleControlledIntervals} reports as `rating` and `estimate`, at a bootstrap's fraction of
 * the cost (the style study fits thousands of simulated boards with it).
 */
export function styleControlledRatings(votes: readonly StyledComparison[], opts?: StyleFitOptions): { ratings: Map<string, number>; coefficients: number[] } {
  const o = resolveFit(opts);
  const s = resolveStyleFit(opts);
  const rows = encodeRows(votes, s.normalization);
  const theta = new Float64Array(rows.ids.length);
  const beta = new Float64Array(K);
  newton(rows, rows.n, o.prior, s.ridge, Math.max(o.tolerance, 1e-9), theta, beta);
  const ratings = new Map<string, number>();
  rows.ids.forEach((id, i) => {
    if (!Number.isNaN(theta[i])) ratings.set(id, o.base + (o.scale * (theta[i] as number)) / Math.LN10);
  });
  return { ratings, coefficients: Array.from(beta) };
}

/**
 * Style-controlled ratings with bootstrap percentile intervals, the way {@link bootstrapIntervals}
 * computes them for the plain fit: the same options (scale, base, prior, resamples, seed, level),
 * each resample the votes drawn again with replacement (one multinomial draw over the rows, as
 * sequential binomials), refitted with the same anchoring, and the interval widened to contain the
 * full-data rating. Each resample's fit starts from the full-data one, so it takes a few Newton
 * steps. The intervals depend on the order of `votes` (the draws follow it): pass them in a stable
 * order. The coefficients get the same percentile intervals.
 *
 * With more than `resampleVotes` votes (N > m) a refit per resample would cost what N votes cost,
 * a hundred times: each resample is then the one-step bootstrap (one Newton step from the
 * full-data estimate with the full-data Hessian) on m votes drawn out of N, its spread rescaled to
 * N votes (see oneStepResamples). Both approximations vanish as the votes grow, which is exactly
 * when they are used.
 *
 * Ratings are `base + scale · θ / ln 10`: the plain fit's scale. With every feature 0 (or
 * constant) the ratings are the plain fit's, to the tolerance of the iteration.
 */
export function styleControlledIntervals(votes: readonly StyledComparison[], opts?: StyleControlOptions): StyleControlledResult {
  const o = resolveFit(opts);
  const s = resolveStyleFit(opts);
  const resamples = opts?.resamples ?? 100;
  const seed = opts?.seed ?? 42;
  const level = opts?.level ?? 0.95;
  const budget = opts?.resampleVotes ?? STYLE_RESAMPLE_VOTES;
  if (!Number.isInteger(resamples) || resamples < 1) throw new RangeError('resamples must be a positive integer');
  if (!(level > 0 && level < 1)) throw new RangeError('level must be in (0, 1)');
  if (!Number.isInteger(budget) || budget < 1) throw new RangeError('resampleVotes must be a positive integer');
  const tolerance = Math.max(o.tolerance, 1e-9);
  const rows = encodeRows(votes, s.normalization);
  const m = rows.ids.length;
  const theta = new Float64Array(m);
  const beta = new Float64Array(K);
  const fitted = newton(rows, rows.n, o.prior, s.ridge, tolerance, theta, beta);
  const toRating = (t: number) => o.base + (o.scale * t) / Math.LN10;

  const samples: number[][] = rows.ids.map(() => []);
  const betaSamples: number[][] = STYLE_FEATURES.map(() => []);
  const keep = (th: Float64Array, be: Float64Array) => {
    for (let i = 0; i < m; i++) {
      const t = th[i] as number;
      if (!Number.isNaN(t) && !Number.isNaN(theta[i] as number)) (samples[i] as number[]).push(toRating(t));
    }
    for (let k = 0; k < K; k++) (betaSamples[k] as number[]).push(be[k] as number);
  };
  const rand = mulberry32(seed);
  if (rows.total > budget) {
    oneStepResamples(rows, theta, beta, fitted, { resamples, draws: budget, rand }, keep);
  } else if (rows.total > 0) {
    const count = new Float64Array(rows.n.length);
    const th = new Float64Array(m);
    const be = new Float64Array(K);
    for (let r = 0; r < resamples; r++) {
      th.set(theta);
      for (let i = 0; i < m; i++) if (Number.isNaN(th[i])) th[i] = 0;
      be.set(beta);
      resampleCells(rows.n, rows.total, rand, count);
      newton(rows, count, o.prior, s.ridge, tolerance, th, be);
      keep(th, be);
    }
  }

  const alpha = (1 - level) / 2;
  const order = rows.ids
    .map((id, i) => ({ id, i, rating: toRating(theta[i] as number) }))
    .filter((e) => !Number.isNaN(e.rating))
    .sort((p, q) => q.rating - p.rating || (p.id < q.id ? -1 : p.id > q.id ? 1 : 0));
  const intervals = new Map<string, RatingInterval>();
  for (const { id, i, rating } of order) {
    const s = (samples[i] as number[]).sort((p, q) => p - q);
    if (s.length === 0) intervals.set(id, { rating, ciLow: -Infinity, ciHigh: Infinity });
    else intervals.set(id, { rating, ciLow: Math.min(rating, quantileSorted(s, alpha)), ciHigh: Math.max(rating, quantileSorted(s, 1 - alpha)) });
  }
  const coefficients = STYLE_FEATURES.map((feature, k) => {
    const estimate = beta[k] as number;
    const s = (betaSamples[k] as number[]).sort((p, q) => p - q);
    if (s.length === 0) return { feature, estimate, ciLow: estimate, ciHigh: estimate };
    return { feature, estimate, ciLow: Math.min(estimate, quantileSorted(s, alpha)), ciHigh: Math.max(estimate, quantileSorted(s, 1 - alpha)) };
  });
  return { intervals, coefficients };
}
