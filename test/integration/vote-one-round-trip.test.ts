import { randomUUID } from 'node:crypto';
import { DEMO_ROSTER } from '@duet/platform/roster-settings';
import { ZVoteResponseSchema } from '@duet/contracts';
import type { ErrorResponse, VoteResponse, Winner } from '@duet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashVoteToken, newVoteToken } from '../../server/src/modules/battles/vote-token.ts';
import { insertAnswer } from '../../worker/src/store/battle.repo.ts';
import type { TestDuet } from '../helpers/duet.ts';
import { startTestDuet } from '../helpers/duet.ts';
import { rawGet } from '../helpers/raw-get.ts';

const [ATLAS, SONNET] = DEMO_ROSTER as [(typeof DEMO_ROSTER)[number], (typeof DEMO_ROSTER)[number]];

interface StoredSide {
  text?: string;
  finishReason?: 'stop' | 'length' | 'content_filter' | 'cancelled' | 'error';
  /** The stored flag; undefined leaves it unknown (NULL), as for answers stored before it existed. */
  namesModel?: boolean;
}

/**
 * A vote reads its battle's facts where it is stored (`vote_on_battle()`): whether it counts is
 * decided there, by the flag each answer was stored with, and a refused vote writes nothing.
 * Battles are written straight to PostgreSQL; every vote goes through HTTP.
 */
describe('a vote in one round trip', () => {
  let duet: TestDuet;

  beforeAll(async () => {
    duet = await startTestDuet({ noWorker: true });
  });
  afterAll(async () => {
    await duet?.close();
  });

  async function battle(opts: { mode?: 'blind' | 'named'; sides?: StoredSide[] } = {}) {
    const id = randomUUID();
    const voteToken = newVoteToken();
    await duet.db.pool.query(
      `INSERT INTO battles (id, tool, lang, text, model_a, label_a, family_a, model_b, label_b, family_b, mode, vote_token_hash, status, moderation)
       VALUES ($1, 'poem', 'en', 'A poem about rain', $2, $3, $4, $5, $6, $7, $8, $9, 'finished', 'ok')`,
      [id, ATLAS.id, ATLAS.label, ATLAS.family, SONNET.id, SONNET.label, SONNET.family, opts.mode ?? 'blind', hashVoteToken(voteToken)],
    );
    const sides = opts.sides ?? [{ namesModel: false }, { namesModel: false }];
    for (const [i, s] of sides.entries()) {
      await duet.db.pool.query(
        `INSERT INTO answers (battle_id, side, model, text, finish_reason, input_tokens, output_tokens, ttft_ms, duration_ms, names_model)
         VALUES ($1, $2, $3, $4, $5, 12, 80, $6, $7, $8)`,
        [id, i === 0 ? 'a' : 'b', i === 0 ? ATLAS.id : SONNET.id, s.text ?? 'Rain on the roof.', s.finishReason ?? 'stop', 300 + i, 4000 + i, s.namesModel ?? null],
      );
    }
    return { id, voteToken };
  }

  const vote = async (b: { id: string; voteToken: string }, winner: Winner = 'a') => {
    const res = await fetch(`${duet.url}/api/battles/${b.id}/vote`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ winner, voteToken: b.voteToken }),
    });
    return { status: res.status, body: (await res.json()) as VoteResponse & ErrorResponse };
  };

  const storedVote = async (id: string) =>
    (await duet.db.pool.query<{ counted: boolean; uncounted_reason: string | null }>('SELECT counted, uncounted_reason FROM votes WHERE battle_id = $1', [id])).rows[0];

  const flags = async (id: string) =>
    (await duet.db.pool.query<{ names_model: boolean | null }>('SELECT names_model FROM answers WHERE battle_id = $1 ORDER BY side', [id])).rows.map((r) => r.names_model);

  const totals = async () => (await duet.db.pool.query<{ n: string }>("SELECT coalesce(sum(battles), 0) AS n FROM model_totals WHERE tool = 'poem'")).rows[0]!.n;

  it('stores the vote and answers with the revealed sides, their figures and the win rates after it', async () => {
    const b = await battle();
    const { status, body } = await vote(b, 'b');
    expect(status).toBe(200);
    expect(ZVoteResponseSchema.parse(body)).toEqual(body);
    expect(body.winner).toBe('b');
    expect(body.sides.a).toEqual({
      model: ATLAS.id,
      label: ATLAS.label,
      family: ATLAS.family,
      stats: { finishReason: 'stop', inputTokens: 12, outputTokens: 80, ttftMs: 300, durationMs: 4000 },
    });
    expect(body.sides.b).toEqual({
      model: SONNET.id,
      label: SONNET.label,
      family: SONNET.family,
      stats: { finishReason: 'stop', inputTokens: 12, outputTokens: 80, ttftMs: 301, durationMs: 4001 },
    });
    expect(await storedVote(b.id)).toEqual({ counted: true, uncounted_reason: null });
    const sonnet = body.winRates.find((w) => w.model === SONNET.id)!;
    const atlas = body.winRates.find((w) => w.model === ATLAS.id)!;
    expect([sonnet.wins, sonnet.losses, atlas.wins, atlas.losses]).toEqual([1, 0, 0, 1]);
  });

  it('answers a vote (mounted ahead of the other API routes) with the headers every answer has, sent as it is; GETs stay compressed', async () => {
    const b = await battle();
    const res = await fetch(`${duet.url}/api/battles/${b.id}/vote`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-encoding': 'br, gzip', 'x-request-id': 'vote-headers-1' },
      body: JSON.stringify({ winner: 'a', voteToken: b.voteToken }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('vote-headers-1');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(await res.text()));
    // A malformed body is still refused as on every other route, and a GET of the API compressed.
    const bad = await fetch(`${duet.url}/api/battles/${b.id}/vote`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"winner":' });
    expect(bad.status).toBe(400);
    const tools = await rawGet(`${duet.url}/api/tools`, { 'accept-encoding': 'br' });
    expect(tools.status).toBe(200);
    expect(tools.body.length).toBeGreaterThan(0);
    expect(tools.headers['content-encoding']).toBe('br');
  });

  it('goes by the flag each answer was stored with, not by reading the answers again', async () => {
    const flaggedClean = await battle({ sides: [{ text: 'Rain on the roof.', namesModel: true }, { namesModel: false }] });
    expect((await vote(flaggedClean)).status).toBe(200);
    expect(await storedVote(flaggedClean.id)).toEqual({ counted: false, uncounted_reason: 'model_named' });

    const keptAsStored = await battle({ sides: [{ text: 'As Claude, I love rain.', namesModel: false }, { namesModel: false }] });
    expect((await vote(keptAsStored)).status).toBe(200);
    expect(await storedVote(keptAsStored.id)).toEqual({ counted: true, uncounted_reason: null });
  });

  it('decides the flag of answers stored without it at the first vote, writes it back and counts by it', async () => {
    const named = await battle({ sides: [{ text: 'Rain on the roof.' }, { text: 'I am Claude, and here is rain.' }] });
    expect(await flags(named.id)).toEqual([null, null]);
    expect((await vote(named)).status).toBe(200);
    expect(await flags(named.id)).toEqual([false, true]);
    expect(await storedVote(named.id)).toEqual({ counted: false, uncounted_reason: 'model_named' });

    const clean = await battle({ sides: [{ text: 'A sonnet of rain.' }, { text: 'The pyramids of Egypt in the rain.', namesModel: false }] });
    expect((await vote(clean)).status).toBe(200);
    expect(await flags(clean.id)).toEqual([false, false]);
    expect(await storedVote(clean.id)).toEqual({ counted: true, uncounted_reason: null });
  });

  it('stores one vote when the first votes on a battle stored without the flags arrive at once', async () => {
    const b = await battle({ sides: [{ text: 'Rain on the roof.' }, { text: 'Gemini here: rain.' }] });
    const results = await Promise.all((['a', 'b', 'tie', 'both_bad', 'a', 'b', 'tie', 'both_bad'] as const).map((w) => vote(b, w)));
    expect(results.map((r) => r.status).sort()).toEqual([200, ...Array<number>(7).fill(409)]);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.error.code).toBe('already_voted');
    expect(await flags(b.id)).toEqual([false, true]);
    expect(await storedVote(b.id)).toEqual({ counted: false, uncounted_reason: 'model_named' });
  });

  it('gives the first rule a vote breaks as its reason', async () => {
    const cases: Array<[Parameters<typeof battle>[0], { counted: boolean; uncounted_reason: string | null }]> = [
      [{ mode: 'named', sides: [{ finishReason: 'error', namesModel: true }, { namesModel: false }] }, { counted: false, uncounted_reason: 'named_mode' }],
      [{ sides: [{ finishReason: 'error', namesModel: true }, { namesModel: false }] }, { counted: false, uncounted_reason: 'side_failed' }],
      [{ sides: [{ namesModel: false }, { finishReason: 'cancelled', namesModel: false }] }, { counted: false, uncounted_reason: 'side_failed' }],
      [{ sides: [{ namesModel: false }, { finishReason: 'content_filter', namesModel: false }] }, { counted: false, uncounted_reason: 'side_failed' }],
      [{ sides: [{ finishReason: 'length', namesModel: false }, { namesModel: false }] }, { counted: true, uncounted_reason: null }],
    ];
    for (const [opts, expected] of cases) {
      const b = await battle(opts);
      expect((await vote(b)).status).toBe(200);
      expect(await storedVote(b.id)).toEqual(expected);
    }
  });

  it('refuses with the right error and writes nothing: no battle, a wrong token, one answer, a second vote', async () => {
    const before = await totals();
    const unknown = await vote({ id: randomUUID(), voteToken: newVoteToken() });
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'not_found']);

    const unflagged = await battle({ sides: [{ text: 'As Claude, rain.' }, { text: 'Rain.' }] });
    const wrong = await vote({ id: unflagged.id, voteToken: newVoteToken() });
    expect([wrong.status, wrong.body.error.code]).toEqual([403, 'invalid_vote_token']);
    expect(await storedVote(unflagged.id)).toBeUndefined();
    expect(await flags(unflagged.id)).toEqual([null, null]);

    const half = await battle({ sides: [{ text: 'Rain.' }] });
    const early = await vote(half);
    expect([early.status, early.body.error.code]).toEqual([409, 'battle_not_finished']);
    expect(await storedVote(half.id)).toBeUndefined();
    expect(await flags(half.id)).toEqual([null]);
    expect(await totals()).toBe(before);

    const b = await battle();
    expect((await vote(b, 'a')).status).toBe(200);
    const again = await vote(b, 'b');
    expect([again.status, again.body.error.code]).toEqual([409, 'already_voted']);
    const { rows } = await duet.db.pool.query<{ winner: string }>('SELECT winner FROM votes WHERE battle_id = $1', [b.id]);
    expect(rows.map((r) => r.winner)).toEqual(['a']);
  });

  it('has the worker store whether each answer names a model', async () => {
    const b = await battle({ sides: [] });
    const stats = { finishReason: 'stop' as const, inputTokens: 1, outputTokens: 2, ttftMs: 3, durationMs: 4 };
    await insertAnswer(duet.db.pool, { battleId: b.id, side: 'a', model: ATLAS.id, text: '저는 클로드입니다', stats, error: null });
    await insertAnswer(duet.db.pool, { battleId: b.id, side: 'b', model: SONNET.id, text: 'Here is a sonnet, then a haiku.', stats, error: null });
    expect(await flags(b.id)).toEqual([true, false]);
    expect((await vote(b)).status).toBe(200);
    expect(await storedVote(b.id)).toEqual({ counted: false, uncounted_reason: 'model_named' });
  });
});
