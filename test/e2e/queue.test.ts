import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlmServer } from '../fakes/fake-llm-server.ts';
import type { FakeLlmServer } from '../fakes/fake-llm-server.ts';
import type { TestDuet } from '../helpers/duet.ts';
import { askAnything, fakeModels, launchBrowser, newPage, paneState, startAppDuet } from './browser.ts';

/** How long the models take to their first token once asked: long enough to see a battle out of the line but not yet answered. */
const FIRST_TOKEN_MS = 8_000;

/** What visitors see of a long queue, in a real browser: their place in line, then their answers; past the cap, a clear refusal. */
describe('a campaign’s queue, as visitors see it', () => {
  let fake: FakeLlmServer;
  let duet: TestDuet;
  let browser: Browser;

  beforeAll(async () => {
    fake = await startFakeLlmServer();
    fake.setDefault({ text: 'Mount Everest, at 8,849 metres above sea level.', ttftMs: FIRST_TOKEN_MS });
    // No worker at first: every question waits. Two may wait; the third is refused.
    duet = await startAppDuet({ ...fakeModels(fake), QUEUE_MAX_WAITING: '2', QUEUE_WATCH_INTERVAL_MS: '100' }, { noWorker: true });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await duet?.close();
    await fake?.close();
  });

  const ask = async (question: string, locale = 'en-US'): Promise<Page> => {
    const { page } = await newPage(browser, { baseURL: duet.url, locale });
    await askAnything(page, question);
    return page;
  };
  const place = (page: Page) => page.getByTestId('queue-place');
  const status = (page: Page, side: 'a' | 'b') => page.getByTestId(`status-${side}`).textContent();
  const storedBattles = async () => Number((await duet.db.pool.query<{ n: string }>('SELECT count(*) AS n FROM battles')).rows[0]!.n);

  it('shows each waiting visitor their place in line, refuses a question past the cap without storing it, and says when a worker has taken theirs', async () => {
    const first = await ask('What is the tallest mountain?');
    await expect.poll(() => place(first).textContent(), { timeout: 15_000 }).toBe('Your question is number 1 in line.');
    // No model has been asked yet: the panes say so instead of "Thinking…".
    expect([await status(first, 'a'), await status(first, 'b'), await first.getByTestId('submit').textContent()]).toEqual(['In line…', 'In line…', 'In line…']);
    const second = await ask('산에서 가장 높은 곳은 어디인가요?', 'ko-KR');
    await expect.poll(() => place(second).textContent(), { timeout: 15_000 }).toBe('질문이 대기열 2번째에 있어요.');
    // Read out to a screen reader once, from the page's live region (the banner itself is not one: it may move every second).
    expect(await second.getByTestId('battle-announcer').textContent()).toBe('질문이 대기열 2번째에 있어요.');
    expect(await place(second).getAttribute('aria-live')).toBeNull();
    expect(await status(second, 'b')).toBe('대기 중…');

    // A third visitor, while two wait: told to come back, and nothing of theirs is kept.
    const third = await ask('What is the deepest lake?');
    await expect.poll(() => third.getByText('So many questions are waiting right now').count(), { timeout: 15_000 }).toBe(1);
    expect(await third.getByTestId('answer-a').count()).toBe(0);
    expect(await storedBattles()).toBe(2);

    // A worker takes both: out of the line at once, the models asked, before their first token.
    await duet.startWorker();
    for (const [page, thinking] of [
      [first, 'Thinking…'],
      [second, '생각하는 중…'],
    ] as const) {
      await expect.poll(() => status(page, 'a'), { timeout: FIRST_TOKEN_MS - 1_000 }).toBe(thinking);
      expect(await place(page).count()).toBe(0);
      expect(await page.getByTestId('submit').textContent()).not.toMatch(/In line|대기 중/);
      expect(await paneState(page, 'a')).toBe('waiting');
    }
    for (const page of [first, second]) {
      for (const side of ['a', 'b'] as const) await expect.poll(() => paneState(page, side), { timeout: 30_000 }).toBe('done');
    }
  });
});
