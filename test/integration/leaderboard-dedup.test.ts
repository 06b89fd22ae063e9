import type { Leaderboard, Winner } from '@duet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countedCells, foldCountedVotes } from '../../worker/src/store/leaderboard.repo.ts';
import { promptHashOf } from '../../server/src/modules/battles/prompt-hash.ts';
import { getJson, postBattleWithImage, postJson, TINY_PNG } from '../helpers/api.ts';
import type { TestDuet } from '../helpers/duet.ts';
import { startTestDuet } from '../helpers/duet.ts';
import type { BattleModel } from '../helpers/user-votes.ts';
import { castVote, storedBattle } from '../helpers/user-votes.ts';
import { waitFor } from '../helpers/wait.ts';

/** DEDUP_MAX_PER_PROMPT for this Duet: small, so a few votes go over it. */
const CAP = 3;
const A: BattleModel = { id: 'dedup-a', label: 'Dedup A', family: 'other' };
const B: BattleModel = { id: 'dedup-b', label: 'Dedup B', family: 'other' };
const TOOL = 'anything-question';
const OTHER_TOOL = 'math-solve';
/** One question, written five ways. */
const SAME_QUESTION = ['What is 2+2?', 'what is 2 + 2', 'WHAT IS 2+2!!', 'What  is 2+2 ?', 'what is 2+2'];

describe('de-duplication of repeated questions', () => {
  let duet: TestDuet;

  beforeAll(async () => {
    duet = await startTestDuet({ env: { LEADERBOARD_INTERVAL_MS: '200', DEDUP_MAX_PER_PROMPT: String(CAP), EXPORT_ENABLED: 'true' } });
  }, 60_000);
  afterAll(async () => {
    await duet?.close();
  });

  const vote = async (text: string, winner: Winner, tool = TOOL) => {
    const res = await castVote(duet.url, await storedBattle(duet.db.pool, A, B, { text, tool }), winner);
    expect(res.status).toBe(200);
  };
  const board = (query = '') => getJson<Leaderboard>(`${duet.url}/api/leaderboard${query}`);
  /** The board once the refit has counted `votes` (and nothing is pending). */
  const boardWith = (query: string, votes: number) =>
    waitFor(
      async () => {
        const { body } = await board(query);
        return body.votes === votes && body.pending?.votes === 0 ? body : undefined;
      },
      { what: `the board ${query || '(default)'} to count ${votes} votes`, timeoutMs: 30_000, intervalMs: 100 },
    );
  const exported = async () =>
    (await (await fetch(`${duet.url}/api/export/votes.jsonl`)).text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { battle_id: string; tool: string; question: string; prompt_rank: number | null; over_prompt_cap: boolean });

  it('stores the question key of a battle asked through the API, and none for a battle with a picture', async () => {
    const asked = await postJson<{ battleId: string }>(`${duet.url}/api/battles`, { tool: TOOL, text: 'WHAT IS 2+2!!', lang: 'en' });
    expect(asked.status).toBe(202);
    const pictured = await postBattleWithImage(duet.url, { tool: 'math-solve', text: 'What is 2+2?', lang: 'en' }, { data: TINY_PNG, filename: 'x.png', type: 'image/png' });
    expect(pictured.status).toBe(202);
    const { rows } = await duet.db.pool.query<{ id: string; prompt_hash: Buffer | null }>('SELECT id, prompt_hash FROM battles WHERE id = ANY($1)', [
      [asked.body.battleId, pictured.body.battleId],
    ]);
    const hashOf = new Map(rows.map((r) => [r.id, r.prompt_hash]));
    expect(hashOf.get(asked.body.battleId)).toEqual(promptHashOf('What is 2+2?', false));
    expect(hashOf.get(pictured.body.battleId)).toBeNull();
  });

  it('counts a question at most the cap times per tool on the default board, every vote without de-duplication, and marks the rest', async () => {
    // Five votes on one question in one tool: the first three (A, A, B) count, the last two (both A) go over the cap.
    const winners: Winner[] = ['a', 'a', 'b', 'a', 'a'];
    for (const [i, text] of SAME_QUESTION.entries()) await vote(text, winners[i] as Winner);
    // The same question in another tool counts on its own, and another question is not capped.
    await vote('What is 2+2?', 'b', OTHER_TOOL);
    await vote('What is 2+2?', 'b', OTHER_TOOL);
    await vote('Why is the sky blue?', 'b');

    const deduped = await boardWith('', 6);
    expect(deduped).toMatchObject({ dedup: 'on', promptCap: CAP, cappedVotes: 2 });
    expect(deduped.pairs).toEqual([{ a: A.id, b: B.id, battles: 6, winsA: 2, winsB: 4 }]);
    const all = await boardWith('?dedup=off', 8);
    expect(all).toMatchObject({ dedup: 'off', promptCap: CAP, cappedVotes: 2 });
    expect(all.pairs).toEqual([{ a: A.id, b: B.id, battles: 8, winsA: 4, winsB: 4 }]);
    // Set aside, the two votes for A lower its rating.
    const rating = (b: Leaderboard, model: string) => b.models.find((m) => m.model === model)?.rating as number;
    expect(rating(all, A.id)).toBeGreaterThan(rating(deduped, A.id));

    // Per tool: the tool of the repeated question sets two aside, the other tool none.
    expect(await boardWith(`?tool=${TOOL}`, 4)).toMatchObject({ cappedVotes: 2 });
    expect(await boardWith(`?tool=${TOOL}&dedup=off`, 6)).toMatchObject({ cappedVotes: 2 });
    expect(await boardWith(`?tool=${OTHER_TOOL}`, 2)).toMatchObject({ cappedVotes: 0 });
    // Style-controlled boards are fitted on the de-duplicated votes.
    expect(await boardWith('?control=style', 6)).toMatchObject({ dedup: 'on', cappedVotes: 2 });

    // Every vote is kept and counted (win rates count them all); the export marks the two over the cap.
    const { rows } = await duet.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM votes WHERE counted');
    expect(rows[0]?.n).toBe(8);
    const lines = await exported();
    const repeated = lines.filter((l) => l.tool === TOOL && l.question !== 'Why is the sky blue?');
    expect(repeated.map((l) => [l.prompt_rank, l.over_prompt_cap])).toEqual([
      [1, false],
      [2, false],
      [3, false],
      [4, true],
      [5, true],
    ]);
    expect(lines.filter((l) => l.tool === OTHER_TOOL).map((l) => l.prompt_rank)).toEqual([1, 2]);
    expect(lines.filter((l) => l.over_prompt_cap)).toHaveLength(2);
  });

  it('recounts the cells when the cap changes, rewriting no vote', async () => {
    const capped = async (cap: number) => {
      const { through } = await foldCountedVotes(duet.db.pool, 0, { promptCap: cap });
      return (await countedCells(duet.db.pool, through, cap)).filter((r) => r.over_cap).reduce((n, r) => n + r.n, 0);
    };
    // The worker's own refit (with CAP) may fold in between: the figures are read again until they hold.
    const settles = (cap: number, expected: number) =>
      waitFor(async () => (await capped(cap)) === expected || undefined, { what: `${expected} votes over a cap of ${cap}`, timeoutMs: 10_000, intervalMs: 50 });
    await settles(1, 5); // 4 + 1 in the tool of the repeated question, 1 in the other
    await settles(0, 0);
    await settles(CAP, 2);
  });

  it('never ranks two votes cast at once on one question alike', async () => {
    const tool = 'quiz-solving';
    const battles = await Promise.all(Array.from({ length: 12 }, (_, i) => storedBattle(duet.db.pool, A, B, { text: SAME_QUESTION[i % SAME_QUESTION.length] as string, tool })));
    const results = await Promise.all(battles.map((b) => castVote(duet.url, b, 'a')));
    expect(results.map((r) => r.status)).toEqual(Array(12).fill(200));
    const { rows } = await duet.db.pool.query<{ prompt_rank: number }>('SELECT prompt_rank FROM votes WHERE tool = $1 ORDER BY prompt_rank', [tool]);
    expect(rows.map((r) => r.prompt_rank)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    const tally = await boardWith(`?tool=${tool}`, CAP);
    expect(tally.cappedVotes).toBe(12 - CAP);
  });

  it('refuses a dedup value it does not know, and no de-duplication of a style-controlled board, with 400', async () => {
    for (const query of ['?dedup=maybe', '?dedup=', '?dedup=off&control=style']) {
      const res = await board(query);
      expect(res.status, query).toBe(400);
    }
  });
});
