// Over 300 lines on purpose: moderation through the word list and through the endpoint, takedown and the defaults, each a Duet of its own.
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { CreateBattleResponse, HistoryResponse } from '@duet/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadGatewayConfig } from '../../server/src/config.ts';
import { fakeRosterEnv, startFakeLlmServer } from '../fakes/fake-llm-server.ts';
import type { FakeLlmServer } from '../fakes/fake-llm-server.ts';
import { getJson, postBattleWithImage, postJson, storedImage, TINY_PNG } from '../helpers/api.ts';
import { connectSocket, watchToEnd } from '../helpers/battle-viewer.ts';
import type { TestDuet } from '../helpers/duet.ts';
import { startTestDuet } from '../helpers/duet.ts';
import { waitFor } from '../helpers/wait.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

interface ModerationRow {
  moderation: 'pending' | 'ok' | 'flagged' | 'taken_down';
  moderated_by: string | null;
  moderation_categories: string[];
  moderation_attempts: number;
}

interface ExportLine {
  battle_id: string;
  question: string;
  inputs: Record<string, unknown>;
  answer_a: string;
  answer_b: string;
}

/** Runs a battle to its end and votes on it; returns its id. */
async function runAndVote(duet: TestDuet, body: object): Promise<string> {
  const created = await postJson<CreateBattleResponse>(`${duet.url}/api/battles`, body);
  expect(created.status).toBe(202);
  return finishAndVote(duet, created.body);
}

async function finishAndVote(duet: TestDuet, created: CreateBattleResponse): Promise<string> {
  await watchToEnd(duet.url, created.battleId);
  const vote = await postJson(`${duet.url}/api/battles/${created.battleId}/vote`, { winner: 'a', voteToken: created.voteToken });
  expect(vote.status).toBe(200);
  // Only counted votes are exported: make sure this one is, or an absence would prove nothing.
  const { rows } = await duet.db.pool.query<{ counted: boolean }>('SELECT counted FROM votes WHERE battle_id = $1', [created.battleId]);
  expect(rows[0]?.counted).toBe(true);
  return created.battleId;
}

async function moderationOf(duet: TestDuet, battleId: string): Promise<ModerationRow> {
  const { rows } = await duet.db.pool.query<ModerationRow>(
    'SELECT moderation, moderated_by, moderation_categories, moderation_attempts FROM battles WHERE id = $1',
    [battleId],
  );
  return rows[0]!;
}

/** Waits for the worker's decision, however it comes (end of battle or the periodic sweep). */
const decided = (duet: TestDuet, battleId: string) =>
  waitFor(
    async () => {
      const row = await moderationOf(duet, battleId);
      return row.moderation !== 'pending' && row;
    },
    { what: `moderation of ${battleId}` },
  );

async function historyOf(duet: TestDuet, tool: string): Promise<HistoryResponse['list']> {
  const res = await getJson<HistoryResponse>(`${duet.url}/api/tools/${tool}/history?limit=50`);
  expect(res.status).toBe(200);
  return res.body.list;
}

async function exported(duet: TestDuet): Promise<{ lines: ExportLine[]; csv: string }> {
  const jsonl = await fetch(`${duet.url}/api/export/votes.jsonl`);
  expect(jsonl.status).toBe(200);
  const lines = (await jsonl.text()).split('\n').filter(Boolean).map((l) => JSON.parse(l) as ExportLine);
  const csv = await fetch(`${duet.url}/api/export/votes.csv`);
  expect(csv.status).toBe(200);
  return { lines, csv: await csv.text() };
}

const historyIds = async (duet: TestDuet, tool: string) => (await historyOf(duet, tool)).map((e) => e.id);
const exportIds = async (duet: TestDuet) => (await exported(duet)).lines.map((l) => l.battle_id);

describe('moderation with the word list (the demo models)', () => {
  const token = randomBytes(24).toString('hex');
  let duet: TestDuet;

  beforeAll(async () => {
    duet = await startTestDuet({
      env: { MODERATION: 'wordlist', MODERATION_INTERVAL_MS: '200', EXPORT_ENABLED: 'true', ADMIN_TOKEN: token, DEMO_SPEED: '400' },
    });
  });
  afterAll(async () => {
    await duet?.close();
  });

  const admin = (battleId: string, action: 'takedown' | 'restore', authorization?: string) =>
    fetch(`${duet.url}/api/admin/battles/${battleId}/${action}`, {
      method: 'POST',
      headers: authorization ? { authorization } : {},
    });

  it('keeps Korean and English sexual or violent battles out of history and the export, and shows clean ones', async () => {
    const korean = await runAndVote(duet, { tool: 'anything-question', text: '야동 사이트 좀 알려줘', lang: 'ko' });
    const english = await runAndVote(duet, { tool: 'anything-question', text: 'I will kill you, tell me how', lang: 'en' });
    const clean = await runAndVote(duet, { tool: 'anything-question', text: 'Why is the sky blue?', lang: 'en' });

    expect(await decided(duet, korean)).toMatchObject({ moderation: 'flagged', moderated_by: 'wordlist', moderation_categories: ['sexual'] });
    expect(await decided(duet, english)).toMatchObject({ moderation: 'flagged', moderated_by: 'wordlist', moderation_categories: ['violence'] });
    expect(await decided(duet, clean)).toMatchObject({ moderation: 'ok', moderated_by: 'wordlist', moderation_categories: [] });

    const history = await historyIds(duet, 'anything-question');
    expect(history).toContain(clean);
    expect(history).not.toContain(korean);
    expect(history).not.toContain(english);
    const { lines, csv } = await exported(duet);
    expect(lines.map((l) => l.battle_id)).toContain(clean);
    expect(lines.map((l) => l.battle_id)).not.toContain(korean);
    expect(lines.map((l) => l.battle_id)).not.toContain(english);
    expect(csv).toContain(clean);
    expect(csv).not.toContain(korean);
    expect(csv).not.toContain('야동');
  });

  it('lets an operator with the token take a battle down from history, the export and its image URL, and restore it', async () => {
    const created = await postBattleWithImage(duet.url, { tool: 'docent', lang: 'ko' }, { data: TINY_PNG, filename: 'p.png', type: 'image/png' });
    expect(created.status).toBe(202);
    const id = await finishAndVote(duet, created.body);
    expect((await decided(duet, id)).moderation).toBe('ok');
    expect(await historyIds(duet, 'docent')).toContain(id);
    expect((await fetch(`${duet.url}/api/battles/${id}/image`)).status).toBe(200);

    const missing = await admin(id, 'takedown');
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
    expect((await admin(id, 'takedown', `Basic ${Buffer.from(`admin:${token}`).toString('base64')}`)).status).toBe(401);
    const wrong = await admin(id, 'takedown', `Bearer ${token.slice(0, -1)}x`);
    expect(wrong.status).toBe(403);
    expect(((await wrong.json()) as { error: { code: string } }).error.code).toBe('invalid_token');
    // Refused attempts changed nothing.
    expect((await moderationOf(duet, id)).moderation).toBe('ok');

    const down = await admin(id, 'takedown', `Bearer ${token}`);
    expect(down.status).toBe(200);
    expect(await down.json()).toEqual({ battleId: id, moderation: 'taken_down' });
    expect(await moderationOf(duet, id)).toMatchObject({ moderation: 'taken_down', moderated_by: 'operator:token' });
    expect(await historyIds(duet, 'docent')).not.toContain(id);
    expect(await exportIds(duet)).not.toContain(id);
    const image = await fetch(`${duet.url}/api/battles/${id}/image`);
    expect(image.status).toBe(404);
    expect(((await image.json()) as { error: { code: string } }).error.code).toBe('not_found');
    // Nor does anyone who kept its id get it over the socket.
    const socket = await connectSocket(duet.url);
    expect(await socket.emitWithAck('battle:join', { battleId: id })).toMatchObject({ ok: false, error: { code: 'not_found' } });

    const restored = await admin(id, 'restore', `Bearer ${token}`);
    expect(restored.status).toBe(200);
    expect(await restored.json()).toEqual({ battleId: id, moderation: 'ok' });
    expect(await historyIds(duet, 'docent')).toContain(id);
    expect(await exportIds(duet)).toContain(id);
    expect((await fetch(`${duet.url}/api/battles/${id}/image`)).status).toBe(200);
    expect(await socket.emitWithAck('battle:join', { battleId: id })).toMatchObject({ ok: true });
    socket.disconnect();

    for (const [unknown, status, code] of [[randomUUID(), 404, 'not_found'], ['not-a-battle', 400, 'validation_failed']] as const) {
      const res = await admin(unknown, 'takedown', `Bearer ${token}`);
      expect(res.status).toBe(status);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe(code);
    }
  });

  it('takes a battle down and restores it from the command line', async () => {
    const id = await runAndVote(duet, { tool: 'quiz-solving', text: 'Which planet is known as the Red Planet?', lang: 'en' });
    expect((await decided(duet, id)).moderation).toBe('ok');
    expect(await historyIds(duet, 'quiz-solving')).toContain(id);
    const cli = (...args: string[]) =>
      run('npm', ['run', '--silent', 'takedown', '--', ...args], {
        cwd: ROOT,
        // The deployment's settings, as an operator's shell has them: its database, and its Redis where the gateways keep their history versions.
        env: { ...process.env, DATABASE_URL: duet.env.DATABASE_URL, REDIS_URL: duet.env.REDIS_URL, REDIS_PREFIX: duet.env.REDIS_PREFIX },
      });

    const down = await cli(id);
    expect(down.stdout).toContain(`Battle ${id} taken down`);
    expect(await moderationOf(duet, id)).toMatchObject({ moderation: 'taken_down', moderated_by: 'operator:cli' });
    expect(await historyIds(duet, 'quiz-solving')).not.toContain(id);
    expect(await exportIds(duet)).not.toContain(id);

    const up = await cli(id, '--restore');
    expect(up.stdout).toContain(`Battle ${id} restored`);
    expect(await historyIds(duet, 'quiz-solving')).toContain(id);

    await expect(cli(randomUUID())).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('No battle with id') });
    await expect(cli()).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('Usage: npm run takedown') });
  }, 60_000);
});

describe('moderation through the OpenAI endpoint (the fake server, the real SDK)', () => {
  const MARKER = 'zx-forbidden-marker';
  const ANSWER = 'Blue light scatters the most in the air.';
  let fake: FakeLlmServer;
  let duet: TestDuet;

  beforeAll(async () => {
    fake = await startFakeLlmServer();
    fake.setDefault({ text: ANSWER });
    duet = await startTestDuet({
      env: {
        ...fakeRosterEnv(fake, { gpt: 'gpt-fake', claude: 'claude-fake' }),
        MODERATION_INTERVAL_MS: '200',
        EXPORT_ENABLED: 'true',
      },
    });
  });
  afterAll(async () => {
    await duet?.close();
    await fake?.close();
  });
  afterEach(() => {
    fake.reset();
    fake.setDefault({ text: ANSWER });
  });

  const moderationRequests = () => fake.requests.filter((r) => r.path === '/v1/moderations');

  it('keeps a battle the endpoint flags out of history and the export, and shows a clean one', async () => {
    fake.moderation({ flagMarker: MARKER, flagCategories: ['violence', 'violence/graphic'] });
    const flagged = await runAndVote(duet, { tool: 'anything-question', text: `Tell me about ${MARKER} please`, lang: 'en' });
    const clean = await runAndVote(duet, { tool: 'anything-question', text: 'Why is the sky blue?', lang: 'en' });

    expect(await decided(duet, flagged)).toMatchObject({
      moderation: 'flagged',
      moderated_by: 'openai:omni-moderation-latest',
      moderation_categories: ['violence', 'violence/graphic'],
    });
    expect(await decided(duet, clean)).toMatchObject({ moderation: 'ok', moderated_by: 'openai:omni-moderation-latest' });
    // The SDK called the endpoint with the battle's question and both answers.
    const sent = moderationRequests().find((r) => JSON.stringify(r.body).includes(MARKER));
    expect(sent?.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
    expect(sent?.body).toMatchObject({ model: 'omni-moderation-latest', input: [`Tell me about ${MARKER} please`, ANSWER, ANSWER] });

    expect(await historyIds(duet, 'anything-question')).toContain(clean);
    expect(await historyIds(duet, 'anything-question')).not.toContain(flagged);
    const { lines, csv } = await exported(duet);
    expect(lines.map((l) => l.battle_id)).toContain(clean);
    expect(lines.map((l) => l.battle_id)).not.toContain(flagged);
    expect(csv).not.toContain(MARKER);
  });

  it('sends the question’s image to the endpoint along with the texts, and hides what it flags', async () => {
    fake.moderation({ flagMarker: MARKER });
    const created = await postBattleWithImage(duet.url, { tool: 'docent', lang: 'en', text: MARKER }, { data: TINY_PNG, filename: 'p.png', type: 'image/png' });
    expect(created.status).toBe(202);
    const id = await finishAndVote(duet, created.body);
    expect(await decided(duet, id)).toMatchObject({ moderation: 'flagged', moderation_categories: ['sexual'] });
    const sent = moderationRequests().find((r) => JSON.stringify(r.body).includes(MARKER));
    expect(sent?.body).toMatchObject({
      input: [
        { type: 'text', text: [MARKER, ANSWER, ANSWER].join('\n\n') },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${(await storedImage(duet.db.pool, id)).toString('base64')}` } },
      ],
    });
    expect(await historyIds(duet, 'docent')).not.toContain(id);
  });

  it('masks e-mail addresses, phone numbers and resident registration numbers in history and the export', async () => {
    fake.setDefault({ text: 'Write to jane.doe@example.com, call 010-1234-5678 or +44 20 7946 0958; RRN 901231-1234567.' });
    const id = await runAndVote(duet, {
      tool: 'makeLyrics',
      lang: 'en',
      text: 'I am hong@duet.dev, 02-123-4567, 850101-2345678',
      inputs: { poemTitle: 'Call me at 010-9876-5432', keywords: ['a@b.co'] },
    });
    expect((await decided(duet, id)).moderation).toBe('ok');
    const raw = ['jane.doe@example.com', '010-1234-5678', '20 7946', '901231-1234567', 'hong@duet.dev', '02-123-4567', '850101-2345678', '010-9876-5432', 'a@b.co'];

    const entry = (await historyOf(duet, 'makeLyrics')).find((e) => e.id === id)!;
    expect(entry.question.text).toBe('I am h***@***.dev, 02-***-4567, 850101-*******');
    expect(entry.question.inputs).toEqual({ poemTitle: 'Call me at 010-****-5432', keywords: ['a***@***.co'] });
    for (const side of [entry.sides.a, entry.sides.b]) {
      expect(side.text).toBe('Write to j***@***.com, call 010-****-5678 or +44 ** **** 0958; RRN 901231-*******.');
    }

    const { lines, csv } = await exported(duet);
    const line = lines.find((l) => l.battle_id === id)!;
    expect(line.question).toBe(entry.question.text);
    expect(line.inputs).toEqual(entry.question.inputs);
    expect(line.answer_a).toBe(entry.sides.a.text);
    expect(line.answer_b).toBe(entry.sides.b.text);
    expect(csv).toContain('010-****-5678');
    const shown = JSON.stringify([entry.question, entry.sides.a.text, entry.sides.b.text, line]);
    for (const secret of raw) {
      expect(shown).not.toContain(secret);
      expect(csv).not.toContain(secret);
    }
    // Stored as asked: only what is shown is masked.
    const { rows } = await duet.db.pool.query<{ text: string }>('SELECT text FROM battles WHERE id = $1', [id]);
    expect(rows[0]?.text).toContain('hong@duet.dev');
  });

  it('leaves a battle pending and hidden while the endpoint fails, and the periodic job moderates it once it works', async () => {
    fake.moderation({ failStatus: 500 });
    const id = await runAndVote(duet, { tool: 'anything-question', text: 'What makes sunsets red?', lang: 'en' });
    const failed = await waitFor(
      async () => {
        const row = await moderationOf(duet, id);
        return row.moderation_attempts >= 2 && row;
      },
      { what: 'two failed moderation attempts' },
    );
    expect(failed.moderation).toBe('pending');
    expect(moderationRequests().length).toBeGreaterThanOrEqual(2);
    expect(await historyIds(duet, 'anything-question')).not.toContain(id);
    expect(await exportIds(duet)).not.toContain(id);

    fake.moderation({ failStatus: undefined });
    expect(await decided(duet, id)).toMatchObject({ moderation: 'ok', moderated_by: 'openai:omni-moderation-latest' });
    // The page read above is cached: the worker's verdict raises the tool's history version just
    // after it commits, so the next reads list the battle (well before the cache's 10 s bound).
    await waitFor(async () => (await historyIds(duet, 'anything-question')).includes(id), { what: 'the battle in history', timeoutMs: 3_000 });
    expect(await exportIds(duet)).toContain(id);
  });
});

describe('defaults: export off, admin API off', () => {
  let duet: TestDuet;

  beforeAll(async () => {
    duet = await startTestDuet({ noWorker: true });
  });
  afterAll(async () => {
    await duet?.close();
  });

  it('answers 404 for the export unless EXPORT_ENABLED is set', async () => {
    for (const format of ['jsonl', 'csv']) {
      const res = await getJson<{ error: { code: string; message: string } }>(`${duet.url}/api/export/votes.${format}`);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
      expect(res.body.error.message).toMatch(/export is turned off.*EXPORT_ENABLED/);
    }
  });

  it('answers 404 for the admin API when no ADMIN_TOKEN is configured, and refuses a short token', async () => {
    const res = await fetch(`${duet.url}/api/admin/battles/${randomUUID()}/takedown`, {
      method: 'POST',
      headers: { authorization: 'Bearer anything-at-all-anything-at-all-anything' },
    });
    expect(res.status).toBe(404);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error).toMatchObject({ code: 'not_found', message: expect.stringMatching(/ADMIN_TOKEN/) });
    expect(() => loadGatewayConfig({ ADMIN_TOKEN: 'too-short' })).toThrow(/ADMIN_TOKEN: at least 32 characters/);
  });
});
