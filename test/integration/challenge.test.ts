import type { Challenge } from '@duet/contracts';
import { redisKeys } from '@duet/contracts';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ROSTER } from '@duet/platform/roster-settings';
import { loadGatewayConfig } from '../../server/src/config.ts';
import type { TestDuet } from '../helpers/duet.ts';
import { startTestDuet } from '../helpers/duet.ts';
import { waitFor } from '../helpers/wait.ts';

const QUESTION = { tool: 'anything-question', text: 'Am I a script?', lang: 'en' };

/** What a programmatic client does (README): get a challenge, solve it, send it with the battle. */
async function solved(baseUrl: string): Promise<{ header: string; counter: number }> {
  const challenge = (await (await fetch(`${baseUrl}/api/challenge`)).json()) as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('no solution');
  return { header: Buffer.from(JSON.stringify({ challenge, solution })).toString('base64'), counter: solution.counter };
}

describe('the challenge a battle needs', () => {
  let duet: TestDuet;
  const battles = async () => (await duet.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM battles')).rows[0]!.n;
  const post = (header?: string) =>
    fetch(`${duet.url}/api/battles`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(header === undefined ? {} : { 'x-duet-challenge': header }) },
      body: JSON.stringify(QUESTION),
    });

  beforeAll(async () => {
    duet = await startTestDuet({
      noWorker: true,
      env: { BOT_CHALLENGE: 'pow', BOT_CHALLENGE_COST: '1', BOT_CHALLENGE_DIFFICULTY: '50', BOT_CHALLENGE_HOT_PER_MINUTE: '5', BOT_CHALLENGE_HOT_FACTOR: '4' },
    });
  });
  afterAll(async () => {
    await duet?.close();
  });

  it('takes a battle from a script that solves the challenge as README shows, once', async () => {
    const { header } = await solved(duet.url);
    expect((await post(header)).status).toBe(202);
    const again = await post(header);
    expect(again.status).toBe(403);
    expect(((await again.json()) as { error: { code: string } }).error.code).toBe('challenge_replayed');
    expect((await (await fetch(`${duet.url}/api/meta`)).json()) as object).toMatchObject({ challenge: true });
  });

  it('answers any header that is no solution with 400 or 403, never a 5xx, storing nothing', async () => {
    // A payload used once already: a copy of it, however edited, is never accepted again.
    const valid = (await solved(duet.url)).header;
    expect((await post(valid)).status).toBe(202);
    const before = await battles();
    const header = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.string({ unit: 'binary', maxLength: 100 }).map((s) => Buffer.from(s).toString('base64')),
      fc.jsonValue().map((v) => Buffer.from(JSON.stringify(v) ?? 'null').toString('base64')),
      // A real payload, edited: a character changed somewhere in its JSON.
      fc.tuple(fc.nat(), fc.constantFrom('0', 'f', '"', '1', '}', ' ')).map(([at, c]) => {
        const json = Buffer.from(valid, 'base64').toString();
        const i = at % json.length;
        return Buffer.from(json.slice(0, i) + c + json.slice(i + 1)).toString('base64');
      }),
    );
    await fc.assert(
      fc.asyncProperty(header, async (h) => {
        // Header values must be ISO-8859-1 without control characters: anything else is refused by the HTTP client itself.
        if (!/^[\x20-\x7e]*$/.test(h)) return;
        const res = await post(h);
        expect([400, 403]).toContain(res.status);
        const code = ((await res.json()) as { error: { code: string } }).error.code;
        expect(['validation_failed', 'challenge_required', 'challenge_replayed']).toContain(code);
      }),
      { numRuns: 150 },
    );
    expect(await battles()).toBe(before);
  });

  it('gets harder while battles come faster than the hot rate', async () => {
    expect((await solved(duet.url)).counter).toBeLessThanOrEqual(50);
    // Last minute, across gateways: more battles than BOT_CHALLENGE_HOT_PER_MINUTE. This minute too,
    // which is the last one if the minute turns while the test waits.
    const minute = Math.floor(Date.now() / 60_000);
    for (const m of [minute - 1, minute]) await duet.redis.set(redisKeys(duet.prefix).battleRate(m), '6', 'EX', 180);
    // A gateway reads the rate every few seconds: a hot challenge's counter is between 100 and 200.
    const hot = await waitFor(async () => {
      const { counter } = await solved(duet.url);
      return counter > 50 && counter;
    }, { what: 'a harder challenge', timeoutMs: 20_000 });
    expect(hot).toBeGreaterThanOrEqual(100);
    expect(hot).toBeLessThanOrEqual(200);
  });
});

describe('whether battles need a challenge', () => {
  const ADMIN_TOKEN = 'operator-'.padEnd(40, 'x');
  let duet: TestDuet;
  beforeAll(async () => {
    // BOT_CHALLENGE unset: it follows the live roster, free demo models first.
    duet = await startTestDuet({ noWorker: true, env: { DUET_MODELS: JSON.stringify(DEMO_ROSTER), BOT_CHALLENGE: '', ADMIN_TOKEN } });
  });
  afterAll(async () => duet?.close());

  const meta = async () => ((await (await fetch(`${duet.url}/api/meta`)).json()) as { challenge: boolean }).challenge;
  const ask = () => fetch(`${duet.url}/api/battles`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ tool: 'anything-question', text: 'Hi?', lang: 'en' }) });

  it('asks none while every model drawn is free, and one as soon as a priced model is enabled, without a restart', async () => {
    await waitFor(async () => !(await meta()), { what: 'the free roster' });
    expect((await ask()).status).toBe(202);
    expect((await fetch(`${duet.url}/api/challenge`)).status).toBe(404);

    // An operator adds a priced model, enabled.
    const added = await fetch(`${duet.url}/api/admin/models`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'paid:atlas', label: 'Paid', provider: 'demo', model: 'atlas', inputUsdPerMTok: 1, outputUsdPerMTok: 2, enabled: true }),
    });
    expect(added.status).toBe(201);
    await waitFor(meta, { what: 'the challenge to be asked' });
    expect((await fetch(`${duet.url}/api/challenge`)).status).toBe(200);
    const refused = await ask();
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('challenge_required');
  });

  it('is always asked with BOT_CHALLENGE=pow, never with off; a bad setting stops the start', () => {
    expect(loadGatewayConfig({}).challenge).toMatchObject({ always: false, difficulty: 2_000 });
    expect(loadGatewayConfig({ BOT_CHALLENGE: 'pow' }).challenge).toMatchObject({ always: true });
    expect(loadGatewayConfig({ OPENAI_API_KEY: 'k', ANTHROPIC_API_KEY: 'k', BOT_CHALLENGE: 'off' }).challenge).toBeNull();
    expect(() => loadGatewayConfig({ BOT_CHALLENGE: 'captcha' })).toThrow(/BOT_CHALLENGE/);
    expect(() => loadGatewayConfig({ BOT_CHALLENGE_DIFFICULTY: '1' })).toThrow(/BOT_CHALLENGE_DIFFICULTY/);
  });
});
