import type { CreateBattleResponse } from '@duet/contracts';
import { costMicroUsd } from '@duet/contracts/cost';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fakeRosterEnv, startFakeLlmServer } from '../fakes/fake-llm-server.ts';
import type { FakeLlmServer } from '../fakes/fake-llm-server.ts';
import { postJson } from '../helpers/api.ts';
import type { TestDuet } from '../helpers/duet.ts';
import { startTestDuet } from '../helpers/duet.ts';
import { sampleValue, scrape } from '../helpers/prometheus.ts';
import { waitFor } from '../helpers/wait.ts';

/** The seed models' list prices, which a roster without prices takes (US dollars per million tokens). */
const PRICES = { 'fake:gpt': { inputUsdPerMTok: 2.5, outputUsdPerMTok: 10 }, 'fake:claude': { inputUsdPerMTok: 3, outputUsdPerMTok: 15 } } as const;

interface AnswerCost {
  model: keyof typeof PRICES;
  input_tokens: number | null;
  output_tokens: number | null;
  cost_usd: string;
  cost_estimated: boolean;
}

/** Every answer's cost, recorded from the provider's usage; the spend per model per hour and per day. */
describe('the spend ledger', () => {
  let fake: FakeLlmServer;
  let duet: TestDuet;

  beforeAll(async () => {
    fake = await startFakeLlmServer();
    duet = await startTestDuet({ env: { ...fakeRosterEnv(fake), BUDGET_TIME_ZONE: 'Asia/Seoul' } });
  });
  afterAll(async () => {
    await duet?.close();
    await fake?.close();
  });
  afterEach(() => fake.reset());

  async function battle(text: string): Promise<string> {
    const res = await postJson<CreateBattleResponse>(`${duet.url}/api/battles`, { tool: 'anything-question', text, lang: 'en' });
    expect(res.status).toBe(202);
    await waitFor(async () => (await duet.db.pool.query(`SELECT 1 FROM battles WHERE id = $1 AND status = 'finished'`, [res.body.battleId])).rowCount === 1, {
      what: 'the battle to finish',
    });
    return res.body.battleId;
  }

  const answers = async (battleId: string) =>
    (await duet.db.pool.query<AnswerCost>('SELECT model, input_tokens, output_tokens, cost_usd, cost_estimated FROM answers WHERE battle_id = $1 ORDER BY side', [battleId])).rows;

  it("prices each answer from the provider's reported usage at its model's prices", async () => {
    fake.setDefault({ text: 'Rayleigh scattering makes the sky look blue to us.', tokensPerSecond: 0 });
    const stored = await answers(await battle('Why is the sky blue?'));
    expect(stored).toHaveLength(2);
    for (const a of stored) {
      expect(a.input_tokens).toBeGreaterThan(0);
      expect(a.output_tokens).toBeGreaterThan(0);
      expect(a.cost_estimated).toBe(false);
      expect(Math.round(Number(a.cost_usd) * 1e6)).toBe(costMicroUsd(PRICES[a.model], a.input_tokens!, a.output_tokens!));
    }
  });

  it('estimates from the characters what a provider did not report, and marks it estimated', async () => {
    // The stream stops after a few tokens, before the usage the providers send at its end.
    fake.setDefault({ text: Array.from({ length: 40 }, (_, i) => `word${i}`).join(' '), tokensPerSecond: 0, cutAfterTokens: 5, cutMode: 'end' });
    const stored = await answers(await battle('Tell me a long story'));
    expect(stored.map((a) => a.output_tokens)).toEqual([null, null]);
    for (const a of stored) {
      expect(a.cost_estimated).toBe(true);
      expect(Number(a.cost_usd)).toBeGreaterThan(0);
    }
  });

  it("keeps each model's spend per hour and per day (Seoul's), matching its answers, and counts it in the metric", async () => {
    const { rows: ledger } = await duet.db.pool.query<{ period: string; period_start: Date; model: string; usd: string; answers: number; estimated_answers: number }>(
      'SELECT period, period_start, model, usd, answers, estimated_answers FROM spend_ledger ORDER BY period, model',
    );
    const { rows: totals } = await duet.db.pool.query<{ model: string; usd: string; answers: number; estimated: number }>(
      'SELECT model, sum(cost_usd) AS usd, count(*)::int AS answers, count(*) FILTER (WHERE cost_estimated)::int AS estimated FROM answers GROUP BY model ORDER BY model',
    );
    expect(totals).toHaveLength(2);
    for (const period of ['day', 'hour']) {
      const rows = ledger.filter((r) => r.period === period);
      expect(rows.map((r) => ({ model: r.model, usd: Number(r.usd), answers: r.answers, estimated: r.estimated_answers }))).toEqual(
        totals.map((t) => ({ model: t.model, usd: Number(t.usd), answers: t.answers, estimated: t.estimated })),
      );
    }
    // The day starts at midnight in Seoul (UTC+9); the hour on the hour.
    const day = ledger.find((r) => r.period === 'day')!.period_start;
    expect(new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Seoul', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(day)).toBe('00:00');
    expect(ledger.find((r) => r.period === 'hour')!.period_start.getUTCMinutes()).toBe(0);

    const samples = await scrape(duet.worker!.httpUrl);
    for (const t of totals) {
      expect(sampleValue(samples, 'duet_spend_usd_total', { model: t.model })).toBeCloseTo(Number(t.usd), 6);
    }
  });
});

describe('the spend of the demo models', () => {
  let duet: TestDuet;
  beforeAll(async () => {
    duet = await startTestDuet();
  });
  afterAll(async () => {
    await duet?.close();
  });

  it('is nothing: unpriced demo models are free', async () => {
    const res = await postJson<CreateBattleResponse>(`${duet.url}/api/battles`, { tool: 'anything-question', text: 'Free?', lang: 'en' });
    await waitFor(async () => (await duet.db.pool.query(`SELECT 1 FROM battles WHERE id = $1 AND status = 'finished'`, [res.body.battleId])).rowCount === 1);
    const { rows } = await duet.db.pool.query<{ cost_usd: string }>('SELECT cost_usd FROM answers WHERE battle_id = $1', [res.body.battleId]);
    expect(rows.map((r) => Number(r.cost_usd))).toEqual([0, 0]);
  });
});
