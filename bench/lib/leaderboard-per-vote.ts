// Over 300 lines on purpose: an older version of the ratings engine, kept verbatim as the benchmark's anchor.
/**
 * The benchmark's anchor: the leaderboard's statistics as they were before grouped counts
 * (ratings/src/ratings.ts today; shared/src/ratings.ts at commit edaa266, where this was taken),
 * kept verbatim but for the names and the comments on the two exported functions. Every vote is
 * an entry of its own, and each bootstrap resample draws N single votes, so a refit costs what the
 * votes cost.
 */
import { DEFAULT_PRIOR } from '@duet/ratings/ratings';
import type { BootstrapOptions, Comparison, FitOptions, RatingInterval } from '@duet/ratings/ratings';

const DEFAULTS = { scale: 400, base: 1000, iterations: 10_000, tolerance: 1e-10, prior: DEFAULT_PRIOR };

/** Win weight of side `a` for each verdict. */
function winWeight(winner: Comparison['winner']): number {
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

/** Comparisons translated to dense model indices (models sorted by id, so the fit is input-order independent). */
interface Encoded {
  ids: string[];
  a: Int32Array;
  b: Int32Array;
  /** Win weight of side a. */
  w: Float64Array;
}

function encode(comparisons: readonly Comparison[]): Encoded {
  const idSet = new Set<string>();
  for (const c of comparisons) {
    idSet.add(c.a);
    idSet.add(c.b);
  }
  const ids = [...idSet].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
  const index = new Map(ids.map((id, i) => [id, i]));
  const n = comparisons.length;
  const a = new Int32Array(n);
  const b = new Int32Array(n);
  const w = new Float64Array(n);
  comparisons.forEach((c, k) => {
    a[k] = index.get(c.a) as number;
    b[k] = index.get(c.b) as number;
    w[k] = winWeight(c.winner);
  });
  return { ids, a, b, w };
}

type ResolvedFit = Required<FitOptions>;

function resolveFit(opts: FitOptions | undefined): ResolvedFit {
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
 * Core fit on encoded data. `count[k]` is how many times comparison k is used
 * (all 1 for the full data, bootstrap multiplicities otherwise).
 * Returns log10 strengths, anchored per connected component to mean 0, and NaN
 * for models that do not appear in any counted comparison.
 */
function fitEncoded(enc: Encoded, count: Uint32Array | null, o: ResolvedFit): Float64Array {
  const m = enc.ids.length;
  const present = new Uint8Array(m);
  // Aggregate per unordered pair (lo < hi): games and wins of lo.
  const pairIndex = new Map<number, number>();
  const pairLo: number[] = [];
  const pairHi: number[] = [];
  const pairGames: number[] = [];
  const pairWinsLo: number[] = [];
  for (let k = 0; k < enc.a.length; k++) {
    const c = count === null ? 1 : (count[k] as number);
    if (c === 0) continue;
    const a = enc.a[k] as number;
    const b = enc.b[k] as number;
    present[a] = 1;
    present[b] = 1;
    if (a === b) continue; // a model against itself carries no information
    const lo = a < b ? a : b;
    const hi = a < b ? b : a;
    const winsLo = a === lo ? (enc.w[k] as number) : 1 - (enc.w[k] as number);
    const key = lo * m + hi;
    let p = pairIndex.get(key);
    if (p === undefined) {
      p = pairLo.length;
      pairIndex.set(key, p);
      pairLo.push(lo);
      pairHi.push(hi);
      pairGames.push(0);
      pairWinsLo.push(0);
    }
    pairGames[p] = (pairGames[p] as number) + c;
    pairWinsLo[p] = (pairWinsLo[p] as number) + c * winsLo;
  }

  // Adjacency lists with the virtual tie folded in.
  const nbr: number[][] = Array.from({ length: m }, () => []);
  const games: number[][] = Array.from({ length: m }, () => []);
  const beat: number[][] = Array.from({ length: m }, () => []); // i -> j when i has win weight > 0 against j
  const wins = new Float64Array(m);
  for (let p = 0; p < pairLo.length; p++) {
    const lo = pairLo[p] as number;
    const hi = pairHi[p] as number;
    const g = pairGames[p] as number;
    const wl = pairWinsLo[p] as number;
    const wh = g - wl;
    (nbr[lo] as number[]).push(hi);
    (nbr[hi] as number[]).push(lo);
    (games[lo] as number[]).push(g + o.prior);
    (games[hi] as number[]).push(g + o.prior);
    wins[lo] = (wins[lo] as number) + wl + o.prior / 2;
    wins[hi] = (wins[hi] as number) + wh + o.prior / 2;
    if (wl > 0) (beat[lo] as number[]).push(hi);
    if (wh > 0) (beat[hi] as number[]).push(lo);
  }

  // Connected components of the comparison graph (present models only).
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

  if (o.prior === 0) assertMleExists(components, beat, enc.ids);

  // Classic MM (Zermelo / Hunter 2004), Jacobi form, renormalised each step.
  let p = new Float64Array(m).fill(1);
  let next = new Float64Array(m);
  for (let it = 0; it < o.iterations; it++) {
    for (let i = 0; i < m; i++) {
      const ni = nbr[i] as number[];
      if (ni.length === 0) {
        next[i] = 1;
        continue;
      }
      const gi = games[i] as number[];
      const pi = p[i] as number;
      let denom = 0;
      for (let t = 0; t < ni.length; t++) denom += (gi[t] as number) / (pi + (p[ni[t] as number] as number));
      next[i] = (wins[i] as number) / denom;
    }
    for (const members of components) {
      let sumLog = 0;
      for (const i of members) sumLog += Math.log(next[i] as number);
      const g = Math.exp(sumLog / members.length);
      for (const i of members) next[i] = (next[i] as number) / g;
    }
    let maxRel = 0;
    for (let i = 0; i < m; i++) {
      if (!present[i]) continue;
      const rel = Math.abs((next[i] as number) - (p[i] as number)) / (p[i] as number);
      if (rel > maxRel) maxRel = rel;
    }
    [p, next] = [next, p];
    if (maxRel < o.tolerance) break;
  }

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

function toRatings(ids: string[], log10Strength: Float64Array, o: ResolvedFit): Map<string, number> {
  const rows: [string, number][] = [];
  ids.forEach((id, i) => {
    const l = log10Strength[i] as number;
    if (!Number.isNaN(l)) rows.push([id, o.base + o.scale * l]);
  });
  rows.sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
  return new Map(rows);
}

/** Today's `fitBradleyTerry`: one entry per vote. */
export function fitBradleyTerryPerVote(comparisons: readonly Comparison[], opts?: FitOptions): Map<string, number> {
  const o = resolveFit(opts);
  const enc = encode(comparisons);
  return toRatings(enc.ids, fitEncoded(enc, null, o), o);
}

/** mulberry32: small, fast, seeded 32-bit PRNG returning floats in [0, 1). */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Percentile of sorted values, linear interpolation between order statistics (R type 7 / numpy default). */
function quantileSorted(sorted: readonly number[], q: number): number {
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  const x = sorted[lo] as number;
  return x + (h - lo) * ((sorted[hi] as number) - x);
}

/** Today's `bootstrapIntervals`: each resample draws N single votes, one PRNG call per vote. */
export function bootstrapIntervalsPerVote(
  comparisons: readonly Comparison[],
  opts?: BootstrapOptions,
): Map<string, RatingInterval> {
  const o = resolveFit(opts);
  const resamples = opts?.resamples ?? 100;
  const seed = opts?.seed ?? 42;
  const level = opts?.level ?? 0.95;
  if (!Number.isInteger(resamples) || resamples < 1) throw new RangeError('resamples must be a positive integer');
  if (!Number.isFinite(seed)) throw new RangeError('seed must be finite');
  if (!(level > 0 && level < 1)) throw new RangeError('level must be in (0, 1)');

  const enc = encode(comparisons);
  const full = toRatings(enc.ids, fitEncoded(enc, null, o), o);
  const samples: number[][] = enc.ids.map(() => []);
  const n = comparisons.length;
  const rand = mulberry32(seed);
  const count = new Uint32Array(n);
  for (let r = 0; r < resamples; r++) {
    count.fill(0);
    for (let k = 0; k < n; k++) {
      const pick = Math.floor(rand() * n);
      count[pick] = (count[pick] as number) + 1;
    }
    const log10Strength = fitEncoded(enc, count, o);
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
