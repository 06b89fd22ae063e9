import type { CreateBattleResponse, HistoryResponse, Leaderboard, Meta, VoteResponse } from '@duet/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getJson, postJson } from '../helpers/api.ts';
import { BattleViewer, connectSocket } from '../helpers/battle-viewer.ts';
import type { DuetSocket } from '../helpers/battle-viewer.ts';
import type { TestDuet } from '../helpers/duet.ts';
import { startTestDuet } from '../helpers/duet.ts';
import { waitFor } from '../helpers/wait.ts';
import { startFakeLlmServer } from '../fakes/fake-llm-server.ts';
import type { FakeLlmServer } from '../fakes/fake-llm-server.ts';

/** Three models with names that must never reach a browser before the vote. */
const roster = (fake: FakeLlmServer) => [
  { id: 'zephyr-secret-1', label: 'Zephyr Secret One', provider: 'openai', model: 'zephyr-m1', family: 'gpt', baseURL: fake.openaiBaseURL },
  { id: 'quill-secret-2', label: 'Quill Secret Two', provider: 'anthropic', model: 'quill-m2', family: 'claude', baseURL: fake.anthropicBaseURL },
  { id: 'nimbus-secret-3', label: 'Nimbus Secret Three', provider: 'openai', model: 'nimbus-m3', family: 'other', baseURL: fake.openaiBaseURL, weight: 2 },
];
const SECRETS = ['zephyr', 'quill', 'nimbus', 'secret', 'openai', 'anthropic'];

describe('fair evaluation', () => {
  let fake: FakeLlmServer;
  let duet: TestDuet;
  const sockets: DuetSocket[] = [];

  const start = async (env: Record<string, string> = {}) =>
    startTestDuet({
      env: {
        DUET_MODELS: JSON.stringify(roster(fake)),
        OPENAI_API_KEY: fake.apiKey,
        ANTHROPIC_API_KEY: fake.apiKey,
        LEADERBOARD_INTERVAL_MS: '300',
        EXPORT_ENABLED: 'true',
        ...env,
      },
    });

  beforeAll(async () => {
    fake = await startFakeLlmServer();
    fake.setDefault({ text: 'A plain, helpful answer about tides.', tokensPerSecond: 0 });
    duet = await start({ VOTE_DAILY_CAP: '0' });
  });
  afterAll(async () => {
    await duet?.close();
    await fake?.close();
  });
  afterEach(() => {
    for (const s of sockets.splice(0)) s.disconnect();
    fake.reset();
    fake.setDefault({ text: 'A plain, helpful answer about tides.', tokensPerSecond: 0 });
  });

  /** Runs a battle to the end, returning everything the browser saw. */
  const battle = async (on: TestDuet, text = 'Why are there tides?') => {
    const created = await postJson<CreateBattleResponse>(`${on.url}/api/battles`, { tool: 'anything-question', text, lang: 'en' });
    expect(created.status).toBe(202);
    const socket = await connectSocket(on.url);
    sockets.push(socket);
    const viewer = new BattleViewer(socket, created.body.battleId);
    const snapshot = structuredClone(await viewer.join());
    await viewer.finished();
    return { created, viewer, snapshot };
  };
  const vote = (on: TestDuet, b: CreateBattleResponse, winner = 'a') =>
    postJson<VoteResponse>(`${on.url}/api/battles/${b.battleId}/vote`, { winner, voteToken: b.voteToken });
  const voteRow = async (on: TestDuet, battleId: string) =>
    (await on.db.pool.query('SELECT counted, uncounted_reason FROM votes WHERE battle_id = $1', [battleId])).rows[0];

  it('names no model in anything the browser receives before the vote, then reveals them', async () => {
    const { created, viewer, snapshot } = await battle(duet);
    // The metadata lists the whole roster for a visitor to choose from, as the leaderboard does:
    // it says nothing of which model answers which side. The rest of it names none.
    const { models: roster, ...meta } = (await getJson<Meta>(`${duet.url}/api/meta`)).body;
    expect(roster.length).toBeGreaterThanOrEqual(2);
    const seen = JSON.stringify([
      created.body,
      snapshot,
      viewer.events,
      meta,
      (await getJson(`${duet.url}/api/tools`)).body,
      (await getJson(`${duet.url}/api/tools/anything-question/history`)).body,
      (await getJson(`${duet.url}/api/v2/user/duet/list/anything-question`)).body,
    ]).toLowerCase();
    for (const secret of SECRETS) expect(seen).not.toContain(secret);
    const { rows } = await duet.db.pool.query('SELECT model_a, model_b FROM battles WHERE id = $1', [created.body.battleId]);
    const revealed = await vote(duet, created.body);
    expect(revealed.body.sides.a.model).toBe(rows[0].model_a);
    expect(revealed.body.sides.b.model).toBe(rows[0].model_b);
    expect(revealed.body.sides.a.label).toMatch(/Secret/);
  });

  it('samples pairs from the whole roster, by weight, with sides at random', async () => {
    const counts = new Map<string, number>();
    const sideA = new Map<string, number>();
    for (let i = 0; i < 60; i++) {
      const res = await postJson<CreateBattleResponse>(`${duet.url}/api/battles`, { tool: 'quiz-solving', text: `Q${i}` });
      const { rows } = await duet.db.pool.query('SELECT model_a, model_b FROM battles WHERE id = $1', [res.body.battleId]);
      for (const m of [rows[0].model_a, rows[0].model_b]) counts.set(m, (counts.get(m) ?? 0) + 1);
      sideA.set(rows[0].model_a, (sideA.get(rows[0].model_a) ?? 0) + 1);
    }
    expect([...counts.keys()].sort()).toEqual(['nimbus-secret-3', 'quill-secret-2', 'zephyr-secret-1']);
    // Weight 2 against 1 and 1: nimbus is in most pairs.
    expect(counts.get('nimbus-secret-3')!).toBeGreaterThan(counts.get('zephyr-secret-1')!);
    expect(sideA.size).toBe(3);
  });

  it('counts a clean blind vote and bumps the win-rate counters', async () => {
    const { created } = await battle(duet);
    expect((await vote(duet, created.body)).status).toBe(200);
    expect(await voteRow(duet, created.body.battleId)).toEqual({ counted: true, uncounted_reason: null });
  });

  it('keeps but does not count a vote where an answer names a model or its maker', async () => {
    fake.scenario('quill-m2', { text: 'As Claude, made by Anthropic, I would say the moon.', tokensPerSecond: 0 });
    fake.scenario('zephyr-m1', { text: 'I am ChatGPT and I say the moon.', tokensPerSecond: 0 });
    fake.scenario('nimbus-m3', { text: '저는 클로드입니다. 달 때문이에요.', tokensPerSecond: 0 });
    const before = await duet.db.pool.query('SELECT sum(battles)::int AS n FROM model_stats');
    const { created } = await battle(duet);
    expect((await vote(duet, created.body)).status).toBe(200);
    expect(await voteRow(duet, created.body.battleId)).toEqual({ counted: false, uncounted_reason: 'model_named' });
    const after = await duet.db.pool.query('SELECT sum(battles)::int AS n FROM model_stats');
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });

  it('keeps but does not count a vote where a side failed', async () => {
    fake.scenario('zephyr-m1', { failStatus: 400, failTimes: 100 });
    fake.scenario('nimbus-m3', { failStatus: 400, failTimes: 100 });
    const { created } = await battle(duet);
    expect((await vote(duet, created.body)).status).toBe(200);
    expect(await voteRow(duet, created.body.battleId)).toEqual({ counted: false, uncounted_reason: 'side_failed' });
  });

  it('computes the leaderboard from counted votes only, overall and per tool', async () => {
    await waitFor(
      async () => {
        const board = (await getJson<Leaderboard>(`${duet.url}/api/leaderboard`)).body;
        const { rows } = await duet.db.pool.query('SELECT count(*)::int AS n FROM votes WHERE counted');
        return board.votes === rows[0].n && board.votes > 0 ? board : undefined;
      },
      { what: 'the leaderboard job to catch up', timeoutMs: 10_000 },
    );
    const board = (await getJson<Leaderboard>(`${duet.url}/api/leaderboard`)).body;
    expect(board.tool).toBeNull();
    expect(board.updatedAt).not.toBeNull();
    for (const m of board.models) {
      expect(m.battles).toBeGreaterThan(0);
      expect(m.label).toMatch(/Secret/);
      // A handful of votes may leave a model with no interval (one vote, or one that always wins):
      // then it is provisional, with no rank; a ranked model's interval holds its rating.
      expect(m.provisional).toBe(m.rank === null);
      if (m.ciLow === null || m.ciHigh === null) expect(m.rank).toBeNull();
      else {
        expect(m.ciLow).toBeLessThanOrEqual(m.rating);
        expect(m.ciHigh).toBeGreaterThanOrEqual(m.rating);
      }
      if (m.rank !== null) expect(m.rank).toBeGreaterThanOrEqual(1);
    }
    const perTool = (await getJson<Leaderboard>(`${duet.url}/api/leaderboard?tool=anything-question-duet`)).body;
    expect(perTool.tool).toBe('anything-question');
    expect(perTool.votes).toBe(board.votes);
    const empty = (await getJson<Leaderboard>(`${duet.url}/api/leaderboard?tool=docent`)).body;
    expect(empty).toMatchObject({ tool: 'docent', models: [], votes: 0 });
    expect((await getJson(`${duet.url}/api/leaderboard?tool=horoscope`)).status).toBe(404);
  });

  it('shows each model’s win rate with its battle count and a Wilson interval', async () => {
    const history = (await getJson<HistoryResponse>(`${duet.url}/api/tools/anything-question/history`)).body;
    expect(history.winRates.length).toBeGreaterThan(0);
    for (const r of history.winRates) {
      expect(r.battles).toBeGreaterThan(0);
      expect(r.winRateLow).toBeLessThanOrEqual(r.winRate);
      expect(r.winRateHigh).toBeGreaterThanOrEqual(r.winRate);
      expect(r.winRateHigh - r.winRateLow).toBeGreaterThan(10);
    }
  });

  it('exports counted battles as JSON lines and CSV, with nothing personal', async () => {
    const jsonl = await fetch(`${duet.url}/api/export/votes.jsonl`);
    expect(jsonl.headers.get('content-type')).toContain('application/x-ndjson');
    const lines = (await jsonl.text()).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const { rows } = await duet.db.pool.query('SELECT battle_id FROM votes WHERE counted ORDER BY created_at, battle_id');
    expect(lines.map((l) => l.battle_id)).toEqual(rows.map((r) => r.battle_id));
    expect(Object.keys(lines[0]!).sort()).toEqual(
      ['answer_a', 'answer_b', 'asked_at', 'battle_id', 'finish_a', 'finish_b', 'follow_ups', 'inputs', 'lang', 'model_a', 'model_b', 'over_prompt_cap', 'prompt_rank', 'question', 'reasons', 'tool', 'voted_at', 'winner'].sort(),
    );
    expect(JSON.stringify(lines)).not.toMatch(/user_id|voter|127\.0\.0\.1/);
    const csv = await (await fetch(`${duet.url}/api/export/votes.csv`)).text();
    const csvLines = csv.replace(/^\uFEFF/, '').trim().split('\n');
    expect(csvLines[0]).toBe('battle_id,tool,lang,model_a,model_b,winner,reasons,question,inputs,answer_a,answer_b,finish_a,finish_b,asked_at,voted_at,follow_ups,prompt_rank,over_prompt_cap');
    expect(csvLines).toHaveLength(rows.length + 1);
  });

  describe('configured differently', () => {
    it('never counts votes of the named mode, whose labels name the models from the start', async () => {
      const named = await start({ BATTLE_MODE: 'named' });
      try {
        const { created } = await battle(named);
        expect(created.body.sides.a.label).toMatch(/Secret/);
        expect((await vote(named, created.body)).status).toBe(200);
        expect(await voteRow(named, created.body.battleId)).toEqual({ counted: false, uncounted_reason: 'named_mode' });
      } finally {
        await named.close();
      }
    });

    it('caps counted votes per voter per day, keeping the rest marked', async () => {
      const capped = await start({ VOTE_DAILY_CAP: '2' });
      try {
        const reasons = [];
        for (let i = 0; i < 3; i++) {
          const { created } = await battle(capped, `Question ${i}`);
          expect((await vote(capped, created.body)).status).toBe(200);
          reasons.push((await voteRow(capped, created.body.battleId)).uncounted_reason);
        }
        expect(reasons).toEqual([null, null, 'daily_cap']);
        const { rows } = await capped.db.pool.query('SELECT DISTINCT voter_key FROM votes');
        expect(rows).toHaveLength(1);
        // The key is a keyed hash, never the address itself.
        expect(rows[0].voter_key).not.toContain('127.0.0.1');
        expect(rows[0].voter_key).toMatch(/^ip:[0-9a-f]{32,}$/);
      } finally {
        await capped.close();
      }
    });
  });
});
