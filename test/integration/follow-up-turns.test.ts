import type { CreateBattleResponse, ErrorResponse, FollowUpResponse, HistoryResponse, SharedBattleResponse, VoteResponse } from '@duet/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FakeLlmServer } from '../fakes/fake-llm-server.ts';
import { fakeRosterEnv, startFakeLlmServer } from '../fakes/fake-llm-server.ts';
import { TINY_PNG } from '../helpers/api.ts';
import type { DuetSocket } from '../helpers/battle-viewer.ts';
import { BattleViewer, connectSocket } from '../helpers/battle-viewer.ts';
import type { TestDuet } from '../helpers/duet.ts';
import { startTestDuet } from '../helpers/duet.ts';
import { waitFor } from '../helpers/wait.ts';

const GPT = 'gpt-turns';
const CLAUDE = 'claude-turns';
const ASK = { tool: 'anything-question', text: 'Name a colour of the sea.', lang: 'en' };
const ADMIN_TOKEN = 'follow-up-turns-'.padEnd(40, 't');

interface Message {
  role: string;
  content: unknown;
}

/** The messages of a recorded chat request, as text: OpenAI's with the system prompt first, Anthropic's without. */
const messagesOf = (body: unknown): Array<{ role: string; text: string }> =>
  ((body as { messages: Message[] }).messages ?? []).map((m) => ({
    role: m.role,
    text: typeof m.content === 'string' ? m.content : (m.content as Array<{ type: string; text?: string }>).map((c) => c.text ?? `[${c.type}]`).join(' '),
  }));

/**
 * Follow-up turns: once both answers of the last turn have ended, the holder of the vote token asks
 * again, up to MAX_TURNS; each turn runs, streams and is stored like a battle under its own id, each
 * model given the whole conversation with its own earlier answers; one vote for the battle.
 */
describe('follow-up turns', () => {
  let fake: FakeLlmServer;
  let duet: TestDuet;
  const sockets: DuetSocket[] = [];

  beforeAll(async () => {
    fake = await startFakeLlmServer();
    duet = await startTestDuet({ env: { ...fakeRosterEnv(fake, { gpt: GPT, claude: CLAUDE }), MAX_TURNS: '3', EXPORT_ENABLED: 'true', ADMIN_TOKEN } });
  });
  afterAll(async () => {
    await duet?.close();
    await fake?.close();
  });
  afterEach(() => {
    for (const s of sockets.splice(0)) s.disconnect();
  });

  const post = async <T>(path: string, body: unknown) => {
    const res = await fetch(`${duet.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as T & ErrorResponse };
  };
  const create = async () => {
    const res = await post<CreateBattleResponse>('/api/battles', ASK);
    expect(res.status).toBe(202);
    return res.body;
  };
  const followUp = (battleId: string, text: string, voteToken: string) => post<FollowUpResponse>(`/api/battles/${battleId}/turns`, { text, voteToken });
  const finished = (battleId: string) =>
    waitFor(async () => (await duet.db.pool.query("SELECT 1 FROM battles WHERE id = $1 AND status = 'finished'", [battleId])).rowCount === 1, {
      what: `battle ${battleId} to finish`,
      timeoutMs: 20_000,
    });
  const watch = async (battleId: string) => {
    const socket = await connectSocket(duet.url);
    sockets.push(socket);
    const viewer = new BattleViewer(socket, battleId);
    return { snapshot: await viewer.join(), final: await viewer.finished(), events: viewer.events };
  };
  const rows = async (sql: string, values: unknown[]) => (await duet.db.pool.query(sql, values)).rows;

  it('runs three turns, each model given the conversation with its own answers, then takes one vote for all of them', async () => {
    fake.scenario(GPT, { text: 'Blue, says the first.', tokensPerSecond: 0 });
    fake.scenario(CLAUDE, { text: 'Green, says the second.', tokensPerSecond: 0 });
    const battle = await create();
    await finished(battle.battleId);

    fake.reset();
    fake.scenario(GPT, { text: 'Deep blue, like ink.', tokensPerSecond: 40 });
    fake.scenario(CLAUDE, { text: 'Teal in the shallows.', tokensPerSecond: 40 });
    const second = await followUp(battle.battleId, 'Which shade exactly?', battle.voteToken);
    expect(second.status).toBe(202);
    expect(second.body.battleId).toBe(battle.battleId);
    expect(second.body.turn.number).toBe(2);
    // The turn streams to a viewer of its own id, and ends like a battle.
    const watched = await watch(second.body.turn.battleId);
    expect(watched.snapshot.turn).toBe(2);
    // Each of its live events says which turn it is of.
    expect(watched.events.length).toBeGreaterThan(0);
    expect(new Set(watched.events.map((e) => e.turn))).toEqual(new Set([2]));
    expect([watched.final.sides.a.text, watched.final.sides.b.text].sort()).toEqual(['Deep blue, like ink.', 'Teal in the shallows.']);

    const toGpt = fake.requests.find((r) => r.model === GPT);
    const toClaude = fake.requests.find((r) => r.model === CLAUDE);
    expect(messagesOf(toGpt?.body).slice(1)).toEqual([
      { role: 'user', text: expect.stringContaining('Name a colour of the sea.') as unknown as string },
      { role: 'assistant', text: 'Blue, says the first.' },
      { role: 'user', text: 'Which shade exactly?' },
    ]);
    expect(messagesOf(toGpt?.body)[0]?.role).toBe('system');
    expect(messagesOf(toClaude?.body)).toEqual([
      { role: 'user', text: expect.stringContaining('Name a colour of the sea.') as unknown as string },
      { role: 'assistant', text: 'Green, says the second.' },
      { role: 'user', text: 'Which shade exactly?' },
    ]);

    // The first turn's snapshot lists the follow-ups: a reloaded page finds the whole conversation there.
    const first = await watch(battle.battleId);
    expect(first.snapshot.turn).toBe(1);
    expect(first.snapshot.followUps).toEqual([{ turn: 2, battleId: second.body.turn.battleId, text: 'Which shade exactly?', imageUrl: null }]);

    fake.reset();
    fake.scenario(GPT, { text: 'Black as slate.', tokensPerSecond: 20 });
    fake.scenario(CLAUDE, { text: 'Silver under the moon.', tokensPerSecond: 20 });
    const third = await followUp(battle.battleId, 'And at night?', battle.voteToken);
    expect(third.body.turn.number).toBe(3);
    // While it runs, neither another question nor the vote.
    expect((await followUp(battle.battleId, 'Too soon', battle.voteToken)).body.error.code).toBe('battle_not_finished');
    const early = await post<VoteResponse>(`/api/battles/${battle.battleId}/vote`, { winner: 'a', voteToken: battle.voteToken });
    expect([early.status, early.body.error?.code]).toEqual([409, 'battle_not_finished']);
    await finished(third.body.turn.battleId);
    const thirdToGpt = fake.requests.find((r) => r.model === GPT);
    expect(messagesOf(thirdToGpt?.body).slice(1).map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    expect(messagesOf(thirdToGpt?.body)[4]).toEqual({ role: 'assistant', text: 'Deep blue, like ink.' });

    // MAX_TURNS is 3: the limit, then the vote, for the whole battle; a follow-up's id takes no vote.
    const limit = await followUp(battle.battleId, 'One more?', battle.voteToken);
    expect([limit.status, limit.body.error.code]).toEqual([409, 'turn_limit']);
    const onTurn = await post<VoteResponse>(`/api/battles/${third.body.turn.battleId}/vote`, { winner: 'a', voteToken: battle.voteToken });
    expect(onTurn.status).toBe(404);
    const vote = await post<VoteResponse>(`/api/battles/${battle.battleId}/vote`, { winner: 'b', voteToken: battle.voteToken, reasons: ['accurate'] });
    expect(vote.status).toBe(200);
    expect(await rows('SELECT counted FROM votes WHERE battle_id = $1', [battle.battleId])).toEqual([{ counted: true }]);
    const after = await followUp(battle.battleId, 'After the vote?', battle.voteToken);
    expect([after.status, after.body.error.code]).toEqual([409, 'already_voted']);
    expect(await rows('SELECT turn FROM battles WHERE id = $1 OR root_id = $1 ORDER BY turn', [battle.battleId])).toEqual([{ turn: 1 }, { turn: 2 }, { turn: 3 }]);
    expect(await rows('SELECT turns FROM battles WHERE id = $1', [battle.battleId])).toEqual([{ turns: 3 }]);

    // History, the shared page and the export hold the whole conversation once every turn passed moderation.
    await waitFor(
      async () =>
        (await duet.db.pool.query("SELECT 1 FROM battles WHERE (id = $1 OR root_id = $1) AND moderation = 'ok'", [battle.battleId])).rowCount === 3,
      { what: 'every turn to pass moderation', timeoutMs: 20_000 },
    );
    const history = (await (await fetch(`${duet.url}/api/tools/anything-question/history`)).json()) as HistoryResponse;
    const entry = history.list.find((e) => e.id === battle.battleId);
    expect(entry?.followUps?.map((t) => [t.turn, t.text])).toEqual([
      [2, 'Which shade exactly?'],
      [3, 'And at night?'],
    ]);
    expect([entry?.followUps?.[0]?.sides.a.text, entry?.followUps?.[0]?.sides.b.text].sort()).toEqual(['Deep blue, like ink.', 'Teal in the shallows.']);
    const shared = (await (await fetch(`${duet.url}/api/battles/${battle.battleId}/shared`)).json()) as SharedBattleResponse;
    expect(shared.battle.followUps).toHaveLength(2);
    const exported = (await (await fetch(`${duet.url}/api/export/votes.jsonl`)).text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { battle_id: string; follow_ups: Array<{ turn: number; question: string }> });
    expect(exported.find((r) => r.battle_id === battle.battleId)?.follow_ups.map((t) => [t.turn, t.question])).toEqual([
      [2, 'Which shade exactly?'],
      [3, 'And at night?'],
    ]);
    // A turn still under moderation keeps the whole conversation out of sight.
    await duet.db.pool.query("UPDATE battles SET moderation = 'pending' WHERE id = $1", [third.body.turn.battleId]);
    expect((await fetch(`${duet.url}/api/battles/${battle.battleId}/shared`)).status).toBe(404);
  }, 60_000);

  it('refuses a follow-up by anyone without the vote token, on an unknown battle, or empty, storing nothing', async () => {
    fake.setDefault({ tokensPerSecond: 0 });
    const battle = await create();
    await finished(battle.battleId);
    const before = await rows('SELECT count(*)::int AS n FROM battles', []);
    expect((await followUp(battle.battleId, 'Hello?', 'x'.repeat(43))).status).toBe(403);
    expect((await followUp('00000000-0000-4000-8000-000000000000', 'Hello?', battle.voteToken)).status).toBe(404);
    expect((await followUp('not-a-battle', 'Hello?', battle.voteToken)).status).toBe(404);
    const empty = await followUp(battle.battleId, '   ', battle.voteToken);
    expect([empty.status, empty.body.error.code]).toEqual([400, 'validation_failed']);
    const long = await followUp(battle.battleId, 'x'.repeat(5_000), battle.voteToken);
    expect(long.status).toBe(400);
    const other = await create();
    // Another battle's token opens nothing here.
    expect((await followUp(battle.battleId, 'Hello?', other.voteToken)).status).toBe(403);
    expect(await rows('SELECT count(*)::int AS n FROM battles', [])).toEqual([{ n: (before[0] as { n: number }).n + 1 }]);
    await finished(other.battleId);
  }, 30_000);

  it('takes a follow-up with an image on a tool that takes one, and refuses one where the tool does not', async () => {
    fake.setDefault({ tokensPerSecond: 0 });
    const battle = await create();
    await finished(battle.battleId);
    const form = () => {
      const f = new FormData();
      f.set('text', 'What is in this picture?');
      f.set('voteToken', battle.voteToken);
      f.set('image', new Blob([TINY_PNG], { type: 'image/png' }), 'tiny.png');
      return f;
    };
    const res = await fetch(`${duet.url}/api/battles/${battle.battleId}/turns`, { method: 'POST', body: form() });
    expect(res.status).toBe(202);
    const { turn } = (await res.json()) as FollowUpResponse;
    await finished(turn.battleId);
    const toGpt = fake.requests.filter((r) => r.model === GPT).at(-1);
    expect(messagesOf(toGpt?.body).at(-1)?.text).toBe('What is in this picture? [image_url]');
    expect((await fetch(`${duet.url}/api/battles/${turn.battleId}/image`)).status).not.toBe(500);

    const lyrics = await post<CreateBattleResponse>('/api/battles', { tool: 'rap-lyrics', inputs: { poemTitle: 'Sea', keywords: ['wave'] }, lang: 'en' });
    expect(lyrics.status).toBe(202);
    await finished(lyrics.body.battleId);
    const f = form();
    f.set('voteToken', lyrics.body.voteToken);
    const refused = await fetch(`${duet.url}/api/battles/${lyrics.body.battleId}/turns`, { method: 'POST', body: f });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as ErrorResponse).error.code).toBe('image_not_allowed');
    expect(await rows('SELECT count(*)::int AS n FROM battles WHERE root_id = $1', [lyrics.body.battleId])).toEqual([{ n: 0 }]);
  }, 30_000);

  it('keeps the vote from counting when a side failed in a follow-up, though the first turn went well', async () => {
    fake.setDefault({ tokensPerSecond: 0 });
    const battle = await create();
    await finished(battle.battleId);
    fake.scenario(CLAUDE, { failStatus: 400 });
    const second = await followUp(battle.battleId, 'And the sky?', battle.voteToken);
    expect(second.status).toBe(202);
    await finished(second.body.turn.battleId);
    const vote = await post<VoteResponse>(`/api/battles/${battle.battleId}/vote`, { winner: 'a', voteToken: battle.voteToken });
    expect(vote.status).toBe(200);
    expect(await rows('SELECT counted, uncounted_reason FROM votes WHERE battle_id = $1', [battle.battleId])).toEqual([{ counted: false, uncounted_reason: 'side_failed' }]);
    fake.reset();
  }, 30_000);

  it('counts each follow-up as a question of the daily quota, and gives its place back when refused', async () => {
    fake.setDefault({ tokensPerSecond: 0 });
    const cookie = (await fetch(`${duet.url}/api/meta`)).headers.get('set-cookie')?.split(';')[0] ?? '';
    expect(cookie).toMatch(/^duet_device=/);
    const asDevice = async <T>(path: string, body: unknown) => {
      const res = await fetch(`${duet.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as T & ErrorResponse };
    };
    const quotas = (anonPerDay: number | null) =>
      fetch(`${duet.url}/api/admin/quotas`, { method: 'PUT', headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` }, body: JSON.stringify({ anonPerDay }) });
    expect((await quotas(2)).status).toBe(200);
    try {
      const created = await asDevice<CreateBattleResponse>('/api/battles', ASK);
      expect(created.status).toBe(202);
      const battle = created.body;
      await finished(battle.battleId);
      const second = await asDevice<FollowUpResponse>(`/api/battles/${battle.battleId}/turns`, { text: 'Second question?', voteToken: battle.voteToken });
      expect(second.status).toBe(202);
      await finished(second.body.turn.battleId);
      const third = await asDevice<FollowUpResponse>(`/api/battles/${battle.battleId}/turns`, { text: 'Third question?', voteToken: battle.voteToken });
      expect([third.status, third.body.error.code]).toEqual([429, 'quota_exceeded']);
      expect(await rows('SELECT turns FROM battles WHERE id = $1', [battle.battleId])).toEqual([{ turns: 2 }]);
    } finally {
      await quotas(null);
    }
  }, 30_000);
});
