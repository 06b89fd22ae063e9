import type { CreateBattleResponse, ErrorResponse, RosterModel } from '@duet/contracts';
import { redisKeys, ZRosterReportSchema } from '@duet/contracts';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../server/src/app.ts';
import { startGateway } from '../../server/src/app.ts';
import { loadGatewayConfig } from '../../server/src/config.ts';
import { startFakeLlmServer } from '../fakes/fake-llm-server.ts';
import type { FakeLlmServer } from '../fakes/fake-llm-server.ts';
import { watchToEnd } from '../helpers/battle-viewer.ts';
import type { TestDuet } from '../helpers/duet.ts';
import { startTestDuet } from '../helpers/duet.ts';
import type { PrivateRedis } from '../helpers/private-services.ts';
import { startPrivateRedis } from '../helpers/private-services.ts';
import { waitFor } from '../helpers/wait.ts';
import type { WorkerProcess } from '../helpers/worker-process.ts';
import { spawnWorkerProcess } from '../helpers/worker-process.ts';

const ADMIN_TOKEN = 'operator-'.padEnd(40, 'x');
const QUESTION = { tool: 'anything-question', text: 'Why is the sky blue?', lang: 'en' } as const;
/** The longest a roster change may take to be in force in every process. */
const PROPAGATION_MS = 5_000;

/**
 * The roster in PostgreSQL, changed through the admin API of one gateway, in force in another
 * gateway and two worker processes within seconds, also when the announcement was lost.
 */
describe('the live roster', () => {
  let redis: PrivateRedis;
  let fake: FakeLlmServer;
  let duet: TestDuet;
  let second: Gateway;
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    redis = await startPrivateRedis();
    fake = await startFakeLlmServer();
    fake.setDefault({ text: 'A short answer of six words.', tokensPerSecond: 0 });
    const model = (id: string) => ({ id, label: id.toUpperCase(), provider: 'openai', model: id, family: 'other', baseURL: fake.openaiBaseURL, inputUsdPerMTok: 1, outputUsdPerMTok: 2 });
    duet = await startTestDuet({
      redisUrl: redis.url,
      noWorker: true,
      env: {
        DUET_MODELS: JSON.stringify(['alpha', 'beta', 'gamma', 'delta'].map(model)),
        OPENAI_API_KEY: fake.apiKey,
        ADMIN_TOKEN,
        TRUST_PROXY: 'loopback',
      },
    });
    second = await startGateway(loadGatewayConfig(duet.env), pino({ level: 'silent' }));
    for (let i = 0; i < 2; i++) workers.push(spawnWorkerProcess(duet.env));
    await Promise.all(workers.map((w) => w.ready));
  }, 120_000);
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await second?.close();
    await duet?.close();
    await fake?.close();
    await redis?.remove();
  });

  const admin = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${duet.url}/api/admin${path}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, text: await res.text() };
  };
  const patch = async (id: string, body: unknown) => {
    const res = await admin('PATCH', `/models/${id}`, body);
    expect(res.status, res.text).toBe(200);
    return JSON.parse(res.text) as RosterModel;
  };
  /** `count` battles through `url`: the models each drew (stored, not run: workers take them later). */
  const drawn: string[] = [];
  const draws = async (url: string, count: number) => {
    const pairs: string[][] = [];
    for (let i = 0; i < count; i++) {
      const res = await fetch(`${url}/api/battles`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(QUESTION) });
      const body = (await res.json()) as CreateBattleResponse & ErrorResponse;
      if (res.status !== 202) throw new Error(`${res.status} ${body.error.code}`);
      const { rows } = await duet.db.pool.query<{ model_a: string; model_b: string }>('SELECT model_a, model_b FROM battles WHERE id = $1', [body.battleId]);
      pairs.push([rows[0]!.model_a, rows[0]!.model_b]);
      drawn.push(body.battleId);
    }
    return pairs;
  };
  /**
   * Waits until every battle drawn through both gateways passes `check`; answers how long after
   * `since` the round of draws that passed began (the draws themselves take a while on a busy machine).
   */
  const inForceEverywhere = async (check: (pairs: string[][]) => boolean, since: number) => {
    // A gateway may answer 503 for a moment while its Redis connections come back.
    const holds = (url: string) => draws(url, 6).then(check, () => false);
    let roundStart = since;
    await waitFor(
      async () => {
        roundStart = Date.now();
        return (await holds(duet.url)) && (await holds(second.url));
      },
      { timeoutMs: 15_000, intervalMs: 100, what: 'the change on both gateways' },
    );
    return roundStart - since;
  };

  it('is seeded from the environment and lists every model with the variable its key is in, never the key', async () => {
    const res = await admin('GET', '/models');
    expect(res.status).toBe(200);
    expect(res.text).not.toContain(fake.apiKey);
    const report = ZRosterReportSchema.parse(JSON.parse(res.text));
    expect(report.models.map((m) => [m.id, m.enabled, m.retired, m.apiKeyEnv, m.runnable.ok, m.updatedBy])).toEqual(
      ['alpha', 'beta', 'gamma', 'delta'].map((id) => [id, true, false, 'OPENAI_API_KEY', true, null]),
    );
  });

  it('takes a disabled model out of the draw on every gateway within seconds', async () => {
    const at = Date.now();
    expect(await patch('delta', { enabled: false })).toMatchObject({ enabled: false, updatedBy: 'token' });
    const took = await inForceEverywhere((pairs) => pairs.every((p) => !p.includes('delta')), at);
    expect(took).toBeLessThan(PROPAGATION_MS);
    // Some time later still none: no process went back to an older roster.
    await new Promise((r) => setTimeout(r, 2_500));
    expect((await draws(second.url, 10)).flat()).not.toContain('delta');
  });

  it('draws by the new weights on every gateway', async () => {
    const at = Date.now();
    await patch('alpha', { weight: 200 });
    const took = await inForceEverywhere((pairs) => pairs.every((p) => p.includes('alpha')), at);
    expect(took).toBeLessThan(PROPAGATION_MS);
    const late = [...(await draws(duet.url, 15)), ...(await draws(second.url, 15))];
    expect(late.filter((p) => p.includes('alpha')).length).toBeGreaterThanOrEqual(28);
    await patch('alpha', { weight: 1 });
  });

  it('prices answers at the new prices in every worker', async () => {
    await patch('beta', { inputUsdPerMTok: 100, outputUsdPerMTok: 1_000 });
    await new Promise((r) => setTimeout(r, PROPAGATION_MS));
    // Every battle queued so far runs now, on both workers; those with beta are priced anew.
    await waitFor(async () => (await duet.db.pool.query("SELECT 1 FROM battles WHERE status <> 'finished' LIMIT 1")).rowCount === 0, {
      timeoutMs: 60_000,
      what: 'the queued battles to run',
    });
    drawn.length = 0;
    const pairs = await draws(duet.url, 8);
    await waitFor(async () => (await duet.db.pool.query("SELECT 1 FROM battles WHERE status <> 'finished' LIMIT 1")).rowCount === 0, { timeoutMs: 30_000 });
    const { rows } = await duet.db.pool.query<{ model: string; cost_usd: string; input_tokens: number; output_tokens: number }>(
      `SELECT a.model, a.cost_usd, a.input_tokens, a.output_tokens FROM answers a JOIN battles b ON b.id = a.battle_id
        WHERE a.model = 'beta' AND b.id = ANY($1)`,
      [drawn],
    );
    expect(pairs.flat()).toContain('beta');
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(Number(r.cost_usd)).toBeCloseTo((r.input_tokens * 100 + r.output_tokens * 1_000) / 1_000_000, 6);
  }, 120_000);

  it('catches a change whose announcement was lost: Redis restarted, and a change made without it', async () => {
    // Redis restarts (empty: the version is gone); then a change is made in PostgreSQL and given a
    // new version, but no one hears of it.
    await redis.stop();
    await redis.start();
    await duet.db.pool.query("UPDATE models SET enabled = false, updated_at = now(), updated_by = 'test' WHERE id = 'gamma'");
    const probe = new Redis(redis.url);
    await probe.set(redisKeys(duet.prefix).rosterVersion, 'changed-unannounced');
    probe.disconnect();
    const at = Date.now();
    const took = await inForceEverywhere((pairs) => pairs.every((p) => !p.includes('gamma')), at);
    expect(took).toBeLessThan(PROPAGATION_MS);
    await patch('gamma', { enabled: true });
  }, 60_000);

  it('keeps a battle that is running on the models it was drawn with, and never draws a retired model again', async () => {
    fake.scenario('gamma', { text: Array.from({ length: 40 }, (_, i) => `slow${i}`).join(' '), tokensPerSecond: 20 });
    let battleId = '';
    await waitFor(async () => {
      const res = await fetch(`${duet.url}/api/battles`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(QUESTION) });
      const body = (await res.json()) as CreateBattleResponse;
      const { rows } = await duet.db.pool.query<{ model_a: string; model_b: string }>('SELECT model_a, model_b FROM battles WHERE id = $1', [body.battleId]);
      battleId = body.battleId;
      return [rows[0]!.model_a, rows[0]!.model_b].includes('gamma');
    }, { what: 'a battle with gamma' });
    await waitFor(async () => (await duet.db.pool.query("SELECT 1 FROM battles WHERE id = $1 AND status = 'running'", [battleId])).rowCount === 1);
    await patch('gamma', { retired: true });
    const snapshot = await watchToEnd(duet.url, battleId);
    expect(Object.values(snapshot.sides).map((s) => s.state)).toEqual(['done', 'done']);
    const { rows } = await duet.db.pool.query<{ text: string }>("SELECT text FROM answers WHERE battle_id = $1 AND model = 'gamma'", [battleId]);
    expect(rows[0]?.text).toMatch(/slow39/);
    await new Promise((r) => setTimeout(r, PROPAGATION_MS));
    expect([...(await draws(duet.url, 10)), ...(await draws(second.url, 10))].flat()).not.toContain('gamma');
    // Retired is final.
    const again = await admin('PATCH', '/models/gamma', { enabled: true });
    expect(again.status).toBe(409);
    fake.scenario('gamma', {});
  }, 60_000);

  it('refuses what cannot run, and leaving fewer than two models without force', async () => {
    const before = await admin('GET', '/models');
    // A model whose key's variable is unset cannot be enabled; added disabled, it can be.
    const keyless = { id: 'omega', label: 'Omega', provider: 'anthropic', model: 'omega', apiKeyEnv: 'OMEGA_API_KEY', enabled: true };
    const refused = await admin('POST', '/models', keyless);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('OMEGA_API_KEY is not set');
    expect((await admin('POST', '/models', { ...keyless, enabled: false })).status).toBe(201);
    expect((await admin('PATCH', '/models/omega', { enabled: true })).status).toBe(400);
    const noBase = await admin('POST', '/models', { id: 'local', label: 'Local', provider: 'openai-compatible', model: 'llama', enabled: true });
    expect(noBase.status).toBe(400);
    expect(noBase.text).toContain('base URL');
    expect((await admin('POST', '/models', { ...keyless, enabled: false })).status).toBe(409);
    // Alpha and beta are the last two drawable: disabling one needs force.
    const last = await admin('PATCH', '/models/beta', { enabled: false });
    expect(last.status).toBe(409);
    expect(JSON.parse(last.text).error.code).toBe('confirmation_required');
    // Bad input changes nothing.
    for (const [path, body] of [
      ['/models/alpha', { weight: -1 }],
      ['/models/alpha', { weight: 'heavy' }],
      ['/models/alpha', {}],
      ['/models/alpha', { retired: false }],
      ['/models/alpha', { apiKey: 'sk-leak' }],
      ['/models/alpha', { enabled: true, id: 'renamed' }],
    ] as const) {
      const res = await admin('PATCH', path, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    for (const body of [{ id: 'x' }, { id: 'bad id!', label: 'X', provider: 'demo', model: 'atlas' }, { id: 'x2', label: 'X', provider: 'demo', model: 'atlas', apiKeyEnv: 'DATABASE_URL' }]) {
      expect((await admin('POST', '/models', body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await admin('PATCH', '/models/nobody', { weight: 2 })).status).toBe(404);
    const after = JSON.parse((await admin('GET', '/models')).text) as { models: RosterModel[] };
    expect(after.models.filter((m) => m.id !== 'omega')).toEqual((JSON.parse(before.text) as { models: RosterModel[] }).models);

    // With force, the change is made, and new battles are refused until a second model is back.
    expect((await admin('PATCH', '/models/beta', { enabled: false, force: true })).status).toBe(200);
    await waitFor(async () => {
      const res = await fetch(`${second.url}/api/battles`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(QUESTION) });
      return res.status === 503 && ((await res.json()) as ErrorResponse).error.code === 'models_unavailable';
    }, { timeoutMs: PROPAGATION_MS });
    await patch('beta', { enabled: true });
  }, 60_000);

  it('records every change in the audit log with its author, before and after', async () => {
    const { rows } = await duet.db.pool.query<{ actor: string; action: string; target: string; before: RosterModel | null; after: RosterModel | null }>(
      "SELECT actor, action, target, before, after FROM operator_audit WHERE action LIKE 'model.%' OR action LIKE 'roster.%' ORDER BY id",
    );
    expect(rows[0]).toMatchObject({ actor: 'environment', action: 'roster.seed' });
    const delta = rows.find((r) => r.target === 'delta');
    expect(delta).toMatchObject({ actor: 'token', action: 'model.update', before: { enabled: true }, after: { enabled: false } });
    expect(rows.find((r) => r.target === 'gamma' && r.action === 'model.retire')).toMatchObject({ actor: 'token', after: { retired: true, enabled: false } });
    expect(rows.find((r) => r.target === 'omega')).toMatchObject({ action: 'model.create', before: null, after: { id: 'omega', enabled: false } });
    // The refusals wrote nothing.
    expect(rows.filter((r) => r.target === 'beta' && r.action === 'model.update').map((r) => r.after?.enabled)).toEqual([true, false, true]);
  });
});
