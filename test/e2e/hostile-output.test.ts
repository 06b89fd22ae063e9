import { redisKeys } from '@duet/contracts';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlmServer } from '../fakes/fake-llm-server.ts';
import type { FakeLlmServer } from '../fakes/fake-llm-server.ts';
import type { TestDuet } from '../helpers/duet.ts';
import { askAnything as ask, CLAUDE, COMPAT, fakeModels, launchBrowser, newPage, paneState, startAppDuet } from './browser.ts';

const roster = (fake: FakeLlmServer) => ({
  ...fakeModels(fake),
  // History lists moderated battles only: the word list decides at once, and the sweep catches up fast.
  MODERATION: 'wordlist',
  MODERATION_INTERVAL_MS: '300',
});

/** Block quotes nested 3,000 deep in 3 KB: enough to overflow Chromium's stack in the Markdown renderer. */
const QUOTE_BOMB = `Here is my answer:\n\n${'>'.repeat(3_000)} the bottom`;
/** A list indented one level deeper on every line, then one nested 1,500 deep on a single line (3 KB, also an overflow). */
const LIST_BOMB = [
  'Steps:',
  '',
  ...Array.from({ length: 40 }, (_, i) => `${'  '.repeat(i)}- step ${i + 1}`),
  '',
  `${'- '.repeat(1_500)}the bottom`,
].join('\n');

const ASK_ROUTE = '/anything-question-duet';

/** What visitors see when answers are hostile or figures are held back, in a real browser. */
describe('answers from the public internet', () => {
  let fake: FakeLlmServer;
  let duet: TestDuet;
  let browser: Browser;

  beforeAll(async () => {
    fake = await startFakeLlmServer();
    duet = await startAppDuet(roster(fake));
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await duet?.close();
    await fake?.close();
  });
  afterEach(() => fake.reset());

  /**
   * A page that records uncaught errors (a render that throws past every boundary) and stack
   * overflows React caught and logged (a boundary saved the page, but the renderer was fed the bomb).
   */
  const open = async (locale = 'en-US') => {
    const opened = await newPage(browser, { baseURL: duet.url, locale });
    const errors: string[] = [];
    opened.page.on('pageerror', (err) => errors.push(err.message));
    opened.page.on('console', (msg) => {
      if (msg.type() === 'error' && /Maximum call stack/i.test(msg.text())) errors.push(msg.text());
    });
    return { ...opened, errors };
  };


  const bothDone = async (page: Page) => {
    for (const side of ['a', 'b'] as const) await expect.poll(() => paneState(page, side), { timeout: 20_000 }).toBe('done');
  };

  it('shows a Markdown bomb as plain text in both panes, takes the vote, and lists it in history', async () => {
    fake.scenario(COMPAT, { text: QUOTE_BOMB });
    fake.scenario(CLAUDE, { text: LIST_BOMB });
    const { context, page, errors } = await open();
    const question = 'Show me something deeply nested';
    await ask(page, question);
    await bothDone(page);

    // Each answer is there, every character as the model sent it, as text: no quote or list elements.
    const plain = (side: 'a' | 'b') => page.getByTestId(`answer-${side}`).locator('[data-render="plain"]').textContent();
    expect([await plain('a'), await plain('b')].sort()).toEqual([QUOTE_BOMB, LIST_BOMB].sort());
    expect(await page.getByTestId('battle').locator('blockquote, li').count()).toBe(0);
    expect(await page.getByTestId('site-header').isVisible()).toBe(true);

    await page.getByRole('button', { name: 'A is better' }).click();
    await expect.poll(() => page.getByTestId('reveal-a').textContent()).toMatch(/Fake (Compat|Claude)/);

    await page.goto(`/history${ASK_ROUTE}`);
    const entry = page.getByTestId('history-entry').filter({ hasText: question });
    await expect.poll(() => entry.count(), { timeout: 20_000 }).toBe(1);
    await entry.getByTestId('history-toggle-a').click();
    await entry.getByTestId('history-toggle-b').click();
    // The Markdown renderer loads on demand: wait for both answers to be rendered by it.
    await expect.poll(() => entry.locator('[data-render="plain"]').count()).toBe(2);
    const shown = await entry.locator('[data-render="plain"]').allTextContents();
    expect(shown.sort()).toEqual([QUOTE_BOMB, LIST_BOMB].sort());
    expect(await page.getByTestId('page-error').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('keeps speed and token figures back until the vote of a blind battle, then shows them', async () => {
    fake.setDefault({ text: 'Tides follow the Moon: its pull raises the sea on the near and far sides.', ttftMs: 40 });
    const { context, page, errors } = await open();
    await ask(page, 'Why are there tides?');
    await bothDone(page);

    for (const side of ['a', 'b'] as const) {
      expect(await page.getByTestId(`stats-${side}`).count()).toBe(0);
      expect(await page.getByTestId(`stats-note-${side}`).textContent()).toBe('Speed and token figures appear after your vote.');
    }
    const before = await page.getByTestId('battle').innerText();
    expect(before).not.toMatch(/First token|Tokens|tok\/s|\d s\b/);

    await page.getByRole('button', { name: 'Tie' }).click();
    for (const side of ['a', 'b'] as const) {
      const stats = page.getByTestId(`stats-${side}`);
      await expect.poll(() => stats.count()).toBe(1);
      const text = await stats.innerText();
      expect(text).toMatch(/First token\s+\d+\.\d s/);
      expect(text).toMatch(/Total time\s+\d+\.\d s/);
      expect(text).toMatch(/Tokens\s+\d+/);
      expect(await page.getByTestId(`stats-note-${side}`).count()).toBe(0);
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it('says Saving… and keeps the vote closed while PostgreSQL is slow to store the answers', async () => {
    // Holding this lock makes every INSERT into answers wait; reads go on.
    const db = await duet.db.pool.connect();
    await db.query('BEGIN');
    await db.query('LOCK TABLE answers IN SHARE MODE');
    const { context, page, errors } = await open('ko-KR');
    try {
      await ask(page, '밀물과 썰물은 왜 생기나요?');
      for (const side of ['a', 'b'] as const) {
        await expect.poll(() => paneState(page, side), { timeout: 30_000 }).toBe('saving');
        expect(await page.getByTestId(`status-${side}`).textContent()).toBe('저장 중…');
      }
      await expect.poll(() => page.getByTestId('vote-saving').count()).toBe(1);
      const buttons = page.getByTestId('vote-bar').getByRole('button');
      expect(await buttons.count()).toBe(4);
      expect(await buttons.evaluateAll((els) => els.every((b) => (b as HTMLButtonElement).disabled))).toBe(true);
    } finally {
      await db.query('ROLLBACK');
      db.release();
    }
    await bothDone(page);
    await page.getByRole('button', { name: 'A가 더 좋아요' }).click();
    await expect.poll(() => page.getByTestId('vote-result').count()).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('re-joins a stream that lost its events a handful of times, with growing pauses, not once per delta', async () => {
    const words = Array.from({ length: 300 }, (_, i) => `word${i + 1}`).join(' ');
    fake.setDefault({ text: words, tokensPerSecond: 50 });
    const { context, page, errors } = await open();
    const joins: number[] = [];
    let dropped = false;
    // Between browser and gateway: count the joins, and lose the message with side A's delta 20 on the way in.
    await page.routeWebSocket(/\/socket\.io\//, (ws) => {
      const server = ws.connectToServer();
      ws.onMessage((m) => {
        if (typeof m === 'string' && m.includes('"battle:join"')) joins.push(Date.now());
        server.send(m);
      });
      server.onMessage((m) => {
        if (!dropped && typeof m === 'string' && /^42\["battle:events",\[.*\{"type":"delta"[^}]*"side":"a"[^}]*"seq":20[,}]/.test(m)) {
          dropped = true;
          return;
        }
        ws.send(m);
      });
    });
    await ask(page, 'Count to three hundred');
    await expect.poll(() => joins.length, { timeout: 10_000 }).toBe(1);
    const battleId = await page.evaluate(() => JSON.parse(sessionStorage.getItem('duet_battle_anything-question') ?? '{}').battleId as string);
    // Redis loses the battle's stream (a restart): no snapshot can fill the gap the lost delta leaves.
    await duet.redis.del(redisKeys(duet.prefix).battleStream(battleId));
    await expect.poll(() => dropped, { timeout: 15_000 }).toBe(true);
    await bothDone(page);

    // Every later delta arrives after the gap, yet after one join at once the joins thin out:
    // 250 ms, 500 ms, 1 s… apart, instead of one per delta.
    expect(joins.length).toBeGreaterThanOrEqual(4);
    expect(joins.length).toBeLessThan(12);
    const pauses = joins.slice(2).map((t, i) => t - joins[i + 1]!);
    pauses.forEach((pause, i) => expect(pause).toBeGreaterThanOrEqual(Math.min(250 * 2 ** i, 5_000)));
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows a message with a reload button, between the header and footer, when a page fails', async () => {
    const { context, page } = await open('ko-KR');
    // A page script that cannot be loaded (a deploy replaced it) makes the page throw.
    const historyChunk = /\/assets\/HistoryPage-[^/]*\.js$/;
    await page.route(historyChunk, (route) => route.abort());
    await page.goto(`/history${ASK_ROUTE}`);
    const failure = page.getByTestId('page-error');
    await expect.poll(() => failure.count()).toBe(1);
    expect(await failure.getByRole('heading').textContent()).toBe('이 페이지에 문제가 생겼어요');
    expect(await page.getByTestId('site-header').isVisible()).toBe(true);
    expect(await page.getByTestId('site-footer').isVisible()).toBe(true);

    await page.unroute(historyChunk);
    await failure.getByRole('button', { name: '페이지 새로고침' }).click();
    // The page loads this time.
    await expect.poll(() => page.getByTestId('tool-link').count()).toBe(1);
    expect(await page.getByTestId('page-error').count()).toBe(0);
    await context.close();
  });
});
