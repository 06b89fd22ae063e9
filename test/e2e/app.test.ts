import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDuet } from '../helpers/duet.ts';
import { waitFor } from '../helpers/wait.ts';
import { DESKTOP, launchBrowser, newPage, PHONE, startAppDuet } from './browser.ts';

/** The whole product in a real browser: built client, gateway, worker, demo models. */
describe('Duet in the browser', () => {
  let duet: TestDuet;
  let browser: Browser;

  beforeAll(async () => {
    duet = await startAppDuet();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await duet?.close();
  });

  const open = (opts: { locale?: string; viewport?: { width: number; height: number } } = {}) =>
    newPage(browser, { baseURL: duet.url, ...opts });

  it('shows the 13 activity cards on the landing page, each with its illustration', async () => {
    const { context, page } = await open();
    await page.goto('/');
    const cards = page.getByTestId('tool-card');
    await expect.poll(() => cards.count()).toBe(13);
    const slugs = await cards.evaluateAll((els) => els.map((e) => e.getAttribute('data-slug')));
    expect(slugs[0]).toBe('title-academy');
    expect(slugs.at(-1)).toBe('anything-question');
    // Every illustration loaded (a broken image has naturalWidth 0).
    const widths = await page.locator('[data-testid="tool-card"] img').evaluateAll((imgs) =>
      Promise.all(
        (imgs as HTMLImageElement[]).map((img) =>
          img.complete ? img.naturalWidth : new Promise<number>((r) => img.addEventListener('load', () => r(img.naturalWidth))),
        ),
      ),
    );
    expect(widths).toHaveLength(13);
    expect(widths.every((w) => w > 0)).toBe(true);
    // Start and History go where the specification says.
    const lyrics = page.locator('[data-slug="makeLyrics"]');
    expect(await lyrics.getByTestId('tool-card-start').getAttribute('href')).toBe('/makeLyrics-duet');
    expect(await lyrics.getByTestId('tool-card-history').getAttribute('href')).toBe('/history/makeLyrics-duet');
    await context.close();
  });

  it('copies a tool’s public URL from its share panel and says so', async () => {
    const { context, page } = await open({ locale: 'ko-KR' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: duet.url });
    await page.goto('/');
    const card = page.locator('[data-slug="math-solve"]');
    await card.getByTestId('tool-card-share').click();
    const input = card.getByTestId('share-input');
    expect(await input.inputValue()).toBe(`${duet.url}/math-solve-duet1`);
    expect(await input.getAttribute('readonly')).not.toBeNull();
    await card.getByTestId('share-copy').click();
    await expect.poll(() => card.getByTestId('copy-popover').textContent()).toBe('복사되었습니다');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${duet.url}/math-solve-duet1`);
    // Share toggles the panel closed again.
    await card.getByTestId('tool-card-share').click();
    await expect.poll(() => card.getByTestId('share-input').count()).toBe(0);
    await context.close();
  });

  it('chooses Korean for a Korean browser, and keeps a language switch across reloads', async () => {
    const { context, page } = await open({ locale: 'ko-KR' });
    await page.goto('/');
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('ko');
    expect(await page.evaluate(() => localStorage.getItem('duet_language'))).toBe('ko');
    await page.getByTestId('language-switch').getByRole('button', { name: 'English' }).click();
    await expect.poll(() => page.getByTestId('site-header').textContent()).toContain('Signup benefit !');
    await page.reload();
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('en');
    expect(await page.evaluate(() => localStorage.getItem('duet_language'))).toBe('en');
    expect(await page.locator('[data-slug="makeLyrics"]').getByTestId('tool-card-title').textContent()).toBe('Poems & Lyrics');
    await context.close();

    const english = await open({ locale: 'en-US' });
    await english.page.goto('/');
    await expect.poll(() => english.page.evaluate(() => document.documentElement.lang)).toBe('en');
    await english.context.close();
  });

  it('runs a full battle: both panes stream, the vote reveals the models, history lists it with percentages', async () => {
    const { context, page } = await open();
    await page.goto('/makeLyrics-duet');
    await page.getByRole('textbox', { name: 'Title', exact: true }).fill('Harbor lights');
    await page.getByTestId('keyword-1').fill('salt');
    await page.getByTestId('submit').click();
    // Both panes stream: text appears before they are done.
    await expect.poll(() => page.getByTestId('answer-a').getAttribute('data-state'), { timeout: 20_000 }).toBe('streaming');
    await expect.poll(async () => ((await page.getByTestId('answer-b').textContent()) ?? '').length, { timeout: 20_000 }).toBeGreaterThan(60);
    const progress = page.getByRole('progressbar', { name: 'Model A progress' });
    await expect.poll(async () => Number(await progress.getAttribute('aria-valuenow')), { timeout: 30_000 }).toBe(100);
    await expect.poll(() => page.getByTestId('answer-b').getAttribute('data-state'), { timeout: 30_000 }).toBe('done');
    expect(await page.getByTestId('answer-a').textContent()).toContain('Harbor lights');
    // Blind: the figures wait for the vote.
    expect(await page.getByTestId('stats-a').count()).toBe(0);

    await page.getByRole('button', { name: 'A is better' }).click();
    const reveal = page.getByTestId('reveal-a');
    await expect.poll(() => reveal.textContent()).toMatch(/Demo (Atlas|Sonnet)/);
    await expect.poll(() => page.getByTestId('stats-a').textContent()).toMatch(/\d/);
    const picked = (await reveal.textContent())!.includes('Atlas') ? 'Demo Atlas' : 'Demo Sonnet';
    await expect.poll(() => page.getByTestId('vote-result').getByTestId('win-rate').count()).toBe(2);

    await page.goto('/history/makeLyrics-duet');
    await expect.poll(() => page.getByTestId('history-entry').count()).toBeGreaterThan(0);
    const entry = page.getByTestId('history-entry').first();
    expect(await entry.getAttribute('data-winner')).toBe('a');
    expect(await entry.textContent()).toContain('Harbor lights');
    const winner = page.getByTestId('win-rate').filter({ hasText: picked });
    await expect.poll(() => winner.getByTestId('win-rate-percent').textContent()).toMatch(/^\d+(\.\d)?%$/);
    expect(Number.parseFloat((await winner.getByTestId('win-rate-percent').textContent())!)).toBeGreaterThan(0);
    // Answers are collapsed until asked for.
    expect(await entry.getByTestId('history-answer-a').isVisible()).toBe(false);
    await entry.getByTestId('history-toggle-a').click();
    expect(await entry.getByTestId('history-answer-a').isVisible()).toBe(true);
    await context.close();
  });

  it('updates a watching browser’s percentages when someone else votes', async () => {
    const watcher = await open();
    await watcher.page.goto('/history/rap-lyrics-duet');
    await expect.poll(() => watcher.page.getByTestId('win-rates-empty').count()).toBe(1);

    const voter = await open();
    await voter.page.goto('/rap-lyrics-duet');
    await voter.page.getByRole('textbox', { name: 'Title', exact: true }).fill('Night shift');
    await voter.page.getByTestId('keyword-1').fill('neon');
    await voter.page.getByTestId('submit').click();
    await expect.poll(() => voter.page.getByTestId('vote-bar').count(), { timeout: 40_000 }).toBe(1);
    await voter.page.getByRole('button', { name: 'B is better' }).click();

    // The watcher did not reload: the socket brought the new figures.
    await expect.poll(() => watcher.page.getByTestId('win-rate').count(), { timeout: 10_000 }).toBe(2);
    const percents = await watcher.page.getByTestId('win-rate-percent').allTextContents();
    expect(percents.sort()).toEqual(['0%', '100%'].sort());
    await watcher.context.close();
    await voter.context.close();
  });

  it('refuses invalid inputs with their messages before sending anything', async () => {
    const { context, page } = await open();
    let battlesPosted = 0;
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/api/battles')) battlesPosted += 1;
    });

    await page.goto('/anything-question-duet');
    const question = page.getByRole('textbox', { name: 'Your question', exact: true });
    await question.fill('x'.repeat(2_001));
    await expect.poll(() => page.getByTestId('text-counter').textContent()).toContain('2,001');
    await expect.poll(() => page.getByRole('alert').allTextContents()).toContainEqual(expect.stringMatching(/2,000/));
    expect(await page.getByTestId('submit').isDisabled()).toBe(true);

    await page.goto('/makeLyrics-duet');
    await page.getByTestId('keyword-1').fill('abcdefghijk');
    await expect.poll(() => page.getByRole('alert').allTextContents()).toContainEqual(expect.stringMatching(/10/));
    expect(await page.getByTestId('keyword-6').count()).toBe(0);

    await page.goto('/math-solve-duet1');
    await page.getByTestId('image-input').setInputFiles({ name: 'homework.png', mimeType: 'image/png', buffer: Buffer.from('not an image at all') });
    await expect.poll(() => page.getByRole('alert').allTextContents()).toContainEqual(expect.stringMatching(/PNG|JPEG|GIF|WebP/i));
    const big = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(5 * 1024 * 1024)]);
    await page.getByTestId('image-input').setInputFiles({ name: 'big.png', mimeType: 'image/png', buffer: big });
    await expect.poll(() => page.getByRole('alert').allTextContents()).toContainEqual(expect.stringMatching(/4\.5 ?MB/));
    await page.getByTestId('submit').click({ trial: false }).catch(() => undefined);
    expect(battlesPosted).toBe(0);
    await context.close();
  });

  it('drops an expired session and carries on anonymously instead of refusing the battle', async () => {
    const { context, page } = await open();
    await page.goto('/quiz-solving-duet');
    // A session that went stale while the page was open.
    await page.evaluate(() => localStorage.setItem('duet_access_token', 'expired.session.token'));
    const statuses: number[] = [];
    page.on('response', (r) => {
      if (r.request().method() === 'POST' && r.url().endsWith('/api/battles')) statuses.push(r.status());
    });
    await page.getByRole('textbox', { name: 'Your question', exact: true }).fill('Is this still anonymous?');
    await page.getByTestId('submit').click();
    await expect.poll(() => statuses).toEqual([412, 202]);
    expect(await page.evaluate(() => localStorage.getItem('duet_access_token'))).toBeNull();
    await expect.poll(() => page.getByTestId('vote-bar').count(), { timeout: 30_000 }).toBe(1);
    const { rows } = await duet.db.pool.query('SELECT user_id FROM battles WHERE text = $1', ['Is this still anonymous?']);
    expect(rows).toEqual([{ user_id: null }]);
    await context.close();
  });

  it('shows the 404 page, an image only, for any other path', async () => {
    const { context, page } = await open();
    const res = await page.goto('/no-such-activity');
    expect(res?.status()).toBe(200);
    const notFound = page.getByTestId('not-found');
    await expect.poll(() => notFound.locator('img').count()).toBe(1);
    expect(((await notFound.textContent()) ?? '').trim()).toBe('');
    await page.goto('/history/no-such-activity');
    await expect.poll(() => page.getByTestId('not-found').count()).toBe(1);
    await context.close();
  });

  it('resumes a battle from its snapshot after a reload mid-stream', async () => {
    const { context, page } = await open({ viewport: PHONE });
    await page.goto('/quiz-solving-duet');
    await page.getByRole('textbox', { name: 'Your question', exact: true }).fill('What is 12 times 12?');
    await page.getByTestId('submit').click();
    await expect.poll(async () => ((await page.getByTestId('answer-a').textContent()) ?? '').length, { timeout: 20_000 }).toBeGreaterThan(40);
    await page.reload();
    await expect.poll(() => page.getByTestId('answer-a').getAttribute('data-state'), { timeout: 30_000 }).toBe('done');
    await expect.poll(() => page.getByTestId('answer-b').getAttribute('data-state'), { timeout: 30_000 }).toBe('done');
    // The shown text is the stored answer exactly: nothing lost or doubled by the reload.
    const { rows } = await duet.db.pool.query<{ side: string; text: string }>(
      `SELECT side, a.text FROM answers a JOIN battles b ON b.id = a.battle_id WHERE b.text = $1 ORDER BY side`,
      ['What is 12 times 12?'],
    );
    expect(rows).toHaveLength(2);
    // Markdown rendering drops markup and list numbers but keeps every letter, once.
    const letters = (t: string) => t.replace(/[^\p{L}]/gu, '');
    const shown = letters(await page.getByTestId('answer-a').innerText());
    const stored = letters(rows[0]!.text);
    expect(stored.length).toBeGreaterThan(50);
    // Exactly once, and nothing of it again: the pane's own labels are short, a doubled answer is not.
    expect(shown.split(stored).length - 1).toBe(1);
    expect(shown.length).toBeLessThan(stored.length * 2);
    await context.close();
  });

  it('moves the header controls into a drawer on a phone', async () => {
    const { context, page } = await open({ viewport: PHONE });
    await page.goto('/');
    const menu = page.getByTestId('header-menu-button');
    expect(await menu.isVisible()).toBe(true);
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    await menu.click();
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    await expect.poll(() => page.getByRole('dialog').getByRole('button', { name: 'Sign Up' }).isVisible()).toBe(true);
    await context.close();
    const desktop = await open({ viewport: DESKTOP });
    await desktop.page.goto('/');
    expect(await desktop.page.getByTestId('header-menu-button').isVisible()).toBe(false);
    await desktop.context.close();
  });

  it('rates the models of a board of one vote as provisional, with no rank and no interval of zero width, and shows honest win rates', async () => {
    const { context, page } = await open();
    // The one counted vote on this tool is from the battle above; wait for the job to rate it.
    await page.goto('/leaderboard?tool=makeLyrics-duet');
    await expect.poll(() => page.getByTestId('leaderboard-row').count(), { timeout: 15_000 }).toBe(2);
    const row = page.getByTestId('leaderboard-row').first();
    expect(await row.getAttribute('data-provisional')).toBe('true');
    expect(await row.getByTestId('leaderboard-rank').textContent()).not.toMatch(/\d/);
    expect(Number((await row.getByTestId('leaderboard-rating').textContent())!.replace(/[^\d.]/g, ''))).toBeGreaterThan(900);
    // The bootstrap of one vote never varies: no interval, rather than "−0 / +0".
    expect(await row.getByTestId('leaderboard-interval').getAttribute('data-low')).toBe('');
    expect(new URL(page.url()).searchParams.get('tool')).toMatch(/makeLyrics/);

    await page.goto('/history/makeLyrics-duet');
    await expect.poll(() => page.getByTestId('win-rate-interval').count()).toBe(2);
    expect(await page.getByTestId('win-rate-interval').first().textContent()).toMatch(/95%.*\d+.\d*%?/);
    await page.getByTestId('leaderboard-link').click();
    await waitFor(() => new URL(page.url()).pathname === '/leaderboard', { what: 'the leaderboard link' });
    await context.close();
  });

  it('lets one FAQ item be open at a time on the introduction page', async () => {
    const { context, page } = await open();
    await page.goto('/main');
    const hero = page.getByTestId('intro-hero');
    expect(Math.round((await hero.boundingBox())!.height)).toBe(650);
    const items = page.getByTestId('faq-item');
    await expect.poll(() => items.count()).toBe(4);
    const toggles = items.locator('button[aria-expanded]');
    await toggles.nth(0).click();
    await toggles.nth(2).click();
    expect(await toggles.evaluateAll((els) => els.map((e) => e.getAttribute('aria-expanded')))).toEqual(['false', 'false', 'true', 'false']);
    await toggles.nth(2).click();
    expect(await toggles.evaluateAll((els) => els.filter((e) => e.getAttribute('aria-expanded') === 'true').length)).toBe(0);
    await page.getByTestId('intro-explore').click();
    await waitFor(() => new URL(page.url()).pathname === '/', { what: 'Explore Now to go home' });
    await context.close();
  });
});
