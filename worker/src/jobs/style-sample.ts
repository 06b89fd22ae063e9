import { boardScope } from '@duet/contracts';
import type { Language, Winner } from '@duet/contracts';
import type { StyledComparison } from '@duet/ratings/style-control';
import { z } from 'zod';
import type { Db } from '../infra/db.ts';
import { BATTLE_HASH_RANGE, forEachStyledVote } from '../store/leaderboard.repo.ts';
import type { CountedRow, HashedStyledRow, StyledSliceLimit } from '../store/leaderboard.repo.ts';
import { inScope, SCOPES } from './leaderboard-boards.ts';
import type { Scope, VoteKind } from './leaderboard-boards.ts';

/** The setting, read by the worker at start and by the refit's own process. */
export const ZStyleFitEnvSchema = z.object({
  /**
   * Counted votes a style-controlled board's fit reads at most (about: see {@link styleSampleLimits}).
   * A board with more is fitted on a fixed sample of its votes (by a hash of the battle id); one
   * with fewer on every vote, exactly as without the bound.
   */
  STYLE_FIT_MAX_VOTES: z.coerce.number().int().min(100).default(100_000),
});
export const DEFAULT_STYLE_FIT_MAX_VOTES = ZStyleFitEnvSchema.parse({}).STYLE_FIT_MAX_VOTES;

/**
 * Each board's limit on the battle hash (of {@link BATTLE_HASH_RANGE}): the whole range for a
 * board with at most `maxVotes` counted votes in `cells`, else the share maxVotes / votes of it.
 * A board's sample is then binomial, about `maxVotes` (more than maxVotes + 3·√maxVotes one time
 * in a thousand), and the same votes on every refit.
 */
export function styleSampleLimits(cells: readonly CountedRow[], maxVotes: number): Map<string, number> {
  const votes = SCOPES.map(() => 0);
  for (const c of cells) {
    const kind = { tool: c.tool, lang: c.lang, hasImage: c.has_image, multiTurn: c.multi_turn };
    SCOPES.forEach((s, i) => {
      if (inScope(s, kind)) votes[i] = (votes[i] as number) + c.n;
    });
  }
  return new Map(
    SCOPES.map((s, i) => {
      const n = votes[i] as number;
      return [boardScope(s), n <= maxVotes ? BATTLE_HASH_RANGE : Math.floor((BATTLE_HASH_RANGE * maxVotes) / n)];
    }),
  );
}

const WINNERS: readonly Winner[] = ['a', 'b', 'tie', 'both_bad'];
/** Style features per vote: five per side. */
const FEATURES = 10;

/**
 * The votes the style-controlled boards read, kept in typed arrays (about 50 bytes a vote, against
 * a few hundred as rows of JavaScript values): the union of every board's sample. A board's votes
 * become the fit's objects only while that board is fitted.
 */
export class StyledSample {
  /** Votes kept: the union of the boards' samples. */
  size = 0;
  private readonly kinds: VoteKind[] = [];
  private readonly kindIndex = new Map<string, number>();
  private readonly models: string[] = [];
  private readonly modelIndex = new Map<string, number>();
  /** Fixed-size chunks, never copied as they fill (a growing array would briefly need both copies). */
  private readonly chunks: Chunk[] = [];

  /** `limits`: each board's limit on the battle hash, by {@link boardScope} ({@link styleSampleLimits}). */
  constructor(private readonly limits: ReadonlyMap<string, number>) {}

  /** Appends rows in the order read (the fit's bootstrap follows it). */
  add(rows: readonly HashedStyledRow[]): void {
    for (const r of rows) {
      const at = this.size % CHUNK;
      if (at === 0) this.chunks.push(newChunk());
      const c = this.chunks[this.chunks.length - 1] as Chunk;
      c.kind[at] = this.indexOf(this.kindIndex, this.kinds, `${r[0]}\u0000${r[1]}\u0000${r[2] ? 1 : 0}${r[3] ? 1 : 0}`, () => ({ tool: r[0], lang: r[1] as Language, hasImage: r[2], multiTurn: r[3] }));
      c.a[at] = this.indexOf(this.modelIndex, this.models, r[4], () => r[4]);
      c.b[at] = this.indexOf(this.modelIndex, this.models, r[5], () => r[5]);
      const w = WINNERS.indexOf(r[6]);
      if (w < 0) throw new RangeError(`Unknown winner: ${String(r[6])}`);
      c.winner[at] = w;
      for (let k = 0; k < FEATURES; k++) c.style[at * FEATURES + k] = r[7 + k] as number;
      c.hash[at] = r[7 + FEATURES] as number;
      this.size++;
    }
  }

  /** The scope's votes in its sample, in the order read, as the fit takes them. */
  votesOf(scope: Scope): StyledComparison[] {
    const limit = this.limitOf(scope);
    const holds = this.kinds.map((k) => inScope(scope, k));
    const out: StyledComparison[] = [];
    for (let i = 0; i < this.size; i++) {
      const c = this.chunks[Math.floor(i / CHUNK)] as Chunk;
      const at = i % CHUNK;
      if (!holds[c.kind[at] as number] || (c.hash[at] as number) >= limit) continue;
      const o = at * FEATURES;
      out.push({
        a: this.models[c.a[at] as number] as string,
        b: this.models[c.b[at] as number] as string,
        winner: WINNERS[c.winner[at] as number] as Winner,
        styleA: Array.from(c.style.subarray(o, o + 5)),
        styleB: Array.from(c.style.subarray(o + 5, o + 10)),
      });
    }
    return out;
  }

  /** The scope's limit: a scope without one (none in {@link SCOPES}) reads every vote. */
  limitOf(scope: Scope): number {
    return this.limits.get(boardScope(scope)) ?? BATTLE_HASH_RANGE;
  }

  private indexOf<T>(index: Map<string, number>, list: T[], key: string, make: () => T): number {
    let i = index.get(key);
    if (i === undefined) {
      if (list.length >= 0xffff) throw new RangeError('more than 65,535 models or slices in the styled votes');
      index.set(key, (i = list.length));
      list.push(make());
    }
    return i;
  }
}

/** Votes per chunk of a {@link StyledSample}. */
const CHUNK = 65_536;

interface Chunk {
  /** Index of the vote's slice (tool, language, picture, turns). */
  kind: Uint16Array;
  a: Uint16Array;
  b: Uint16Array;
  winner: Uint8Array;
  hash: Uint32Array;
  /** {@link FEATURES} per vote: side a's five, then side b's. */
  style: Int32Array;
}

const newChunk = (): Chunk => ({
  kind: new Uint16Array(CHUNK),
  a: new Uint16Array(CHUNK),
  b: new Uint16Array(CHUNK),
  winner: new Uint8Array(CHUNK),
  hash: new Uint32Array(CHUNK),
  style: new Int32Array(CHUNK * FEATURES),
});

/**
 * Reads the counted votes with their styles that the style-controlled boards fit on: each board's
 * sample of at most about `maxVotes` ({@link styleSampleLimits}, sized from `cells`), streamed
 * from PostgreSQL into a {@link StyledSample}, so the refit's memory depends on `maxVotes` and the
 * number of boards, not on the votes. PostgreSQL already drops the votes no board's sample holds:
 * a vote is read when its hash is below the largest limit of the boards its slice is on.
 */
export async function readStyledSample(db: Db, cells: readonly CountedRow[], maxVotes: number, promptCap?: number): Promise<StyledSample> {
  const limits = styleSampleLimits(cells, maxVotes);
  const sample = new StyledSample(limits);
  const slices = new Map<string, StyledSliceLimit>();
  for (const c of cells) {
    const key = `${c.tool}\u0000${c.lang}\u0000${c.has_image ? 1 : 0}${c.multi_turn ? 1 : 0}`;
    if (slices.has(key)) continue;
    const kind = { tool: c.tool, lang: c.lang, hasImage: c.has_image, multiTurn: c.multi_turn };
    const limit = Math.max(...SCOPES.filter((s) => inScope(s, kind)).map((s) => sample.limitOf(s)));
    slices.set(key, { tool: c.tool, lang: c.lang, has_image: c.has_image, multi_turn: c.multi_turn, limit });
  }
  // A slice the cells lack (votes counted after they were read) is read whole: its votes are few.
  await forEachStyledVote(db, [...slices.values()], BATTLE_HASH_RANGE, (rows) => sample.add(rows), undefined, promptCap);
  return sample;
}
