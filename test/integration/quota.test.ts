import type { ErrorResponse, LoginResponse } from '@duet/contracts';
import { redisKeys } from '@duet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, EMULATOR_HOST, firebaseUser } from '../helpers/accounts.ts';
import type { TestDuet } from '../helpers/duet.ts';
import { startTestDuet } from '../helpers/duet.ts';
import { waitFor } from '../helpers/wait.ts';

const QUESTION = { tool: 'anything-question', text: 'How many questions may I ask?', lang: 'en' };

/** Battles a day per visitor: by device and by address for anonymous visitors, by account once signed in. */
describe('visitor quotas', () => {
  let duet: TestDuet;

  beforeAll(async () => {
    duet = await startTestDuet({
      noWorker: true,
      env: {
        QUOTA_ANON_PER_DAY: '3',
        QUOTA_USER_PER_DAY: '5',
        TRUST_PROXY: 'loopback',
        FIREBASE_AUTH_EMULATOR_HOST: EMULATOR_HOST,
        // Priced demo models: a budget can be spent.
        DUET_MODELS: JSON.stringify([
          { id: 'demo:atlas', label: 'Atlas', provider: 'demo', model: 'atlas', inputUsdPerMTok: 1, outputUsdPerMTok: 1 },
          { id: 'demo:sonnet', label: 'Sonnet', provider: 'demo', model: 'sonnet', inputUsdPerMTok: 1, outputUsdPerMTok: 1 },
        ]),
      },
    });
  });
  afterAll(async () => {
    await duet?.close();
  });

  const battles = async () => (await duet.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM battles')).rows[0]!.n;

  /** A browser: the device cookie the page's first call gave it. */
  async function device(address: string): Promise<string> {
    const res = await fetch(`${duet.url}/api/meta`, { headers: { 'x-forwarded-for': address } });
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^duet_device=[^;]+; Max-Age=\d+; Path=\/api; Expires=.*HttpOnly; SameSite=Lax$/);
    return cookie.split(';')[0]!;
  }

  async function ask(o: { address: string; cookie?: string; session?: string }) {
    const res = await fetch(`${duet.url}/api/battles`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-forwarded-for': o.address,
        ...(o.cookie ? { cookie: o.cookie } : {}),
        ...(o.session ? { authorization: `Bearer ${o.session}` } : {}),
      },
      body: JSON.stringify(QUESTION),
    });
    return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as ErrorResponse };
  }

  it("stops an anonymous visitor at the day's quota, however they clear their cookie or change address", async () => {
    const cookie = await device('10.1.0.1');
    for (let i = 0; i < 3; i++) expect((await ask({ address: '10.1.0.1', cookie })).status).toBe(202);
    const before = await battles();

    const over = await ask({ address: '10.1.0.1', cookie });
    expect(over.status).toBe(429);
    expect(over.body.error).toMatchObject({ code: 'quota_exceeded', quota: { limit: 3, signedInLimit: 5 } });
    expect(over.body.error.message).toMatch(/Sign up to ask 5 a day/);
    expect(Number(over.retryAfter)).toBeGreaterThan(0);
    // The cookie cleared: the address still counts. The address changed: the device still counts.
    expect((await ask({ address: '10.1.0.1' })).status).toBe(429);
    expect((await ask({ address: '10.1.0.2', cookie })).status).toBe(429);
    expect(await battles()).toBe(before);

    // Another visitor behind the same address, with a device of their own, asks as usual.
    expect((await ask({ address: '10.1.0.1', cookie: await device('10.1.0.1') })).status).toBe(202);
    // A client that never keeps cookies counts as its address.
    for (let i = 0; i < 3; i++) expect((await ask({ address: '10.1.0.9' })).status).toBe(202);
    expect((await ask({ address: '10.1.0.9' })).status).toBe(429);
  });

  it('gives a signed-in account its own, larger quota', async () => {
    const user = await firebaseUser();
    await call(`${duet.url}/api/v2/user/signup`, { body: { provider: 'firebase', token: user.idToken, event: 'duet-launch' } });
    const login = await call<LoginResponse>(`${duet.url}/api/v2/user/login`, { body: { provider: 'firebase', token: user.idToken } });
    const session = login.body.data.token;
    // From the address whose anonymous quota is spent.
    for (let i = 0; i < 5; i++) expect((await ask({ address: '10.1.0.1', session })).status).toBe(202);
    const over = await ask({ address: '10.1.0.1', session });
    expect(over.status).toBe(429);
    expect(over.body.error).toMatchObject({ code: 'quota_exceeded', quota: { limit: 5, signedInLimit: null } });
  });

  it('gives a question its place back when a later check refuses it', async () => {
    const cookie = await device('10.1.0.20');
    /** A visitor of their own, to see what the budgets answer now (they are read at most a second old). */
    const probe = async () => (await ask({ address: '10.1.0.21', cookie: await device('10.1.0.21') })).status;
    // Every budget spent: the question passes its quota, then is refused.
    await duet.redis.hset(redisKeys(duet.prefix).budgetOverrides, '*', '0.000001');
    try {
      await waitFor(async () => (await probe()) === 503, { what: 'the budget to be spent' });
      for (let i = 0; i < 5; i++) expect((await ask({ address: '10.1.0.20', cookie })).body.error.code).toBe('budget_exhausted');
    } finally {
      await duet.redis.hdel(redisKeys(duet.prefix).budgetOverrides, '*');
    }
    await waitFor(async () => (await probe()) === 202, { what: 'the budget to be back' });
    for (let i = 0; i < 3; i++) expect((await ask({ address: '10.1.0.20', cookie })).status).toBe(202);
    expect((await ask({ address: '10.1.0.20', cookie })).status).toBe(429);
  });

  it('refuses a forged device cookie: it counts as the address, and gets a real one', async () => {
    const forged = `duet_device=${'A'.repeat(22)}.not-a-signature`;
    const res = await fetch(`${duet.url}/api/meta`, { headers: { cookie: forged } });
    expect(res.headers.get('set-cookie')).toMatch(/^duet_device=/);
    for (let i = 0; i < 3; i++) expect((await ask({ address: '10.1.0.30', cookie: forged })).status).toBe(202);
    // Another forged id from the same address is the same address.
    expect((await ask({ address: '10.1.0.30', cookie: `duet_device=${'B'.repeat(22)}.x` })).status).toBe(429);
  });
});
