import type { CreateBattleResponse, ErrorResponse } from '@duet/contracts';
import { findTool, redisKeys, ZSpendReportSchema } from '@duet/contracts';
import { costMicroUsd, inputTokensAtMost } from '@duet/contracts/cost';
import { budgetDay } from '@duet/platform/budget-ledger';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../server/src/app.ts';
import { startGateway } from '../../server/src/app.ts';
import { loadGatewayConfig } from '../../server/src/config.ts';
import { fakeRosterEnv, startFakeLlmServer } from '../fakes/fake-llm-server.ts';
import type { FakeLlmServer } from '../fakes/fake-llm-server.ts';
import type { TestDuet } from '../helpers/duet.ts';
import { startTestDuet } from '../helpers/duet.ts';
import { waitFor } from '../helpers/wait.ts';
import type { WorkerProcess } from '../helpers/worker-process.ts';
import { spawnWorkerProcess } from '../helpers/worker-process.ts';

const QUESTION = { tool: 'anything-question', text: 'Why is the sky blue?', lang: 'en' } as const;
const GPT = { inputUsdPerMTok: 2.5, outputUsdPerMTok: 10 };
const CLAUDE = { inputUsdPerMTok: 3, outputUsdPerMTok: 15 };
const BATTLES = 300;
const ADDRESSES = 50;
const ADMIN_TOKEN = 'operator-'.padEnd(40, 'x');

/** The worst case of one battle of QUESTION, both sides (micro-dollars), as the gateway reserves it. */
function pairWorstCase(): number {
  const tool = findTool(QUESTION.tool)!;
  const prompt = tool.prompt({ inputs: {}, text: QUESTION.text, hasImage: false, lang: QUESTION.lang });
  const input = inputTokensAtMost([prompt.system, prompt.user], false);
  return costMicroUsd(GPT, input, tool.maxTokens) + costMicroUsd(CLAUDE, input, tool.maxTokens);
}

/**
 * A budget that fits about 40 battles' worst cases, hit by 300 battles at once from 50 addresses
 * through two gateways, run by two workers of which one is killed, with cancels among them.
 */
describe('a day’s budget under a crowd', () => {
  const budgetMicroUsd = Math.floor(40.5 * pairWorstCase());
  let fake: FakeLlmServer;
  let duet: TestDuet;
  let second: Gateway;
  let doomed: WorkerProcess;

  beforeAll(async () => {
    fake = await startFakeLlmServer();
    fake.setDefault({ text: Array.from({ length: 30 }, (_, i) => `word${i}`).join(' '), tokensPerSecond: 40 });
    duet = await startTestDuet({
      env: {
        ...fakeRosterEnv(fake),
        BUDGET_USD_PER_DAY: String(budgetMicroUsd / 1_000_000),
        TRUST_PROXY: 'loopback',
        // A killed worker's battles come back within seconds.
        WORKER_LOCK_DURATION_MS: '1500',
        WORKER_STALLED_INTERVAL_MS: '1000',
        BATTLE_LEASE_MS: '1000',
      },
    });
    second = await startGateway(loadGatewayConfig(duet.env), pino({ level: 'silent' }));
    doomed = spawnWorkerProcess(duet.env);
    await doomed.ready;
  }, 120_000);
  afterAll(async () => {
    await doomed?.stop();
    await second?.close();
    await duet?.close();
    await fake?.close();
  });

  const day = () => budgetDay(new Date(), 'UTC');
  const totals = async () => Object.fromEntries(Object.entries(await duet.redis.hgetall(redisKeys(duet.prefix).budgetTotals(day()))).map(([k, v]) => [k, Number(v)]));

  it('never spends past it, refuses the rest with 503 budget_exhausted, and leaves nothing reserved', async () => {
    const post = async (i: number) => {
      const base = i % 2 === 0 ? duet.url : second.url;
      const res = await fetch(`${base}/api/battles`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.0.0.${i % ADDRESSES}` },
        body: JSON.stringify(QUESTION),
      });
      return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as CreateBattleResponse & ErrorResponse };
    };
    const answers = await Promise.all(Array.from({ length: BATTLES }, (_, i) => post(i)));
    const admitted = answers.filter((a) => a.status === 202);
    const refused = answers.filter((a) => a.status !== 202);
    expect(admitted.length).toBeGreaterThanOrEqual(30);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) {
      expect(r.status).toBe(503);
      expect(r.body.error.code).toBe('budget_exhausted');
      expect(Number(r.retryAfter)).toBeGreaterThan(0);
    }
    // Nothing stored for a refused battle.
    const { rows: stored } = await duet.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM battles');
    expect(stored[0]!.n).toBe(admitted.length);

    // Cancels among them, and a worker killed mid-run.
    await Promise.all(admitted.slice(0, 5).map((a) => fetch(`${duet.url}/api/battles/${a.body.battleId}/cancel`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ voteToken: a.body.voteToken }),
    })));
    await waitFor(async () => (await duet.db.pool.query(`SELECT 1 FROM battles WHERE status = 'running'`)).rowCount! > 0, { what: 'battles to run' });
    await doomed.crash();

    await waitFor(async () => (await duet.db.pool.query(`SELECT 1 FROM battles WHERE status <> 'finished'`)).rowCount === 0, {
      what: 'every admitted battle to end',
      timeoutMs: 90_000,
    });
    const { rows: spent } = await duet.db.pool.query<{ usd: string; answers: number }>('SELECT sum(cost_usd) AS usd, count(*)::int AS answers FROM answers');
    const spentMicroUsd = Math.round(Number(spent[0]!.usd) * 1_000_000);
    expect(spent[0]!.answers).toBe(admitted.length * 2);
    expect(spentMicroUsd).toBeGreaterThan(0);
    expect(spentMicroUsd).toBeLessThanOrEqual(budgetMicroUsd);

    // Every reservation settled or released: nothing reserved, nothing open, Redis's spend as PostgreSQL's.
    // A battle the killed worker had finished but not closed is closed when its job runs again.
    await waitFor(async () => (await totals())['r:*'] === 0 && (await duet.redis.zcard(redisKeys(duet.prefix).budgetOpen(day()))) === 0, {
      what: 'every reservation to be settled and closed',
      timeoutMs: 15_000,
    });
    const t = await totals();
    expect(t['s:*']).toBe(spentMicroUsd);
    expect(t['s:*']).toBeLessThanOrEqual(budgetMicroUsd);
  }, 150_000);

  it('admits battles again when the budget day turns', async () => {
    // Today's budget spent to the last micro-dollar: refused today, admitted tomorrow.
    await duet.redis.hset(redisKeys(duet.prefix).budgetTotals(day()), 's:*', budgetMicroUsd);
    const refused = await fetch(`${duet.url}/api/battles`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(QUESTION) });
    expect(refused.status).toBe(503);
    const tomorrow = await startGateway(loadGatewayConfig(duet.env), pino({ level: 'silent' }), { budgetClock: () => new Date(Date.now() + 86_400_000) });
    try {
      const res = await fetch(`${tomorrow.url}/api/battles`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(QUESTION) });
      expect(res.status).toBe(202);
      const { battleId } = (await res.json()) as CreateBattleResponse;
      const { rows } = await duet.db.pool.query<{ budget_day: string }>('SELECT budget_day FROM battles WHERE id = $1', [battleId]);
      expect(rows[0]!.budget_day).toBe(budgetDay(new Date(Date.now() + 86_400_000), 'UTC'));
    } finally {
      await tomorrow.close();
    }
  });
});

describe('a model whose own budget is spent', () => {
  let duet: TestDuet;
  const models = [
    { id: 'm:thrifty', label: 'Thrifty', provider: 'demo', model: 'atlas', inputUsdPerMTok: 1, outputUsdPerMTok: 1, budgetUsdPerDay: 0.000001 },
    { id: 'm:one', label: 'One', provider: 'demo', model: 'atlas', inputUsdPerMTok: 1, outputUsdPerMTok: 1 },
    { id: 'm:two', label: 'Two', provider: 'demo', model: 'sonnet', inputUsdPerMTok: 1, outputUsdPerMTok: 1 },
  ];
  beforeAll(async () => {
    duet = await startTestDuet({ noWorker: true, env: { DUET_MODELS: JSON.stringify(models), ADMIN_TOKEN, BUDGET_USD_PER_DAY: '5' } });
  });
  afterAll(async () => {
    await duet?.close();
  });

  const ask = () => fetch(`${duet.url}/api/battles`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(QUESTION) });
  const admin = async (method: string, path: string, body?: unknown, token: string | null = ADMIN_TOKEN) => {
    const res = await fetch(`${duet.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> & ErrorResponse };
  };

  it('leaves the draw while the others are drawn; with fewer than two left, battles wait for the next day', async () => {
    for (let i = 0; i < 12; i++) expect((await ask()).status).toBe(202);
    const { rows } = await duet.db.pool.query<{ model: string }>('SELECT DISTINCT unnest(ARRAY[model_a, model_b]) AS model FROM battles ORDER BY 1');
    expect(rows.map((r) => r.model)).toEqual(['m:one', 'm:two']);

    // One of the two left runs out as well: an operator gives it a budget of a micro-dollar.
    const set = await admin('PUT', '/api/admin/budgets', { models: { 'm:two': 0.000001 } });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ overallUsdPerDay: 5, models: { 'm:thrifty': 0.000001, 'm:one': 0, 'm:two': 0.000001 } });
    await waitFor(async () => {
      const res = await ask();
      return res.status === 503 && ((await res.json()) as ErrorResponse).error.code === 'budget_exhausted';
    }, { what: 'the override to reach the gateway' });
  });

  it("shows operators today's and this hour's spend and budgets, and takes budgets back to the settings", async () => {
    const report = await admin('GET', '/api/admin/spend');
    expect(report.status).toBe(200);
    const spend = ZSpendReportSchema.parse(report.body);
    expect(spend.day).toBe(budgetDay(new Date(), 'UTC'));
    expect(spend.budgets).toEqual({ overallUsdPerDay: 5, models: { 'm:thrifty': 0.000001, 'm:one': 0, 'm:two': 0.000001 } });
    // No worker runs here: every admitted battle's worst case is still reserved, nothing settled.
    expect(spend.today.reserved['*']).toBeGreaterThan(0);
    expect(spend.today.reserved['m:thrifty'] ?? 0).toBe(0);
    expect(spend.hour.settled['*']).toBe(0);

    expect((await admin('PUT', '/api/admin/budgets', { overallUsdPerDay: null, models: { 'm:two': null } })).body).toEqual({
      overallUsdPerDay: 5,
      models: { 'm:thrifty': 0.000001, 'm:one': 0, 'm:two': 0 },
    });
  });

  it('refuses a bad budget change with 400 and a missing or wrong credential with 401 or 403, changing nothing', async () => {
    const before = (await admin('GET', '/api/admin/spend')).body.budgets;
    for (const body of [{ models: { 'm:nobody': 1 } }, { overallUsdPerDay: -1 }, { overallUsdPerDay: 'lots' }, { budget: 3 }, []]) {
      const res = await admin('PUT', '/api/admin/budgets', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
    }
    expect((await admin('PUT', '/api/admin/budgets', { overallUsdPerDay: 1 }, null)).status).toBe(401);
    expect((await admin('PUT', '/api/admin/budgets', { overallUsdPerDay: 1 }, 'x'.repeat(40))).status).toBe(403);
    expect((await admin('GET', '/api/admin/spend')).body.budgets).toEqual(before);
  });
});
