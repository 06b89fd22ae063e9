import { randomUUID } from 'node:crypto';
import type { CreateBattleResponse, ErrorResponse, Meta, ModelHealthReport } from '@duet/contracts';
import { redisKeys, ZModelHealthReportSchema } from '@duet/contracts';
import { createModelBreaker } from '@duet/platform/model-breaker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadGatewayConfig } from '../../server/src/config.ts';
import { loadWorkerConfig } from '../../worker/src/config.ts';
import { startFakeLlmServer } from '../fakes/fake-llm-server.ts';
import type { FakeLlmServer } from '../fakes/fake-llm-server.ts';
import { watchToEnd } from '../helpers/battle-viewer.ts';
import type { TestDuet } from '../helpers/duet.ts';
import { startTestDuet } from '../helpers/duet.ts';
import { waitFor } from '../helpers/wait.ts';

const ADMIN_TOKEN = 'operator-'.padEnd(40, 'x');
const QUESTION = { tool: 'anything-question', text: 'Why is the sky blue?', lang: 'en' } as const;
const COOLDOWN_SECONDS = 6;

/**
 * Three models, one of which the fake provider fails for: every worker reports each side through
 * Redis, the gateway stops drawing the failing model, and a probe brings it back once it recovers.
 */
describe('failing models leave the draw', () => {
  let fake: FakeLlmServer;
  let duet: TestDuet;

  beforeAll(async () => {
    fake = await startFakeLlmServer();
    fake.setDefault({ text: 'A short answer.', tokensPerSecond: 0 });
    const model = (id: string) => ({ id, label: id.toUpperCase(), provider: 'openai', model: id, family: 'other', baseURL: fake.openaiBaseURL });
    duet = await startTestDuet({
      env: {
        DUET_MODELS: JSON.stringify([model('steady-one'), model('steady-two'), model('shaky')]),
        OPENAI_API_KEY: fake.apiKey,
        ADMIN_TOKEN,
        PROVIDER_RETRIES: '0',
        BREAKER: 'on',
        BREAKER_MIN_SIDES: '4',
        BREAKER_FAILURE_SHARE: '0.5',
        BREAKER_WINDOW_SECONDS: '60',
        BREAKER_COOLDOWN_SECONDS: String(COOLDOWN_SECONDS),
      },
    });
  }, 60_000);
  afterAll(async () => {
    await duet?.close();
    await fake?.close();
  });

  /** Runs one battle to its end; the models it drew and how each side ended. */
  const battle = async () => {
    const res = await fetch(`${duet.url}/api/battles`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(QUESTION) });
    const body = (await res.json()) as CreateBattleResponse & ErrorResponse;
    if (res.status !== 202) return { status: res.status, retryAfter: res.headers.get('retry-after'), code: body.error.code, models: [] as string[], failed: [] as string[] };
    await watchToEnd(duet.url, body.battleId);
    const { rows } = await duet.db.pool.query<{ model: string; error_code: string | null }>('SELECT model, error_code FROM answers WHERE battle_id = $1', [body.battleId]);
    return { status: 202, retryAfter: null, code: null, models: rows.map((r) => r.model), failed: rows.filter((r) => r.error_code).map((r) => r.model) };
  };
  const health = async (): Promise<ModelHealthReport> => {
    const res = await fetch(`${duet.url}/api/admin/models/health`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(res.status).toBe(200);
    return ZModelHealthReportSchema.parse(await res.json());
  };
  const stateOf = async (id: string) => (await health()).models.find((m) => m.id === id)!;
  const available = async () => {
    const text = await (await fetch(`${duet.gateway.metricsUrl}/metrics`)).text();
    return Object.fromEntries([...text.matchAll(/^duet_model_available\{model="([^"]+)"\} (\d)$/gm)].map((m) => [m[1], Number(m[2])]));
  };

  it('takes a model out within a bounded number of battles while the others keep serving, and brings it back after it recovers', async () => {
    fake.scenario('shaky', { failStatus: 500 });
    // Phase 1: the failing model is drawn (2 battles in 3) until 4 of its sides have failed.
    let battles = 0;
    while ((await stateOf('shaky')).state === 'closed') {
      battles += 1;
      expect(battles, 'battles before the breaker opened').toBeLessThanOrEqual(40);
      const b = await battle();
      expect(b.status).toBe(202);
      // Only the failing model's sides fail.
      expect(b.failed.every((m) => m === 'shaky')).toBe(true);
      await new Promise((r) => setTimeout(r, 50));
    }
    const opened = await stateOf('shaky');
    expect(opened.state).toBe('open');
    expect(opened.window.failed).toBeGreaterThanOrEqual(4);
    expect(await available()).toEqual({ 'steady-one': 1, 'steady-two': 1, shaky: 0 });
    // The page's metadata lists the models one may choose whatever their breakers say: it never
    // tells which one is out.
    const meta = (await (await fetch(`${duet.url}/api/meta`)).json()) as Meta;
    expect(meta.models.map((m) => m.id).sort()).toEqual(['shaky', 'steady-one', 'steady-two']);

    // Phase 2: while it is open, battles go to the other two and every side answers. Gateways read
    // the breaker's states at most a second late.
    await new Promise((r) => setTimeout(r, 1_100));
    const until = Date.parse(opened.until!);
    let whileOpen = 0;
    while (Date.now() < until - 500) {
      const b = await battle();
      expect(b.status).toBe(202);
      expect(b.models.sort()).toEqual(['steady-one', 'steady-two']);
      expect(b.failed).toEqual([]);
      whileOpen += 1;
    }
    expect(whileOpen).toBeGreaterThanOrEqual(3);

    // Phase 3: after the cool-down one battle probes it; still failing, it opens again.
    await waitFor(() => Date.now() > until + 50, { timeoutMs: 10_000 });
    const probe = await battle();
    expect(probe.models).toContain('shaky');
    expect(probe.failed).toEqual(['shaky']);
    const reopened = await waitFor(async () => {
      const s = await stateOf('shaky');
      return s.state === 'open' && Date.parse(s.until!) > until ? s : undefined;
    });

    // Phase 4: the provider recovers; the first battle after the cool-down probes it and it comes back.
    fake.scenario('shaky', {});
    await waitFor(() => Date.now() > Date.parse(reopened.until!) + 50, { timeoutMs: 15_000 });
    const recovery = await battle();
    expect(recovery.models).toContain('shaky');
    expect(recovery.failed).toEqual([]);
    await waitFor(async () => (await stateOf('shaky')).state === 'closed', { what: 'the breaker to close' });
    expect(await available()).toEqual({ 'steady-one': 1, 'steady-two': 1, shaky: 1 });
    const after = [];
    for (let i = 0; i < 12; i++) after.push(await battle());
    expect(after.filter((b) => b.models.includes('shaky')).length).toBeGreaterThan(0);
    expect(after.flatMap((b) => b.failed)).toEqual([]);
  }, 120_000);

  it('does not count a question a model refuses as its failure', async () => {
    fake.scenario('shaky', { failStatus: 400 });
    let refused = 0;
    for (let i = 0; i < 40 && refused < 6; i++) {
      const b = await battle();
      expect(b.status).toBe(202);
      if (b.failed.includes('shaky')) refused += 1;
    }
    expect(refused).toBeGreaterThanOrEqual(6);
    const s = await stateOf('shaky');
    expect(s.state).toBe('closed');
    expect(s.window.failed).toBe(0);
    fake.scenario('shaky', {});
  }, 60_000);

  it('answers 503 models_unavailable with Retry-After when fewer than two models can be drawn, storing nothing', async () => {
    const breaker = createModelBreaker(duet.redis, redisKeys(duet.prefix), loadGatewayConfig(duet.env).breaker);
    // Their windows hold the earlier tests' successes: fail them until both open.
    for (const model of ['steady-one', 'steady-two']) {
      let change = 'closed';
      for (let i = 0; i < 500 && change !== 'opened'; i++) change = await breaker.record(model, 'fail');
      expect(change).toBe('opened');
    }
    await new Promise((r) => setTimeout(r, 1_100));
    const before = await duet.db.pool.query<{ n: string }>('SELECT count(*) AS n FROM battles');
    const refused = await battle();
    expect(refused.status).toBe(503);
    expect(refused.code).toBe('models_unavailable');
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(COOLDOWN_SECONDS);
    const after = await duet.db.pool.query<{ n: string }>('SELECT count(*) AS n FROM battles');
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
  });

  it('is behind the operators’ guard', async () => {
    expect((await fetch(`${duet.url}/api/admin/models/health`)).status).toBe(401);
    expect((await fetch(`${duet.url}/api/admin/models/health`, { headers: { authorization: `Bearer ${'x'.repeat(40)}` } })).status).toBe(403);
  });
});

describe('the models’ breaker in Redis', () => {
  let duet: TestDuet;
  let clock = 1_000_000_000_000;
  beforeAll(async () => {
    duet = await startTestDuet({ noWorker: true });
  });
  afterAll(async () => duet?.close());

  // Each test a breaker of its own.
  const make = () =>
    createModelBreaker(duet.redis, redisKeys(`${duet.prefix}-${randomUUID()}`), { enabled: true, failureShare: 0.5, minSides: 10, windowMs: 120_000, cooldownMs: 60_000 }, () => clock);

  it('opens past the failure share of at least the minimum sides, over a sliding window', async () => {
    const breaker = make();
    // 9 failures alone are too few sides.
    for (let i = 0; i < 9; i++) expect(await breaker.record('m', 'fail')).toBe('closed');
    // Two minutes later they have left the window: 9 more, with 10 successes, stay under half.
    clock += 130_000;
    for (let i = 0; i < 10; i++) await breaker.record('m', 'ok');
    for (let i = 0; i < 9; i++) expect(await breaker.record('m', 'fail')).toBe('closed');
    expect(await breaker.window('m')).toEqual({ ok: 10, failed: 9 });
    expect(await breaker.record('m', 'fail')).toBe('opened');
    expect(await breaker.record('m', 'fail')).toBe('open');
    expect(await breaker.states()).toEqual({ m: { state: 'open', until: clock + 60_000 } });
  });

  it('lets exactly one caller probe after the cool-down, and the probe decides', async () => {
    const breaker = make();
    for (let i = 0; i < 10; i++) await breaker.record('m', 'fail');
    expect(await breaker.takeProbe('m')).toBe(false);
    clock += 60_000;
    const takers = await Promise.all(Array.from({ length: 8 }, () => breaker.takeProbe('m')));
    expect(takers.filter(Boolean)).toHaveLength(1);
    expect((await breaker.states()).m?.state).toBe('probing');
    expect(await breaker.record('m', 'fail')).toBe('opened');
    clock += 60_000;
    expect(await breaker.takeProbe('m')).toBe(true);
    expect(await breaker.record('m', 'ok')).toBe('recovered');
    expect(await breaker.states()).toEqual({});
    // The window starts afresh: one failure does not open it again.
    expect(await breaker.record('m', 'fail')).toBe('closed');
  });

  it('is never open when turned off, and refuses bad settings at start', async () => {
    const off = createModelBreaker(duet.redis, redisKeys(duet.prefix), loadGatewayConfig({ BREAKER: 'off' }).breaker);
    for (let i = 0; i < 20; i++) expect(await off.record('m', 'fail')).toBe('closed');
    expect(await off.states()).toEqual({});
    expect(() => loadGatewayConfig({ BREAKER_FAILURE_SHARE: '1.5' })).toThrow(/BREAKER_FAILURE_SHARE/);
    expect(() => loadWorkerConfig({ BREAKER_MIN_SIDES: '0' })).toThrow(/BREAKER_MIN_SIDES/);
    expect(() => loadWorkerConfig({ BREAKER: 'sometimes' })).toThrow(/BREAKER/);
  });
});
