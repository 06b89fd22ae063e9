// Over 300 lines on purpose: the whole life of a battle on the fake providers, sharing one Duet.
import type { CreateBattleResponse, ErrorResponse, VoteResponse, WinRate } from '@duet/contracts';
import { redisKeys } from '@duet/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { postBattleWithImage, postJson, storedImage, TINY_PNG } from '../helpers/api.ts';
import { BattleViewer, connectSocket } from '../helpers/battle-viewer.ts';
import type { DuetSocket } from '../helpers/battle-viewer.ts';
import type { TestDuet } from '../helpers/duet.ts';
import { startTestDuet } from '../helpers/duet.ts';
import { fakeRosterEnv, startFakeLlmServer } from '../fakes/fake-llm-server.ts';
import type { FakeLlmServer } from '../fakes/fake-llm-server.ts';
import { waitFor } from '../helpers/wait.ts';

const GPT = 'gpt-fake';
const CLAUDE = 'claude-fake';

const ASK = { tool: 'anything-question', text: 'Why is the sky blue?', lang: 'en' };

describe('a battle on the fake providers', () => {
  let fake: FakeLlmServer;
  let duet: TestDuet;
  const sockets: DuetSocket[] = [];

  beforeAll(async () => {
    fake = await startFakeLlmServer();
    duet = await startTestDuet({ env: { ...fakeRosterEnv(fake, { gpt: GPT, claude: CLAUDE }), PROVIDER_IDLE_TIMEOUT_MS: '1500' } });
  });
  afterAll(async () => {
    await duet?.close();
    await fake?.close();
  });
  afterEach(() => {
    fake.reset();
    for (const s of sockets.splice(0)) s.disconnect();
  });

  const socket = async () => {
    const s = await connectSocket(duet.url);
    sockets.push(s);
    return s;
  };

  const create = async (body: object = ASK) => {
    const res = await postJson<CreateBattleResponse>(`${duet.url}/api/battles`, body);
    expect(res.status).toBe(202);
    return res.body;
  };

  /** Joins battle `battleId` as a new viewer and follows it to its end. */
  const watchToEnd = async (battleId: string) => {
    const viewer = new BattleViewer(await socket(), battleId);
    await viewer.join();
    return { viewer, final: await viewer.finished() };
  };

  /** Which model ended up on which side (random per battle). */
  const sidesOf = async (battleId: string) => {
    const { rows } = await duet.db.pool.query<{ model_a: string; model_b: string }>(
      'SELECT model_a, model_b FROM battles WHERE id = $1',
      [battleId],
    );
    return rows[0]!;
  };

  it('streams both answers over Socket.IO, stores them with their stats, and ends at progress 100', async () => {
    fake.scenario(GPT, { text: 'Rayleigh scattering makes short blue wavelengths scatter the most.', tokensPerSecond: 200 });
    fake.scenario(CLAUDE, { text: 'Sunlight scatters off air molecules, and blue light scatters most strongly.', tokensPerSecond: 200 });
    const created = await create();
    expect(created.sides).toEqual({ a: { label: 'Model A' }, b: { label: 'Model B' } });
    expect(created.voteToken.length).toBeGreaterThanOrEqual(43);

    const { viewer, final } = await watchToEnd(created.battleId);

    const models = await sidesOf(created.battleId);
    const expected = (model: string) =>
      model === 'fake:gpt'
        ? 'Rayleigh scattering makes short blue wavelengths scatter the most.'
        : 'Sunlight scatters off air molecules, and blue light scatters most strongly.';
    expect(final.sides.a.text).toBe(expected(models.model_a));
    expect(final.sides.b.text).toBe(expected(models.model_b));
    for (const side of ['a', 'b'] as const) {
      expect(final.sides[side].state).toBe('done');
      expect(final.sides[side].progress).toBe(100);
      // A blind battle shows only how each side ended until the vote; the figures are stored.
      expect(final.sides[side].stats).toEqual({ finishReason: 'stop' });
    }
    // Progress rode on the deltas, climbing on each side; the end brought each side to 100.
    for (const side of ['a', 'b'] as const) {
      const progress = viewer.events.flatMap((e) => (e.type === 'delta' && e.side === side && e.progress !== undefined ? [e.progress] : []));
      expect(progress.length).toBeGreaterThan(0);
      expect(progress).toEqual([...progress].sort((x, y) => x - y));
    }

    const { rows } = await duet.db.pool.query(
      'SELECT side, model, text, finish_reason, output_tokens, ttft_ms, duration_ms FROM answers WHERE battle_id = $1 ORDER BY side',
      [created.battleId],
    );
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ side: 'a', model: models.model_a, text: expected(models.model_a), finish_reason: 'stop' });
    expect(rows[1]).toMatchObject({ side: 'b', model: models.model_b, text: expected(models.model_b), finish_reason: 'stop' });
    expect(rows[0].duration_ms).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.output_tokens).toBeGreaterThan(0);
      expect(row.ttft_ms).not.toBeNull();
    }
    const { rows: status } = await duet.db.pool.query('SELECT status FROM battles WHERE id = $1', [created.battleId]);
    expect(status[0].status).toBe('finished');
  });

  it('passes the uploaded image and the tool’s prompt to both models', async () => {
    fake.setDefault({ text: 'It is a quadratic.', tokensPerSecond: 0 });
    const res = await postBattleWithImage(duet.url, { tool: 'math-solve', lang: 'ko', text: '2번 문제' }, { data: TINY_PNG, filename: 'q.png', type: 'image/png' });
    expect(res.status).toBe(202);
    await watchToEnd(res.body.battleId);
    const b64 = (await storedImage(duet.db.pool, res.body.battleId)).toString('base64');
    const gpt = fake.requests.find((r) => r.model === GPT)!;
    const claude = fake.requests.find((r) => r.model === CLAUDE)!;
    expect(JSON.stringify(gpt.body)).toContain(`data:image/png;base64,${b64}`);
    expect(JSON.stringify(claude.body)).toContain(b64);
    // The Korean math prompt, with the visitor's own words, went to both.
    for (const r of [gpt, claude]) {
      expect(JSON.stringify(r.body)).toContain('수학');
      expect(JSON.stringify(r.body)).toContain('2번 문제');
    }
  });

  it('coalesces token deltas into fewer messages than tokens', async () => {
    const words = Array.from({ length: 120 }, (_, i) => `w${i}`).join(' ');
    fake.setDefault({ text: words, tokensPerSecond: 2000 });
    const created = await create();
    const { viewer, final } = await watchToEnd(created.battleId);
    expect(final.sides.a.text).toBe(words);
    const deltas = viewer.events.filter((e) => e.type === 'delta' && e.side === 'a').length;
    expect(deltas).toBeGreaterThan(0);
    expect(deltas).toBeLessThan(120);
  });

  it("sends both sides' text in one message while both models stream, and a side being saved without its figures", async () => {
    const words = Array.from({ length: 60 }, (_, i) => `w${i}`).join(' ');
    fake.setDefault({ text: words, tokensPerSecond: 100 });
    const created = await create();
    const { viewer, final } = await watchToEnd(created.battleId);
    expect(final.sides.a.text).toBe(words);
    expect(final.sides.b.text).toBe(words);
    const sidesOf = (message: (typeof viewer.messages)[number]) => new Set(message.flatMap((e) => (e.type === 'delta' ? [e.side] : [])));
    const withText = viewer.messages.filter((m) => sidesOf(m).size > 0);
    expect(withText.filter((m) => sidesOf(m).size === 2).length).toBeGreaterThan(withText.length / 2);
    const deltas = viewer.events.filter((e) => e.type === 'delta').length;
    expect(withText.length).toBeLessThan(deltas);
    const saving = viewer.events.filter((e) => e.type === 'saving');
    expect(saving.length).toBeGreaterThan(0);
    for (const e of saving) expect(Object.keys(e).sort()).toEqual(['battleId', 'side', 'type']);
  });

  it('gives a late joiner the full text, and a mid-stream joiner the same text without gaps or repeats', async () => {
    const text = Array.from({ length: 60 }, (_, i) => `token${i}`).join(' ');
    fake.setDefault({ text, tokensPerSecond: 150 });
    const created = await create();
    const early = new BattleViewer(await socket(), created.battleId);
    await early.join();
    // Join a second viewer once some text has streamed.
    await waitFor(() => (early.snapshot?.sides.a.text.length ?? 0) > 40, { what: 'some text' });
    const middle = new BattleViewer(await socket(), created.battleId);
    const midSnap = await middle.join();
    expect(midSnap.sides.a.text.length).toBeGreaterThan(0);
    const [a, b] = [await early.finished(), await middle.finished()];
    expect(b.sides.a.text).toBe(text);
    expect(b.sides.b.text).toBe(text);
    expect(a.sides.a.text).toBe(text);

    const late = new BattleViewer(await socket(), created.battleId);
    const snap = await late.join();
    expect(snap.finished).toBe(true);
    expect(snap.sides.a.text).toBe(text);
    expect(snap.sides.b.text).toBe(text);
    expect(snap.sides.a.stats?.finishReason).toBe('stop');
    // Overlap between snapshot and live events was absorbed, never mistaken for a gap.
    expect(early.gaps + middle.gaps).toBe(0);
  });

  it('rebuilds the snapshot from PostgreSQL once the live stream has expired', async () => {
    fake.setDefault({ text: 'Stored answer survives.', tokensPerSecond: 500 });
    const created = await create();
    await watchToEnd(created.battleId);
    await duet.redis.del(`${duet.prefix}:battle:${created.battleId}:events`);
    const snap = await new BattleViewer(await socket(), created.battleId).join();
    expect(snap.finished).toBe(true);
    expect(snap.sides.a.text).toBe('Stored answer survives.');
    expect(snap.sides.b.stats?.finishReason).toBe('stop');
  });

  it('stops both models on battle:cancel from the vote token holder, keeping partial text', async () => {
    fake.setDefault({ text: Array.from({ length: 400 }, (_, i) => `slow${i}`).join(' '), tokensPerSecond: 20 });
    const created = await create();
    const s = await socket();
    const viewer = new BattleViewer(s, created.battleId);
    await viewer.join();
    await viewer.streaming();

    const forged = await s.emitWithAck('battle:cancel', { battleId: created.battleId, voteToken: 'x'.repeat(43) });
    expect(forged).toMatchObject({ ok: false, error: { code: 'invalid_vote_token' } });

    const res = await s.emitWithAck('battle:cancel', { battleId: created.battleId, voteToken: created.voteToken });
    expect(res.ok).toBe(true);
    const final = await viewer.finished(5_000);
    for (const side of ['a', 'b'] as const) {
      expect(final.sides[side].stats?.finishReason).toBe('cancelled');
      expect(final.sides[side].text.length).toBeGreaterThan(0);
    }
    const { rows } = await duet.db.pool.query('SELECT finish_reason, length(text) AS n FROM answers WHERE battle_id = $1', [
      created.battleId,
    ]);
    expect(rows.map((r) => r.finish_reason)).toEqual(['cancelled', 'cancelled']);
    expect(rows.every((r) => r.n > 0 && r.n < 400 * 6)).toBe(true);
  });

  it('stops a battle whose cancel message the worker missed, from the cancel flag set with it', async () => {
    fake.setDefault({ text: Array.from({ length: 400 }, (_, i) => `slow${i}`).join(' '), tokensPerSecond: 20 });
    const created = await create();
    const viewer = new BattleViewer(await socket(), created.battleId);
    await viewer.join();
    await viewer.streaming();

    // What a cancel leaves when its published message is lost (the worker's subscriber away): the flag alone.
    await duet.redis.set(redisKeys(duet.prefix).battleCancelled(created.battleId), '1', 'EX', 60);

    const final = await viewer.finished(15_000);
    expect([final.sides.a.stats?.finishReason, final.sides.b.stats?.finishReason]).toEqual(['cancelled', 'cancelled']);
  });

  it('lets one side fail while the other finishes', async () => {
    fake.scenario(GPT, { failStatus: 400, failTimes: 100 });
    fake.scenario(CLAUDE, { text: 'I still answer.', tokensPerSecond: 500 });
    const created = await create();
    const { final } = await watchToEnd(created.battleId);
    const models = await sidesOf(created.battleId);
    const gptSide = models.model_a === 'fake:gpt' ? 'a' : 'b';
    const claudeSide = gptSide === 'a' ? 'b' : 'a';
    expect(final.sides[gptSide].state).toBe('error');
    expect(final.sides[gptSide].error?.code).toBe('bad_request');
    expect(final.sides[claudeSide].state).toBe('done');
    expect(final.sides[claudeSide].text).toBe('I still answer.');
    const { rows } = await duet.db.pool.query('SELECT side, finish_reason, error_code FROM answers WHERE battle_id = $1', [
      created.battleId,
    ]);
    expect(rows.find((r) => r.side === gptSide)).toMatchObject({ finish_reason: 'error', error_code: 'bad_request' });
    expect(rows.find((r) => r.side === claudeSide)).toMatchObject({ finish_reason: 'stop', error_code: null });
  });

  it('retries a rate-limited request before the first token and never duplicates text', async () => {
    fake.scenario(GPT, { failStatus: 429, failTimes: 2, text: 'Exactly once, please.', tokensPerSecond: 500 });
    fake.scenario(CLAUDE, { failStatus: 500, failTimes: 1, text: 'Once and only once.', tokensPerSecond: 500 });
    const created = await create();
    const { viewer, final } = await watchToEnd(created.battleId);
    const models = await sidesOf(created.battleId);
    const want = (m: string) => (m === 'fake:gpt' ? 'Exactly once, please.' : 'Once and only once.');
    expect(final.sides.a.text).toBe(want(models.model_a));
    expect(final.sides.b.text).toBe(want(models.model_b));
    // The raw delta stream, concatenated, is the answer exactly once.
    for (const side of ['a', 'b'] as const) {
      const streamed = viewer.events.filter((e) => e.type === 'delta' && e.side === side).map((e) => (e.type === 'delta' ? e.text : ''));
      expect(streamed.join('')).toBe(want(side === 'a' ? models.model_a : models.model_b));
    }
    expect(fake.requests.filter((r) => r.model === GPT)).toHaveLength(3);
    expect(fake.requests.filter((r) => r.model === CLAUDE)).toHaveLength(2);
  });

  it('does not retry a stream cut off after text was shown: the side fails with its partial text', async () => {
    fake.scenario(GPT, { text: 'one two three four five six seven eight', cutAfterTokens: 3, tokensPerSecond: 500 });
    fake.scenario(CLAUDE, { text: 'fine', tokensPerSecond: 500 });
    const created = await create();
    const { final } = await watchToEnd(created.battleId);
    const models = await sidesOf(created.battleId);
    const gptSide = models.model_a === 'fake:gpt' ? 'a' : 'b';
    expect(final.sides[gptSide].state).toBe('error');
    expect(final.sides[gptSide].error?.code).toBe('stream_cut');
    expect('one two three four five six seven eight'.startsWith(final.sides[gptSide].text)).toBe(true);
    expect(final.sides[gptSide].text.length).toBeGreaterThan(0);
    expect(fake.requests.filter((r) => r.model === GPT)).toHaveLength(1);
  });

  it('gives up on a model that hangs, after the idle time-out and its retries', async () => {
    fake.scenario(GPT, { hang: true });
    fake.scenario(CLAUDE, { text: 'prompt answer', tokensPerSecond: 500 });
    const created = await create();
    const viewer = new BattleViewer(await socket(), created.battleId);
    await viewer.join();
    const models = await sidesOf(created.battleId);
    const gptSide = models.model_a === 'fake:gpt' ? 'a' : 'b';
    const final = await viewer.finished(25_000);
    expect(final.sides[gptSide].error?.code).toBe('timeout');
  }, 40_000);

  it('stops a model that ignores the token cap, keeping what fits and ending the side at length', async () => {
    // 96 KB for a tool whose cap is 1,200 tokens: the provider ignores max_tokens.
    const flood = Array.from({ length: 16_000 }, (_, i) => `word${i % 100}`).join(' ');
    fake.setDefault({ text: flood, tokensPerSecond: 0 });
    const created = await create();
    const { final } = await watchToEnd(created.battleId);
    const { rows } = await duet.db.pool.query('SELECT side, length(text) AS chars, finish_reason FROM answers WHERE battle_id = $1', [created.battleId]);
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.finish_reason).toBe('length');
      // The cap is 1,200 tokens × 6 characters, far below the 96 KB sent.
      expect(row.chars).toBeLessThanOrEqual(1_200 * 6);
      expect(row.chars).toBeGreaterThan(1_200 * 5);
      expect(final.sides[row.side as 'a' | 'b'].text.length).toBe(row.chars);
    }
    await waitFor(() => fake.activeResponses === 0, { what: 'the capped streams to be closed' });
  });

  describe('votes', () => {
    const finishedBattle = async () => {
      fake.setDefault({ text: 'An answer.', tokensPerSecond: 1000 });
      const created = await create();
      const viewer = new BattleViewer(await socket(), created.battleId);
      await viewer.join();
      const ended = await viewer.finished();
      // Before the vote a blind battle shows no figure that could tell the providers apart.
      expect(ended.sides.a.stats).toEqual({ finishReason: 'stop' });
      expect(ended.sides.b.stats).toEqual({ finishReason: 'stop' });
      return created;
    };
    const vote = (id: string, body: object) => postJson<VoteResponse & ErrorResponse>(`${duet.url}/api/battles/${id}/vote`, body);

    it('refuses a missing or forged token with 403 and another battle’s token too', async () => {
      const one = await finishedBattle();
      const two = await finishedBattle();
      expect((await vote(one.battleId, { winner: 'a' })).status).toBe(400);
      const forged = await vote(one.battleId, { winner: 'a', voteToken: 'forged-token' });
      expect(forged.status).toBe(403);
      expect(forged.body.error.code).toBe('invalid_vote_token');
      expect((await vote(one.battleId, { winner: 'a', voteToken: two.voteToken })).status).toBe(403);
      const { rows } = await duet.db.pool.query('SELECT count(*)::int AS n FROM votes');
      expect(rows[0].n).toBe(0);
    });

    it('refuses a vote before both sides ended with 409', async () => {
      fake.setDefault({ text: Array.from({ length: 300 }, () => 'x').join(' '), tokensPerSecond: 30 });
      const created = await create();
      const res = await vote(created.battleId, { winner: 'a', voteToken: created.voteToken });
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('battle_not_finished');
      await postJson(`${duet.url}/api/battles/${created.battleId}/cancel`, { voteToken: created.voteToken });
    });

    it('reveals both models, bumps counters once, tells watchers, and refuses a second vote', async () => {
      const created = await finishedBattle();
      const watcher = await socket();
      const watching = await watcher.emitWithAck('tool:watch', { tool: 'anything-question-duet' });
      expect(watching).toEqual({ ok: true, data: { watching: 'anything-question' } });
      const updates: Array<{ tool: string; winRates: WinRate[] }> = [];
      watcher.on('stats:update', (u) => updates.push(u));

      const before = await duet.db.pool.query('SELECT model, battles, wins, losses FROM model_totals ORDER BY model');
      const res = await vote(created.battleId, { winner: 'a', voteToken: created.voteToken });
      expect(res.status).toBe(200);
      const models = await sidesOf(created.battleId);
      expect(res.body.sides.a.model).toBe(models.model_a);
      expect(res.body.sides.b.model).toBe(models.model_b);
      expect(res.body.sides.a.label).toMatch(/^Fake /);
      // The figures a blind battle kept back are revealed with the models, and stay in later snapshots.
      for (const side of ['a', 'b'] as const) {
        expect(res.body.sides[side].stats).toMatchObject({ finishReason: 'stop', outputTokens: expect.any(Number), ttftMs: expect.any(Number) });
      }
      const rejoined = await new BattleViewer(await socket(), created.battleId).join();
      expect(rejoined.voted).toBe(true);
      expect(rejoined.sides.a.stats).toEqual(res.body.sides.a.stats);
      expect(rejoined.sides.b.stats).toEqual(res.body.sides.b.stats);

      const after = await duet.db.pool.query<{ model: string; battles: number; wins: number; losses: number }>(
        'SELECT model, battles, wins, losses FROM model_totals ORDER BY model',
      );
      const was = (m: string) => before.rows.find((r) => r.model === m) ?? { battles: 0, wins: 0, losses: 0 };
      const now = (m: string) => after.rows.find((r) => r.model === m)!;
      expect(now(models.model_a).wins).toBe(was(models.model_a).wins + 1);
      expect(now(models.model_a).battles).toBe(was(models.model_a).battles + 1);
      expect(now(models.model_b).losses).toBe(was(models.model_b).losses + 1);

      const update = await waitFor(() => updates[0], { what: 'stats:update' });
      expect(update.tool).toBe('anything-question');
      expect(update.winRates.find((w) => w.model === models.model_a)?.wins).toBe(now(models.model_a).wins);

      const again = await vote(created.battleId, { winner: 'b', voteToken: created.voteToken });
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe('already_voted');
      const final = await duet.db.pool.query('SELECT model, battles FROM model_totals ORDER BY model');
      expect(final.rows).toEqual(after.rows.map((r) => ({ model: r.model, battles: r.battles })));
    });

    it('lets only one of two simultaneous votes through', async () => {
      const created = await finishedBattle();
      const results = await Promise.all(
        (['a', 'b', 'tie', 'both_bad'] as const).map((winner) => vote(created.battleId, { winner, voteToken: created.voteToken })),
      );
      expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
      const { rows } = await duet.db.pool.query('SELECT count(*)::int AS n FROM votes WHERE battle_id = $1', [created.battleId]);
      expect(rows[0].n).toBe(1);
    });
  });
});
