/**
 * How many counted votes a board's #1 rests on: the fewest votes whose removal lets another model's
 * rating pass the #1's (Huang et al. 2025 found 2 of 57,477 for Chatbot Arena). Found with the
 * one-step influence of each vote on the gap (from the fit's Hessian, as the sandwich intervals
 * use it) and confirmed by exact refits, so it costs a few refits, not one per vote.
 */

import { cholesky, solveFactored } from './cholesky.ts';
import { encode, fitEncoded, resolveFit, weightedCounts } from './ratings.ts';
import type { Encoded, FitOptions, ResolvedFit, Votes, WeightingOptions } from './ratings.ts';

/** Options of {@link topRobustness}: the fit's, and who may be #1. */
export interface TopRobustnessOptions extends FitOptions, WeightingOptions {
  /** The models that can be #1 or take its place (a board's ranked models). Default: every model in a vote. */
  contenders?: Iterable<string>;
}

/** The #1, the model that passes it first, and how many votes must go for that. */
export interface TopRobustness {
  top: string;
  challenger: string;
  /** Votes removed: a set of this many, when removed and the board refitted, puts `challenger` above `top`. */
  votes: number;
}

/** Rounds of "remove the votes the influence points to, refit" before giving up (each round closes most of what is left). */
const ROUNDS = 40;

/**
 * The robustness of the #1 (the highest-rated contender) of the Bradley-Terry fit of `votes`, same
 * options as {@link fitBradleyTerry}; null with fewer than two contenders, or when no removal the
 * influence points to changes the #1 within {@link ROUNDS} refits.
 *
 * Method. With θ the fitted natural-log strengths, H the fit's information (plus the all-ones block
 * of each connected component, as in its Newton steps) and s = ω·(w − π)·(e_i − e_j) the score of one
 * vote between i and j (win weight w of i, π the fitted chance that i wins, ω its weight), removing
 * that vote moves θ by about −H⁻¹·s, so the gap θ_top − θ_c to a challenger c by −(e_top − e_c)ᵀ·H⁻¹·s.
 * Votes of one (pair, verdict) cell share that influence, so for each challenger the cells are sorted
 * by it and whole cells taken, most gap-closing first, until the predicted gap is below 0; the
 * challenger needing the fewest votes gives the plan. The plan is then checked by an exact refit
 * without those votes; if the #1 held (the one-step prediction is linear, the fit is not), the
 * influence is recomputed at the new fit and more votes removed. (Where no plan closes any gap, a
 * lead the linear prediction cannot see the end of, half the votes of the closest plan go first.) Once the #1 falls, a bisection over
 * the removals in their order (exact refits) finds the shortest prefix that still changes it.
 *
 * The count is therefore that of an actual set of votes whose removal changes the #1: an upper bound
 * of the true minimum, which only a search over every subset would give. Pair weights (with
 * `pairWeighting`) are recomputed in every exact refit, and held fixed in the influence.
 */
export function topRobustness(votes: Votes, opts?: TopRobustnessOptions): TopRobustness | null {
  const o = resolveFit(opts);
  const enc = encode(votes);
  const allowed = opts?.contenders ? new Set(opts.contenders) : null;
  const contenders = enc.ids.flatMap((id, i) => (!allowed || allowed.has(id) ? [i] : []));
  if (contenders.length < 2) return null;
  const fit = (count: Float64Array, start?: Float64Array) => fitEncoded(enc, weightedCounts(enc, count, opts?.pairWeighting), o, start);
  const full = fit(enc.n);
  const top = leader(full, contenders);
  if (top < 0) return null;

  const count = Float64Array.from(enc.n);
  const removals: [cell: number, votes: number][] = [];
  let removed = 0;
  let log10 = full;
  for (let round = 0; round < ROUNDS; round++) {
    const plan = cheapestPlan(enc, weightedCounts(enc, count, opts?.pairWeighting), count, log10, top, contenders, o);
    if (!plan) return null;
    const before = removed;
    for (const [k, n] of plan) {
      count[k] = (count[k] as number) - n;
      removals.push([k, n]);
      removed += n;
    }
    log10 = fit(count, log10);
    if (passer(log10, top, contenders) < 0) continue;
    // The first `before` votes kept the #1 (checked in the previous round); all `removed` change it.
    const changes = (prefix: number) => passer(fit(withoutPrefix(enc.n, removals, prefix), full), top, contenders) >= 0;
    let [held, fell] = [before, removed];
    while (fell - held > 1) {
      const mid = Math.floor((held + fell) / 2);
      if (changes(mid)) fell = mid;
      else held = mid;
    }
    const challenger = passer(fit(withoutPrefix(enc.n, removals, fell), full), top, contenders);
    return { top: enc.ids[top] as string, challenger: enc.ids[challenger] as string, votes: fell };
  }
  return null;
}

/** Log10 strength by which a model must pass the #1 to take its place: a tie to rounding error is no change. */
const PASS = 1e-9;

/** The highest-rated contender if it is above the #1 by more than {@link PASS} (or the #1 left the fit); −1 if none is. */
function passer(log10: Float64Array, top: number, contenders: number[]): number {
  const best = leader(log10, contenders.filter((i) => i !== top));
  if (best < 0) return -1;
  return Number.isNaN(log10[top]) || (log10[best] as number) > (log10[top] as number) + PASS ? best : -1;
}

/** The contender with the highest log strength (a model absent from the fit, NaN, is no one's #1); −1 if none. */
function leader(log10: Float64Array, contenders: number[]): number {
  let best = -1;
  for (const i of contenders) if (!Number.isNaN(log10[i]) && (best < 0 || (log10[i] as number) > (log10[best] as number))) best = i;
  return best;
}

/** The counts without the first `prefix` votes of `removals`, taken in order. */
function withoutPrefix(n: Float64Array, removals: [number, number][], prefix: number): Float64Array {
  const out = Float64Array.from(n);
  let left = prefix;
  for (const [k, v] of removals) {
    if (left <= 0) break;
    const take = Math.min(v, left);
    out[k] = (out[k] as number) - take;
    left -= take;
  }
  return out;
}

/**
 * The one-step plan: for each challenger, the votes (cell, how many) whose predicted removal closes
 * its gap to the #1, most influential first; the shortest plan over the challengers, or null if the
 * influence predicts no removal closes any gap.
 */
function cheapestPlan(
  enc: Encoded,
  weighted: Float64Array,
  count: Float64Array,
  log10: Float64Array,
  top: number,
  contenders: number[],
  o: ResolvedFit,
): [number, number][] | null {
  const m = enc.ids.length;
  const theta = Float64Array.from(log10, (l) => (Number.isNaN(l) ? 0 : l * Math.LN10));
  const factor = informationFactor(enc, weighted, count, theta, o.prior);
  const cells = count.length;
  const pull = new Float64Array(cells); // per vote of cell k: ω·(w − π), the score along e_lo − e_hi
  for (let k = 0; k < cells; k++) {
    const i = enc.lo[k] as number;
    const j = enc.hi[k] as number;
    if (i === j || count[k] === 0) continue;
    const pi = 1 / (1 + Math.exp((theta[j] as number) - (theta[i] as number)));
    pull[k] = ((weighted[k] as number) / (count[k] as number)) * ((enc.winsLo[k] as number) - pi);
  }
  let best: [number, number][] | null = null;
  let bestVotes = Infinity;
  // When no plan closes a gap (the prediction is linear: far from a lead's end it falls short), half
  // of the gap-closing votes of the challenger it predicts closest, so the next round starts nearer.
  let partial: [number, number][] = [];
  let partialShare = 0;
  const v = new Float64Array(m);
  const delta = new Float64Array(cells);
  for (const c of contenders) {
    if (c === top || Number.isNaN(log10[c])) continue;
    v.fill(0);
    v[top] = 1;
    v[c] = -1;
    solveFactored(factor, v, m);
    for (let k = 0; k < cells; k++) delta[k] = -(pull[k] as number) * ((v[enc.lo[k] as number] as number) - (v[enc.hi[k] as number] as number));
    const order = Array.from({ length: cells }, (_, k) => k).filter((k) => (delta[k] as number) < 0 && (count[k] as number) > 0);
    order.sort((x, y) => (delta[x] as number) - (delta[y] as number));
    const start = (theta[top] as number) - (theta[c] as number);
    let gap = start;
    const plan: [number, number][] = [];
    let votes = 0;
    for (const k of order) {
      if (votes >= bestVotes) break;
      const per = -(delta[k] as number);
      const take = Math.min(Math.floor(gap / per) + 1, count[k] as number);
      plan.push([k, take]);
      votes += take;
      gap -= take * per;
      if (gap < 0) break;
    }
    if (gap < 0 && votes < bestVotes) [best, bestVotes] = [plan, votes];
    else if (!best && plan.length > 0 && (start - gap) / start > partialShare) {
      partialShare = (start - gap) / start;
      partial = firstVotes(plan, Math.ceil(votes / 2));
    }
  }
  return best ?? (partial.length > 0 ? partial : null);
}

/** The first `votes` votes of a plan, in its order. */
function firstVotes(plan: [number, number][], votes: number): [number, number][] {
  const out: [number, number][] = [];
  let left = votes;
  for (const [k, n] of plan) {
    if (left <= 0) break;
    out.push([k, Math.min(n, left)]);
    left -= n;
  }
  return out;
}

/**
 * The Cholesky factor of H + J at θ: H the information of the fitted objective (weighted votes plus
 * one virtual tie of weight `prior` per pair that met), J the all-ones block of each connected
 * component (an absent model its own), which makes it invertible without changing H⁻¹ on the
 * contrasts a gap is.
 */
function informationFactor(enc: Encoded, weighted: Float64Array, count: Float64Array, theta: Float64Array, prior: number): Float64Array {
  const m = enc.ids.length;
  const parent = Int32Array.from({ length: m }, (_, i) => i);
  const root = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i] as number] as number;
    return i;
  };
  const a = new Float64Array(m * m);
  for (let k = 0; k < count.length; ) {
    const i = enc.lo[k] as number;
    const j = enc.hi[k] as number;
    let games = 0;
    for (; k < count.length && enc.lo[k] === i && enc.hi[k] === j; k++) if ((count[k] as number) > 0) games += weighted[k] as number;
    if (i === j || games === 0) continue;
    parent[root(i)] = root(j);
    const pi = 1 / (1 + Math.exp((theta[j] as number) - (theta[i] as number)));
    const h = (games + prior) * pi * (1 - pi);
    a[i * m + i] = (a[i * m + i] as number) + h;
    a[j * m + j] = (a[j * m + j] as number) + h;
    a[i * m + j] = (a[i * m + j] as number) - h;
    a[j * m + i] = (a[j * m + i] as number) - h;
  }
  for (let i = 0; i < m; i++) for (let j = 0; j < m; j++) if (root(i) === root(j)) a[i * m + j] = (a[i * m + j] as number) + 1;
  if (!cholesky(a, m)) throw new RangeError('the information matrix is not positive definite on the centred strengths');
  return a;
}
