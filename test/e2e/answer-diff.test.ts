import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlmServer } from '../fakes/fake-llm-server.ts';
import type { FakeLlmServer } from '../fakes/fake-llm-server.ts';
import type { TestDuet } from '../helpers/duet.ts';
import { wcagViolations } from './axe.ts';
import { askAnything, CLAUDE, COMPAT, DESKTOP, fakeModels, launchBrowser, newPage, paneState, PHONE, startAppDuet } from './browser.ts';

/** Two answers to one question, what each alone has, and the words a visitor and a screen reader meet. */
interface Case {
  locale: string;
  question: string;
  compat: string;
  claude: string;
  /** The marked stretches of each model's answer, in order. */
  onlyCompat: string[];
  onlyClaude: string[];
  /** A passage both answers have: never marked. */
  shared: string;
  toggle: string;
  onlyStart: (side: string) => string;
  onlyEnd: string;
  legend: (count: number, side: string) => string;
  vote: string;
}

const CASES: Case[] = [
  {
    locale: 'en-US',
    question: 'What is the capital of Australia?',
    compat: 'The capital of Australia is **Canberra**, chosen in 1908 as a compromise between Sydney and Melbourne.',
    claude: 'The capital of Australia is **Canberra**, picked in 1908 as a compromise between Sydney and Melbourne, the two largest cities.',
    onlyCompat: ['chosen'],
    onlyClaude: ['picked', ', the two largest cities'],
    shared: 'in 1908 as a compromise between Sydney and Melbourne',
    toggle: 'Show differences',
    onlyStart: (side) => `Only in ${side}:`,
    onlyEnd: '(end of difference)',
    legend: (count, side) => `${count} ${count === 1 ? 'passage is' : 'passages are'} only in answer ${side}.`,
    vote: 'A is better',
  },
  {
    locale: 'ko-KR',
    question: '호주의 수도는 어디인가요?',
    compat: '호주의 수도는 캔버라예요. 시드니와 멜버른 사이의 타협으로 정해졌어요.',
    claude: '호주의 수도는 캔버라입니다. 시드니와 멜버른이 서로 양보해서 정해졌어요.',
    // A Korean phrase that kept most of itself is marked by character; one that did not, whole.
    onlyCompat: ['예요', '사이의 타협으로'],
    onlyClaude: ['입니다', '이 서로 양보해서'],
    shared: '호주의 수도는 캔버라',
    toggle: '차이 보기',
    onlyStart: (side) => `${side} 답변에만 있음:`,
    onlyEnd: '(차이 끝)',
    legend: (count, side) => `${side} 답변에만 있는 부분: ${count}곳`,
    vote: 'A가 더 좋아요',
  },
];

const roster = (fake: FakeLlmServer) => ({
  ...fakeModels(fake),
  // History lists moderated battles only: the word list decides at once, and the sweep catches up fast.
  MODERATION: 'wordlist',
  MODERATION_INTERVAL_MS: '300',
});

/** The text of an element as it is seen, the screen reader's words (`.visually-hidden`) left out. */
const seenText = (el: Locator) =>
  el.evaluate((node) => {
    const copy = node.cloneNode(true) as HTMLElement;
    copy.querySelectorAll('.visually-hidden').forEach((h) => h.remove());
    return copy.textContent;
  });

/** Each marked stretch in `root`: as seen, and as a screen reader reads it. */
const marks = (root: Locator) =>
  root.locator('mark[data-diff="only"]').evaluateAll((els) =>
    els.map((el) => {
      const copy = el.cloneNode(true) as HTMLElement;
      copy.querySelectorAll('.visually-hidden').forEach((h) => h.remove());
      return { seen: copy.textContent, read: el.textContent };
    }),
  );

/** The difference toggle: off by default, on the answers live on the tool page and on each entry in history. */
describe('the difference between the two answers in the browser', () => {
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

  /**
   * Checks both answers in difference mode within `root`: each marked stretch as expected and read
   * out with its side, the shared passage unmarked, the text whole, the legend counting the marks.
   */
  async function expectMarked(root: Locator, c: Case, compatSide: 'a' | 'b') {
    for (const side of ['a', 'b'] as const) {
      const label = side.toUpperCase();
      const [text, only] = side === compatSide ? [c.compat, c.onlyCompat] : [c.claude, c.onlyClaude];
      const diff = root.getByTestId(`diff-${side}`);
      const read = only.map((seen) => `${c.onlyStart(label)} ${seen} ${c.onlyEnd}`);
      expect(await marks(diff)).toEqual(only.map((seen, i) => ({ seen, read: read[i] })));
      // The browser gives screen readers each marked stretch as a mark named with its side.
      expect(await diff.locator('mark[data-diff="only"]').first().ariaSnapshot()).toContain(`mark: "${read[0]}"`);
      expect(await seenText(diff.locator('.adiff__text'))).toBe(text);
      expect(await diff.locator('[data-diff="same"]', { hasText: c.shared }).count()).toBe(1);
      expect(await diff.locator('.adiff__legend > span').textContent()).toBe(c.legend(only.length, label));
      // Marked by more than colour: an underline.
      expect(await diff.locator('mark[data-diff="only"]').first().evaluate((m) => getComputedStyle(m).textDecorationLine)).toBe('underline');
    }
  }

  it('marks where the answers differ once turned on, in English and Korean, on a phone and a desktop, live and in history', async () => {
    for (const c of CASES) {
      fake.scenario(COMPAT, { text: c.compat });
      fake.scenario(CLAUDE, { text: c.claude });
      const { context, page } = await newPage(browser, { baseURL: duet.url, locale: c.locale, viewport: PHONE, reducedMotion: 'reduce' });
      const tag = c.locale.slice(0, 2);
      await askAnything(page, c.question);
      for (const side of ['a', 'b'] as const) await expect.poll(() => paneState(page, side), { timeout: 20_000 }).toBe('done');
      // Which model answers as A is drawn at random.
      const compatSide = (await page.getByTestId('answer-a').textContent())!.includes(c.onlyCompat.at(-1)!) ? 'a' : 'b';

      // Off by default: the answers render as Markdown, as they always have.
      const toggle = page.getByTestId('diff-toggle');
      expect(await toggle.textContent()).toBe(c.toggle);
      expect(await toggle.getAttribute('aria-pressed')).toBe('false');
      await expectMarkdown(page.getByTestId('battle'));

      await page.getByRole('button', { name: c.toggle }).click();
      expect(await toggle.getAttribute('aria-pressed')).toBe('true');
      const battle = page.getByTestId('battle');
      await expectMarked(battle, c, compatSide);
      expect(await battle.locator('[data-render]').count()).toBe(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      await battle.screenshot({ path: `/tmp/answer-diff-live-phone-${tag}.png` });
      expect(await wcagViolations(page)).toEqual([]);
      await page.setViewportSize(DESKTOP);
      await battle.screenshot({ path: `/tmp/answer-diff-live-desktop-${tag}.png` });
      expect(await wcagViolations(page)).toEqual([]);

      // Off again: back to Markdown; then the vote, which puts the battle in history.
      await toggle.click();
      await expectMarkdown(battle);
      await page.getByRole('button', { name: c.vote }).click();
      await page.getByTestId('vote-result').waitFor();

      await page.goto('/history/anything-question-duet');
      const entry = page.getByTestId('history-entry').filter({ hasText: c.question });
      await expect.poll(() => entry.count(), { timeout: 20_000 }).toBe(1);
      const entryToggle = entry.getByTestId('history-diff-toggle');
      expect(await entryToggle.getAttribute('aria-pressed')).toBe('false');
      expect(await entry.getByTestId('history-answer-a').isHidden()).toBe(true);
      await entryToggle.click();
      expect(await entryToggle.getAttribute('aria-pressed')).toBe('true');
      await expectMarked(entry, c, compatSide);
      await entry.screenshot({ path: `/tmp/answer-diff-history-desktop-${tag}.png` });
      expect(await wcagViolations(page)).toEqual([]);
      await page.setViewportSize(PHONE);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      await entry.screenshot({ path: `/tmp/answer-diff-history-phone-${tag}.png` });
      expect(await wcagViolations(page)).toEqual([]);

      // Off: the opened answers show as Markdown again.
      await entryToggle.click();
      await expectMarkdown(entry);
      await context.close();
    }
  }, 120_000);
});

/** Both answers rendered by the Markdown renderer, nothing marked. */
async function expectMarkdown(root: Locator) {
  await expect.poll(() => root.locator('[data-render="markdown"]').count()).toBe(2);
  expect(await root.locator('.adiff, mark').count()).toBe(0);
}
