import { randomUUID } from 'node:crypto';
import { DEMO_ROSTER } from '@duet/platform/roster-settings';
import type { ErrorResponse, Leaderboard, VoteReasonsResponse, VoteResponse, Winner } from '@duet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashVoteToken, newVoteToken } from '../../server/src/modules/battles/vote-token.ts';
import type { TestDuet } from '../helpers/duet.ts';
import { startTestDuet } from '../helpers/duet.ts';

const [ATLAS, SONNET] = DEMO_ROSTER as [(typeof DEMO_ROSTER)[number], (typeof DEMO_ROSTER)[number]];

/**
 * Why a visitor voted as they did: reasons from a fixed list, given with the vote or added once
 * just after it, stored with the vote, counted per model for the leaderboard, and in the export.
 * Battles are written straight to PostgreSQL; votes and reasons go through HTTP.
 */
describe('the reasons of a vote', () => {
  let duet: TestDuet;

  beforeAll(async () => {
    duet = await startTestDuet({ noWorker: true, env: { EXPORT_ENABLED: 'true' } });
  });
  afterAll(async () => {
    await duet?.close();
  });

  async function battle(opts: { tool?: string; mode?: 'blind' | 'named' } = {}) {
    const id = randomUUID();
    const voteToken = newVoteToken();
    await duet.db.pool.query(
      `INSERT INTO battles (id, tool, lang, text, model_a, label_a, family_a, model_b, label_b, family_b, mode, vote_token_hash, status, moderation)
       VALUES ($1, $2, 'en', 'A poem about rain', $3, $4, $5, $6, $7, $8, $9, $10, 'finished', 'ok')`,
      [id, opts.tool ?? 'makeLyrics', ATLAS.id, ATLAS.label, ATLAS.family, SONNET.id, SONNET.label, SONNET.family, opts.mode ?? 'blind', hashVoteToken(voteToken)],
    );
    for (const side of ['a', 'b'] as const) {
      await duet.db.pool.query(
        `INSERT INTO answers (battle_id, side, model, text, finish_reason, input_tokens, output_tokens, ttft_ms, duration_ms, names_model)
         VALUES ($1, $2, $3, 'Rain on the roof.', 'stop', 12, 80, 300, 4000, false)`,
        [id, side, side === 'a' ? ATLAS.id : SONNET.id],
      );
    }
    return { id, voteToken };
  }

  const post = async <T>(path: string, body: unknown) => {
    const res = await fetch(`${duet.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as T & ErrorResponse };
  };
  const vote = (b: { id: string; voteToken: string }, winner: Winner, reasons?: unknown) =>
    post<VoteResponse>(`/api/battles/${b.id}/vote`, { winner, voteToken: b.voteToken, ...(reasons === undefined ? {} : { reasons }) });
  const addReasons = (b: { id: string; voteToken: string }, reasons: unknown) => post<VoteReasonsResponse>(`/api/battles/${b.id}/reasons`, { voteToken: b.voteToken, reasons });

  const storedReasons = async (id: string) => (await duet.db.pool.query<{ reasons: string[] }>('SELECT reasons FROM votes WHERE battle_id = $1', [id])).rows[0]?.reasons;
  const totals = async () =>
    Object.fromEntries(
      (await duet.db.pool.query<{ key: string; n: number }>("SELECT tool || ' ' || model || ' ' || reason AS key, n FROM model_reasons ORDER BY 1")).rows.map((r) => [r.key, r.n]),
    );
  const board = async (tool?: string) => (await (await fetch(`${duet.url}/api/leaderboard${tool ? `?tool=${tool}` : ''}`)).json()) as Leaderboard;

  it('stores reasons given with the vote, says them of the winner and the loser, and shows them on the leaderboard and in the export', async () => {
    const b = await battle();
    const { status, body } = await vote(b, 'b', ['accurate', 'clear', 'too_long']);
    expect(status).toBe(200);
    expect(body.reasons).toEqual(['accurate', 'clear', 'too_long']);
    expect(await storedReasons(b.id)).toEqual(['accurate', 'clear', 'too_long']);
    // Sonnet (b) won: picked for accuracy and clarity; Atlas lost, passed over for being too long.
    expect(await totals()).toEqual({ [`makeLyrics ${SONNET.id} accurate`]: 1, [`makeLyrics ${SONNET.id} clear`]: 1, [`makeLyrics ${ATLAS.id} too_long`]: 1 });

    const poem = await board('makeLyrics');
    expect(poem.reasons).toEqual({ [SONNET.id]: { picked: { accurate: 1, clear: 1 }, passed: {} }, [ATLAS.id]: { picked: {}, passed: { too_long: 1 } } });

    const exported = (await (await fetch(`${duet.url}/api/export/votes.jsonl`)).text()).trim().split('\n').map((l) => JSON.parse(l) as { battle_id: string; reasons: string[] });
    expect(exported.find((r) => r.battle_id === b.id)?.reasons).toEqual(['accurate', 'clear', 'too_long']);
    const csv = await (await fetch(`${duet.url}/api/export/votes.csv`)).text();
    expect(csv.split('\n')[0]).toContain('winner,reasons,question');
    expect(csv).toContain(`${b.id},makeLyrics,en,${ATLAS.id},${SONNET.id},b,accurate clear too_long,`);
  });

  it('takes reasons once just after the vote, by the vote token’s holder, within the hour', async () => {
    const b = await battle({ tool: 'rap-lyrics' });
    expect((await addReasons(b, ['creative'])).body.error.code).toBe('not_voted');
    expect((await vote(b, 'a')).status).toBe(200);
    expect(await storedReasons(b.id)).toEqual([]);

    const forged = await post<VoteReasonsResponse>(`/api/battles/${b.id}/reasons`, { voteToken: newVoteToken(), reasons: ['creative'] });
    expect([forged.status, forged.body.error.code]).toEqual([403, 'invalid_vote_token']);
    const unknown = await post<VoteReasonsResponse>(`/api/battles/${randomUUID()}/reasons`, { voteToken: b.voteToken, reasons: ['creative'] });
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'not_found']);

    const added = await addReasons(b, ['creative', 'refused']);
    expect([added.status, added.body]).toEqual([200, { battleId: b.id, reasons: ['creative', 'refused'] }]);
    expect(await storedReasons(b.id)).toEqual(['creative', 'refused']);
    const again = await addReasons(b, ['concise']);
    expect([again.status, again.body.error.code]).toEqual([409, 'reasons_given']);
    expect(await storedReasons(b.id)).toEqual(['creative', 'refused']);
    expect((await board('rap-lyrics')).reasons).toEqual({ [ATLAS.id]: { picked: { creative: 1 }, passed: {} }, [SONNET.id]: { picked: {}, passed: { refused: 1 } } });

    const late = await battle({ tool: 'rap-lyrics' });
    expect((await vote(late, 'a')).status).toBe(200);
    await duet.db.pool.query("UPDATE votes SET created_at = now() - interval '61 minutes' WHERE battle_id = $1", [late.id]);
    const tooLate = await addReasons(late, ['clear']);
    expect([tooLate.status, tooLate.body.error.code]).toEqual([409, 'too_late']);
    expect(await storedReasons(late.id)).toEqual([]);
  });

  it('says reasons of both models on a tie or "both bad", and counts none of a vote that does not count', async () => {
    const before = await totals();
    const tie = await battle({ tool: 'quiz-solving' });
    expect((await vote(tie, 'tie', ['well_formatted'])).status).toBe(200);
    const bad = await battle({ tool: 'quiz-solving' });
    expect((await vote(bad, 'both_bad', ['wrong'])).status).toBe(200);
    const named = await battle({ tool: 'quiz-solving', mode: 'named' });
    expect((await vote(named, 'a', ['concise'])).status).toBe(200);
    expect(await storedReasons(named.id)).toEqual(['concise']);

    expect((await board('quiz-solving')).reasons).toEqual({
      [ATLAS.id]: { picked: { well_formatted: 1 }, passed: { wrong: 1 } },
      [SONNET.id]: { picked: { well_formatted: 1 }, passed: { wrong: 1 } },
    });
    // The overall board adds up every tool's.
    const overall = await board();
    expect(overall.reasons?.[SONNET.id]?.picked).toEqual({ accurate: 1, clear: 1, well_formatted: 1 });
    expect(Object.keys(await totals()).length).toBe(Object.keys(before).length + 4);
  });

  it('refuses reasons that are not on the list, repeated, or do not fit the vote with 400, storing neither vote nor reasons', async () => {
    const before = await totals();
    const b = await battle({ tool: 'makeLyrics' });
    for (const reasons of [['nice'], ['clear', 'clear'], 'clear', [1], Array(10).fill('clear')]) {
      const { status, body } = await vote(b, 'a', reasons);
      expect([status, body.error.code], JSON.stringify(reasons)).toEqual([400, 'validation_failed']);
    }
    const misfit = await vote(b, 'both_bad', ['accurate', 'wrong']);
    expect([misfit.status, misfit.body.error.code]).toEqual([400, 'validation_failed']);
    expect(misfit.body.error.message).toContain('both bad');
    expect(await storedReasons(b.id)).toBeUndefined();

    expect((await vote(b, 'both_bad')).status).toBe(200);
    for (const reasons of [[], ['accurate'], ['nope']]) {
      const { status, body } = await addReasons(b, reasons);
      expect([status, body.error.code], JSON.stringify(reasons)).toEqual([400, 'validation_failed']);
    }
    expect(await storedReasons(b.id)).toEqual([]);
    expect(await totals()).toEqual(before);
  });
});
