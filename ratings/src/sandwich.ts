/**
 * Closed-form confidence intervals of the Bradley-Terry fit: the sandwich (robust, Huber-White)
 * covariance of the maximum-likelihood strengths, as LMArena computes its intervals since 2025, next
 * to the bootstrap of {@link bootstrapIntervals}. Pure and deterministic; it costs one fit and a few
 * m×m products (m models), where the bootstrap costs a hundred refits.
 */

import { cholesky, solveFactored } from './cholesky.ts';
import { encode, fitEncoded, pairWeights, resolveFit, toRatings, weightedCounts } from './ratings.ts';
import type { FitOptions, RatingInterval, Votes, WeightingOptions } from './ratings.ts';

/** Options of {@link sandwichIntervals}. */
export interface SandwichOptions extends FitOptions, WeightingOptions {
  /** Confidence level of the normal interval, in (0, 1). Default 0.95. */
  level?: number;
}

/**
 * The fit and its covariance, in natural-log strengths θ_i = ln p_i (a rating is
 * `base + scale · θ_i / ln 10`). Matrices are m×m, row-major, over `ids` (every model in a counted
 * vote, sorted by id).
 */
export interface BradleyTerryCovariance {
  ids: string[];
  /** Fitted θ, centred to mean 0 within each connected component, as the fit anchors them. */
  theta: Float64Array;
  /**
   * The bread: minus the Hessian of the fitted objective (the weighted log-likelihood plus the
   * prior's virtual ties) in θ at the fit, Σ ω·n·π(1 − π)·x·xᵀ over the pairs, x = e_i − e_j.
   */
  information: Float64Array;
  /** The meat: Σ over votes of the score's outer product, Σ ω²·n·(w − π)²·x·xᵀ (w the vote's win weight). */
  meat: Float64Array;
  /** The sandwich H⁺·B·H⁺ (H the information, B the meat): the covariance of the centred θ. */
  covariance: Float64Array;
}

/**
 * The sandwich covariance of the Bradley-Terry fit of `votes` (same options and anchoring as
 * {@link fitBradleyTerry}, with `pairWeighting` the same weights).
 *
 * Each vote between i and j with win weight w for i (1, ½ or 0) contributes the score
 * ω·(w − π_ij)·(e_i − e_j) to the gradient of the log-likelihood in θ, π_ij = p_i / (p_i + p_j) at the
 * fit and ω its weight (1 unless `pairWeighting`). The covariance is H⁻¹·B·H⁻¹ with H the information
 * and B the sum of the scores' outer products: valid when the model is wrong too (ties counted as half
 * wins, weights, verdicts that are not Bradley-Terry), where the model-based H⁻¹ is not.
 *
 * Identifiability: H is singular along "every strength of a component up by the same amount", the
 * direction the fit fixes by centring each component's log strengths. H⁺ (the pseudo-inverse) is
 * computed as (H + J)⁻¹ with J the all-ones block of each component, exactly as the fit's Newton steps
 * regularise: both matrices agree on the centred subspace and the scores sum to 0 within a component
 * (B·1 = 0), so (H + J)⁻¹·B·(H + J)⁻¹ = H⁺·B·H⁺, the covariance of the centred strengths, whose rows
 * sum to 0 within each component. Models of different components have covariance 0.
 */
export function bradleyTerryCovariance(votes: Votes, opts?: FitOptions & WeightingOptions): BradleyTerryCovariance {
  const o = resolveFit(opts);
  const enc = encode(votes);
  const m = enc.ids.length;
  const weights = opts?.pairWeighting ? pairWeights(enc) : null;
  const log10 = fitEncoded(enc, weightedCounts(enc, enc.n, opts?.pairWeighting), o);
  const theta = Float64Array.from(log10, (l) => l * Math.LN10);

  const information = new Float64Array(m * m);
  const meat = new Float64Array(m * m);
  const addPair = (target: Float64Array, i: number, j: number, v: number) => {
    target[i * m + i] = (target[i * m + i] as number) + v;
    target[j * m + j] = (target[j * m + j] as number) + v;
    target[i * m + j] = (target[i * m + j] as number) - v;
    target[j * m + i] = (target[j * m + i] as number) - v;
  };
  for (let k = 0; k < enc.n.length; k++) {
    const i = enc.lo[k] as number;
    const j = enc.hi[k] as number;
    if (i === j) continue;
    const pi = 1 / (1 + Math.exp((theta[j] as number) - (theta[i] as number)));
    const omega = weights ? (weights[k] as number) : 1;
    const n = enc.n[k] as number;
    addPair(information, i, j, omega * n * pi * (1 - pi));
    addPair(meat, i, j, omega * omega * n * ((enc.winsLo[k] as number) - pi) ** 2);
  }
  // The prior: one virtual tie of weight `prior` per pair that met (cells of a pair are adjacent).
  for (let k = 0; k < enc.n.length; k++) {
    const i = enc.lo[k] as number;
    const j = enc.hi[k] as number;
    if (i === j || (k > 0 && enc.lo[k - 1] === i && enc.hi[k - 1] === j)) continue;
    const pi = 1 / (1 + Math.exp((theta[j] as number) - (theta[i] as number)));
    addPair(information, i, j, o.prior * pi * (1 - pi));
  }

  const inverse = pseudoInverse(information, componentsOf(enc, m), m);
  const covariance = multiply(multiply(inverse, meat, m), inverse, m);
  return { ids: enc.ids, theta, information, meat, covariance };
}

/** Component label of each model (models joined by a pair with votes), for the all-ones blocks of J. */
function componentsOf(enc: ReturnType<typeof encode>, m: number): Int32Array {
  const parent = Int32Array.from({ length: m }, (_, i) => i);
  const root = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i] as number] as number;
    return i;
  };
  for (let k = 0; k < enc.n.length; k++) parent[root(enc.lo[k] as number)] = root(enc.hi[k] as number);
  return Int32Array.from({ length: m }, (_, i) => root(i));
}

/** (H + J)⁻¹, J the all-ones block of each component: H⁺ plus a part that a centred product cancels. */
function pseudoInverse(h: Float64Array, component: Int32Array, m: number): Float64Array {
  const a = Float64Array.from(h);
  for (let i = 0; i < m; i++) for (let j = 0; j < m; j++) if (component[i] === component[j]) a[i * m + j] = (a[i * m + j] as number) + 1;
  if (!cholesky(a, m)) throw new RangeError('the information matrix is not positive definite on the centred strengths');
  const out = new Float64Array(m * m);
  const col = new Float64Array(m);
  for (let j = 0; j < m; j++) {
    col.fill(0);
    col[j] = 1;
    solveFactored(a, col, m);
    for (let i = 0; i < m; i++) out[i * m + j] = col[i] as number;
  }
  return out;
}

function multiply(x: Float64Array, y: Float64Array, m: number): Float64Array {
  const out = new Float64Array(m * m);
  for (let i = 0; i < m; i++) {
    for (let k = 0; k < m; k++) {
      const xik = x[i * m + k] as number;
      if (xik === 0) continue;
      for (let j = 0; j < m; j++) out[i * m + j] = (out[i * m + j] as number) + xik * (y[k * m + j] as number);
    }
  }
  return out;
}

/**
 * The standard normal quantile, by Acklam's rational approximation (relative error below 1.2e-9).
 */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError('p must be in (0, 1)');
  const a = [-3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2, -3.066479806614716e1, 2.506628277459239];
  const b = [-5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1];
  const c = [-7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416];
  const poly = (coef: number[], x: number) => coef.reduce((s, v) => s * x + v, 0);
  let x: number;
  if (p < 0.02425) {
    const q = Math.sqrt(-2 * Math.log(p));
    x = poly(c, q) / (poly(d, q) * q + 1);
  } else if (p > 1 - 0.02425) {
    const q = Math.sqrt(-2 * Math.log(1 - p));
    x = -poly(c, q) / (poly(d, q) * q + 1);
  } else {
    const q = p - 0.5;
    const r = q * q;
    x = (poly(a, r) * q) / (poly(b, r) * r + 1);
  }
  return x;
}

/**
 * Bradley-Terry ratings with sandwich (closed-form) confidence intervals: the {@link fitBradleyTerry}
 * rating (same options) ± z · standard error, z the normal quantile of (1 + level) / 2 (1.96 at the
 * default 0.95) and the standard error `scale / ln 10 · √Σ_ii` from {@link bradleyTerryCovariance}, on
 * the board's rating scale. The interval is symmetric and, unlike the bootstrap's, varies as soon as
 * a verdict could have gone another way. It is the interval of the rating relative to its
 * component's mean (the ratings are anchored that way); a model alone in its component gets
 * width 0.
 *
 * @returns model id → interval, in the order of {@link fitBradleyTerry} (rating descending).
 */
export function sandwichIntervals(votes: Votes, opts?: SandwichOptions): Map<string, RatingInterval> {
  const level = opts?.level ?? 0.95;
  if (!(level > 0 && level < 1)) throw new RangeError('level must be in (0, 1)');
  const o = resolveFit(opts);
  const cov = bradleyTerryCovariance(votes, opts);
  const m = cov.ids.length;
  const ratings = toRatings(cov.ids, Float64Array.from(cov.theta, (t) => t / Math.LN10), o);
  const index = new Map(cov.ids.map((id, i) => [id, i]));
  const z = normalQuantile((1 + level) / 2);
  const out = new Map<string, RatingInterval>();
  for (const [id, rating] of ratings) {
    const i = index.get(id) as number;
    const half = (z * o.scale * Math.sqrt(Math.max(0, cov.covariance[i * m + i] as number))) / Math.LN10;
    out.set(id, { rating, ciLow: rating - half, ciHigh: rating + half });
  }
  return out;
}
