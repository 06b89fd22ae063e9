import type { CreateBattleResponse, ErrorResponse, HistoryResponse } from '@duet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDuet } from '../helpers/duet.ts';
import { startTestDuet } from '../helpers/duet.ts';
import { waitFor } from '../helpers/wait.ts';

const ADMIN_TOKEN = 'chosen-models-'.padEnd(40, 'k');
const ROSTER = [
  { id: 'demo:atlas', label: 'Atlas', provider: 'demo', model: 'atlas', family: 'gpt' },
  { id: 'demo:sonnet', label: 'Sonnet', provider: 'demo', model: 'sonnet', family: 'claude' },
  { id: 'demo:iris', label: 'Iris', provider: 'demo', model: 'atlas', family: 'other' },
  { id: 'demo:juno', label: 'Juno', provider: 'demo', model: 'sonnet', family: 'other' },
];
const QUESTION = { tool: 'anything-question', text: 'Which is the better pet, a cat or a dog?', lang: 'en' };

/**
 * Models of one's choice: a visitor names the two models of the roster a battle asks, on sides a
 * and b in that order; the battle is named from the start and its vote never counts.
 */
describe('a battle between models the visitor chose', () => {
  let duet: TestDuet;

  beforeAll(async () => {
    duet = await startTestDuet({ env: { DUET_MODELS: JSON.stringify(ROSTER), ADMIN_TOKEN, DEMO_SPEED: '60' } });
  });
  afterAll(async () => {
    await duet?.close();
  });

  const ask = async (body: unknown) => {
    const res = await fetch(`${duet.url}/api/battles`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as CreateBattleResponse & ErrorResponse };
  };
  const count = async (table: string) => (await duet.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]!.n;
  const stats = async () => (await duet.db.pool.query<{ n: number }>('SELECT coalesce(sum(battles), 0)::int AS n FROM model_totals')).rows[0]!.n;

  it('asks the two chosen models, named from the start, and keeps its vote out of every count', async () => {
    const statsBefore = await stats();
    const { status, body } = await ask({ ...QUESTION, models: ['demo:juno', 'demo:iris'] });
    expect(status).toBe(202);
    expect(body.sides).toEqual({ a: { label: 'Juno' }, b: { label: 'Iris' } });
    const { rows } = await duet.db.pool.query<{ mode: string; model_a: string; model_b: string }>('SELECT mode, model_a, model_b FROM battles WHERE id = $1', [body.battleId]);
    expect(rows[0]).toEqual({ mode: 'named', model_a: 'demo:juno', model_b: 'demo:iris' });

    await waitFor(async () => (await duet.db.pool.query("SELECT 1 FROM battles WHERE id = $1 AND status = 'finished'", [body.battleId])).rowCount === 1, {
      what: 'the chosen battle to finish',
      timeoutMs: 30_000,
    });
    const { rows: answers } = await duet.db.pool.query<{ side: string; model: string }>('SELECT side, model FROM answers WHERE battle_id = $1 ORDER BY side', [body.battleId]);
    expect(answers).toEqual([
      { side: 'a', model: 'demo:juno' },
      { side: 'b', model: 'demo:iris' },
    ]);
    const vote = await fetch(`${duet.url}/api/battles/${body.battleId}/vote`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ winner: 'a', voteToken: body.voteToken }),
    });
    expect(vote.status).toBe(200);
    const { rows: votes } = await duet.db.pool.query('SELECT counted, uncounted_reason FROM votes WHERE battle_id = $1', [body.battleId]);
    expect(votes[0]).toEqual({ counted: false, uncounted_reason: 'named_mode' });
    expect(await stats()).toBe(statsBefore);

    // Shown in its own view of the tool's history, never in the main one.
    await waitFor(async () => (await duet.db.pool.query("SELECT 1 FROM battles WHERE id = $1 AND moderation = 'ok'", [body.battleId])).rowCount === 1, {
      what: 'the chosen battle to pass moderation',
      timeoutMs: 30_000,
    });
    const history = async (query: string) => (await (await fetch(`${duet.url}/api/tools/anything-question/history${query}`)).json()) as HistoryResponse;
    const chosen = await history('?view=chosen');
    expect(chosen.list.map((e) => e.id)).toEqual([body.battleId]);
    expect([chosen.list[0]!.sides.a.label, chosen.list[0]!.sides.b.label]).toEqual(['Juno', 'Iris']);
    expect((await history('')).list.map((e) => e.id)).not.toContain(body.battleId);
    expect((await history('?view=main')).list.map((e) => e.id)).not.toContain(body.battleId);
    const bad = await fetch(`${duet.url}/api/tools/anything-question/history?view=named`);
    expect(bad.status).toBe(400);

    // Without a choice, battles are drawn blind as before.
    const blind = await ask(QUESTION);
    expect(blind.body.sides).toEqual({ a: { label: 'Model A' }, b: { label: 'Model B' } });
  });

  it('takes the choice in a multipart form as JSON text', async () => {
    const form = new FormData();
    for (const [k, v] of Object.entries(QUESTION)) form.set(k, v);
    form.set('models', JSON.stringify(['demo:sonnet', 'demo:atlas']));
    const res = await fetch(`${duet.url}/api/battles`, { method: 'POST', body: form });
    expect(res.status).toBe(202);
    expect(((await res.json()) as CreateBattleResponse).sides).toEqual({ a: { label: 'Sonnet' }, b: { label: 'Atlas' } });

    form.set('models', '["demo:sonnet",');
    const bad = await fetch(`${duet.url}/api/battles`, { method: 'POST', body: form });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as ErrorResponse).error.message).toContain('models: not valid JSON');
  });

  it('refuses a model not in the roster or disabled, the same model twice, or not two, with 400, storing nothing', async () => {
    const disabled = await fetch(`${duet.url}/api/admin/models/demo:iris`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ enabled: false }),
    });
    expect(disabled.status).toBe(200);
    // Every gateway follows the roster within seconds: this one at once, as it made the change.
    await waitFor(async () => (await ask({ ...QUESTION, models: ['demo:iris', 'demo:atlas'] })).status === 400, { what: 'Iris to leave the choice' });

    // The battles of the tests above have run: what follows would store battles, never answers.
    await waitFor(async () => (await duet.db.pool.query("SELECT 1 FROM battles WHERE status <> 'finished'")).rowCount === 0, { what: 'earlier battles to finish', timeoutMs: 30_000 });
    const before = { battles: await count('battles'), answers: await count('answers') };
    const refusals: Array<[unknown, string]> = [
      [['demo:nobody', 'demo:atlas'], 'models.0'],
      [['demo:atlas', 'demo:iris'], 'models.1'],
      [['demo:atlas', 'demo:atlas'], 'models'],
      [['demo:atlas'], 'models'],
      [['demo:atlas', 'demo:sonnet', 'demo:juno'], 'models'],
      ['demo:atlas', 'models'],
      [['', 'demo:atlas'], 'models.0'],
    ];
    for (const [models, path] of refusals) {
      const { status, body } = await ask({ ...QUESTION, models });
      expect([status, body.error.code], JSON.stringify(models)).toEqual([400, 'validation_failed']);
      expect(body.error.issues?.map((i) => i.path), JSON.stringify(models)).toContain(path);
    }
    expect({ battles: await count('battles'), answers: await count('answers') }).toEqual(before);
  });
});
