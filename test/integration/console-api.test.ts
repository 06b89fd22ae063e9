import type { CreateBattleResponse, ErrorResponse } from '@duet/contracts';
import { ZAdminNowSchema, ZQuotasReportSchema } from '@duet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson } from '../helpers/api.ts';
import { watchToEnd } from '../helpers/battle-viewer.ts';
import type { TestDuet } from '../helpers/duet.ts';
import { startTestDuet } from '../helpers/duet.ts';
import { waitFor } from '../helpers/wait.ts';

const ADMIN_TOKEN = 'operator-'.padEnd(40, 'x');
const QUESTION = { tool: 'anything-question', text: 'Why is the sky blue?', lang: 'en' } as const;

/** What the console reads and changes beside the roster and the queue: the campaign now, the quotas. */
describe('the console’s campaign figures and quotas', () => {
  let duet: TestDuet;

  beforeAll(async () => {
    duet = await startTestDuet({
      env: { ADMIN_TOKEN, QUOTA_ANON_PER_DAY: '2', QUOTA_USER_PER_DAY: '10', BUDGET_USD_PER_DAY: '12', RATE_LIMIT_ADMIN_WRITES_PER_MINUTE: '5', TRUST_PROXY: 'loopback' },
    });
  });
  afterAll(async () => duet?.close());

  // Each call from an address of its own unless told (the admin writes' limit is per address).
  let calls = 0;
  const admin = async (method: string, path: string, body?: unknown, address = `10.8.0.${++calls}`) => {
    const res = await fetch(`${duet.url}/api/admin${path}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json', 'x-forwarded-for': address },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> & ErrorResponse };
  };
  const ask = (address: string) =>
    fetch(`${duet.url}/api/battles`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': address }, body: JSON.stringify(QUESTION) });

  it('shows the last minute’s battles, votes and tokens, each model, the queue and today’s spend', async () => {
    const created = await postJson<CreateBattleResponse>(`${duet.url}/api/battles`, QUESTION);
    expect(created.status).toBe(202);
    await watchToEnd(duet.url, created.body.battleId);
    expect((await postJson(`${duet.url}/api/battles/${created.body.battleId}/vote`, { winner: 'a', voteToken: created.body.voteToken })).status).toBe(200);
    // Figures are read at most every two seconds per gateway.
    const now = await waitFor(
      async () => {
        const res = await admin('GET', '/now');
        expect(res.status).toBe(200);
        const figures = ZAdminNowSchema.parse(res.body);
        return figures.votesPerMinute >= 1 ? figures : undefined;
      },
      { timeoutMs: 10_000, what: 'the vote in the figures' },
    );
    expect(now.battles.perMinute).toBeGreaterThanOrEqual(1);
    expect(now.battles).toMatchObject({ running: 0, waiting: 0, oldestWaitingSeconds: 0 });
    expect(now.tokensPerSecond).toBeGreaterThan(0);
    expect(now.models.map((m) => [m.id, m.enabled, m.breaker])).toEqual([
      ['demo:atlas', true, 'closed'],
      ['demo:sonnet', true, 'closed'],
    ]);
    expect(now.models.reduce((n, m) => n + m.answers5m, 0)).toBe(2);
    expect(now.spend.budgets.overallUsdPerDay).toBe(12);
    expect(Date.now() - Date.parse(now.at)).toBeLessThan(5_000);

    // A battle waiting with no worker to take it.
    await duet.stopWorker();
    const waiting = await postJson<CreateBattleResponse>(`${duet.url}/api/battles`, QUESTION);
    expect(waiting.status).toBe(202);
    await waitFor(async () => {
      const figures = ZAdminNowSchema.parse((await admin('GET', '/now')).body);
      return figures.battles.waiting === 1 && figures.battles.oldestWaitingSeconds > 0;
    }, { timeoutMs: 10_000, what: 'the waiting battle in the figures' });
    await duet.startWorker();
  });

  it('changes the quotas for every visitor at once, with their day’s use, and goes back to the settings', async () => {
    const before = ZQuotasReportSchema.parse((await admin('GET', '/quotas')).body);
    expect(before).toMatchObject({ anonPerDay: 2, userPerDay: 10, settings: { anonPerDay: 2, userPerDay: 10 } });
    for (let i = 0; i < 2; i++) expect((await ask('10.1.1.1')).status).toBe(202);
    expect((await ask('10.1.1.1')).status).toBe(429);

    const raised = await admin('PUT', '/quotas', { anonPerDay: 3 });
    expect(raised.status).toBe(200);
    expect(ZQuotasReportSchema.parse(raised.body)).toMatchObject({ anonPerDay: 3, userPerDay: 10 });
    await waitFor(async () => (await ask('10.1.1.1')).status === 202, { timeoutMs: 3_000, what: 'the raised quota' });
    expect((await ask('10.1.1.1')).status).toBe(429);
    const report = ZQuotasReportSchema.parse((await admin('GET', '/quotas')).body);
    expect(report.today.refused).toBeGreaterThanOrEqual(2);
    expect(report.today.asked).toBeGreaterThanOrEqual(3);

    // Bad changes change nothing.
    for (const body of [{ anonPerDay: -1 }, { anonPerDay: 1.5 }, { userPerDay: 1 }, {}, { anon: 3 }, []]) {
      const res = await admin('PUT', '/quotas', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await admin('PUT', '/quotas', { anonPerDay: null })).body).toMatchObject({ anonPerDay: 2 });
    const { rows } = await duet.db.pool.query<{ actor: string; before: unknown; after: unknown }>(
      "SELECT actor, before, after FROM operator_audit WHERE action = 'quotas.update' ORDER BY id",
    );
    expect(rows).toEqual([
      { actor: 'token', before: { anonPerDay: 2, userPerDay: 10 }, after: { anonPerDay: 3, userPerDay: 10 } },
      { actor: 'token', before: { anonPerDay: 3, userPerDay: 10 }, after: { anonPerDay: 2, userPerDay: 10 } },
    ]);
  });

  it('limits an address’s changes through the admin API, never its reads', async () => {
    const address = '10.9.9.9';
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await admin('PATCH', '/models/nobody', { weight: 2 }, address)).status);
    expect(statuses.slice(0, 5)).toEqual([404, 404, 404, 404, 404]);
    expect(statuses.slice(5)).toEqual([429, 429]);
    expect((await admin('GET', '/models', undefined, address)).status).toBe(200);
    expect((await admin('PATCH', '/models/nobody', { weight: 2 }, '10.9.9.10')).status).toBe(404);
  });
});
