import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDuet } from '../helpers/duet.ts';
import { launchBrowser, newPage, startAppDuet } from './browser.ts';

const QUESTION = { tool: 'anything-question', text: 'Is this a person?', lang: 'en' };

/** The proof-of-work a new battle needs, solved by the real client in Chromium while the visitor types. */
describe('the challenge for scripts', () => {
  let duet: TestDuet;
  let browser: Browser;

  beforeAll(async () => {
    duet = await startAppDuet({ BOT_CHALLENGE: 'pow' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await duet?.close();
  });

  const post = (headers: Record<string, string>) =>
    fetch(`${duet.url}/api/battles`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(QUESTION) });

  it('lets a visitor ask with no visible wait, the challenge solved while they type, and refuses its solution a second time', async () => {
    const { context, page } = await newPage(browser, { baseURL: duet.url });
    await page.goto('/anything-question-duet');
    const question = page.getByRole('textbox', { name: 'Your question', exact: true });
    await question.pressSequentially('Why do cats purr when they are content?', { delay: 40 });

    const sent = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/api/battles'));
    const answered = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/api/battles'));
    const clicked = Date.now();
    await page.getByTestId('submit').click();
    const request = await sent;
    // Solved already: the question leaves at once.
    expect(Date.now() - clicked).toBeLessThan(500);
    expect((await answered).status()).toBe(202);
    const solved = request.headers()['x-duet-challenge'];
    expect(solved).toMatch(/^[A-Za-z0-9+/=]+$/);

    // The same solution from anyone else: refused, nothing stored.
    const before = (await duet.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM battles')).rows[0]!.n;
    const replayed = await post({ 'x-duet-challenge': solved! });
    expect(replayed.status).toBe(403);
    expect(((await replayed.json()) as { error: { code: string } }).error.code).toBe('challenge_replayed');
    expect((await duet.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM battles')).rows[0]!.n).toBe(before);

    // The next question goes out at once too: its challenge was solved after the first one left.
    await page.getByTestId('vote-bar').waitFor({ timeout: 40_000 });
    await context.close();
  });

  it('refuses a battle without a solution (403) or with garbage (400), storing nothing', async () => {
    const before = (await duet.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM battles')).rows[0]!.n;
    const none = await post({});
    expect(none.status).toBe(403);
    expect(((await none.json()) as { error: { code: string } }).error.code).toBe('challenge_required');
    for (const garbage of ['garbage', Buffer.from('{"challenge":1}').toString('base64'), 'x'.repeat(5_000), '%%%']) {
      const res = await post({ 'x-duet-challenge': garbage });
      expect(res.status, garbage.slice(0, 20)).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('validation_failed');
    }
    // A real challenge, unsolved: a wrong counter.
    const challenge = (await (await fetch(`${duet.url}/api/challenge`)).json()) as object;
    const wrong = Buffer.from(JSON.stringify({ challenge, solution: { counter: 1, derivedKey: '00'.repeat(32) } })).toString('base64');
    const unsolved = await post({ 'x-duet-challenge': wrong });
    expect(unsolved.status).toBe(403);
    expect(((await unsolved.json()) as { error: { code: string } }).error.code).toBe('challenge_required');
    expect((await duet.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM battles')).rows[0]!.n).toBe(before);
  });
});
