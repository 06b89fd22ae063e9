import { findTool } from '@duet/contracts/catalog';
import type { Winner } from '@duet/contracts';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDuet } from '../helpers/duet.ts';
import { wcagViolations } from './axe.ts';
import { DESKTOP, launchBrowser, newPage, PHONE, startAppDuet } from './browser.ts';

interface AskedBattle {
  id: string;
  models: { a: string; b: string };
  labels: { a: string; b: string };
}

/**
 * After the vote: why the visitor voted as they did (chips, sent once, counted on the leaderboard),
 * and the duel's own page to share (its link, the phone's share sheet, the page and its preview).
 */
describe('after the vote in the browser', () => {
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

  const open = (locale: string, viewport: { width: number; height: number }) => newPage(browser, { baseURL: duet.url, locale, viewport, reducedMotion: 'reduce' });

  const storedReasons = async (battleId: string) =>
    (await duet.db.pool.query<{ reasons: string[] }>('SELECT reasons FROM votes WHERE battle_id = $1', [battleId])).rows[0]?.reasons;

  /** Asks `question` on `slug`'s page (each test its own tool, so its board is its own), waits for both answers, and votes. */
  async function askAndVote(page: Page, slug: string, question: string, winner: Winner): Promise<AskedBattle> {
    await page.goto(findTool(slug)!.route);
    await page.getByRole('textbox', { name: /^(Your question|질문)$/ }).fill(question);
    await page.getByTestId('submit').click();
    // The choices open once both answers are stored; a click waits for its button to be enabled.
    await page.getByTestId('vote-bar').waitFor({ timeout: 40_000 });
    await page.getByTestId(`vote-${winner}`).click({ timeout: 40_000 });
    await page.getByTestId('vote-reasons').waitFor();
    const { rows } = await duet.db.pool.query<{ id: string; model_a: string; model_b: string; label_a: string; label_b: string }>(
      'SELECT id, model_a, model_b, label_a, label_b FROM battles WHERE tool = $1 AND text = $2',
      [slug, question],
    );
    expect(rows).toHaveLength(1);
    const b = rows[0]!;
    return { id: b.id, models: { a: b.model_a, b: b.model_b }, labels: { a: b.label_a, b: b.label_b } };
  }

  /** The chips as the page has them: each question with its reasons and whether each is pressed. */
  const chipGroups = (page: Page) =>
    page.getByTestId('vote-reasons').locator('[role="group"]').evaluateAll((groups) =>
      groups.map((g) => ({
        question: g.querySelector('p')?.textContent,
        chips: [...g.querySelectorAll('button')].map((b) => `${b.getAttribute('data-reason')}:${b.getAttribute('aria-pressed')}`),
      })),
    );

  /** The reasons whose chips are pressed, as screen readers learn it. */
  const pressed = (page: Page) =>
    page
      .getByTestId('vote-reasons')
      .getByRole('button', { pressed: true })
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-reason')));

  /** What the panel says was sent, question by question. */
  const sentGroups = (page: Page) =>
    page.getByTestId('reasons-sent').evaluate((el) => ({
      thanks: el.querySelector('.vote-reasons__thanks')?.textContent,
      groups: [...el.querySelectorAll('[data-kind]')].map((g) => ({
        question: g.querySelector('p')?.textContent,
        reasons: [...g.querySelectorAll('li')].map((li) => li.textContent),
      })),
    }));

  /** The leaderboard's reasons for one model, once its name (from the refit) is shown. */
  async function boardReasons(page: Page, model: string, label: string) {
    const block = page.locator(`[data-testid="leaderboard-reasons-model"][data-model="${model}"]`);
    await expect.poll(() => block.locator('h3').textContent(), { timeout: 20_000 }).toBe(label);
    return {
      picked: await block.locator('[data-kind="picked"]').allInnerTexts(),
      passed: await block.locator('[data-kind="passed"]').allInnerTexts(),
    };
  }

  it('takes the reasons of an English vote for A once, stores them, and shows the winner picked for them on the leaderboard', async () => {
    const { context, page } = await open('en-US', DESKTOP);
    const battle = await askAndVote(page, 'quiz-solving', 'What is the capital of Australia?', 'a');

    expect(await chipGroups(page)).toEqual([
      { question: 'What made answer A better?', chips: ['accurate:false', 'clear:false', 'creative:false', 'well_formatted:false', 'concise:false'] },
      { question: 'What was wrong with answer B?', chips: ['too_long:false', 'wrong:false', 'refused:false', 'unsafe:false'] },
    ]);
    const send = page.getByTestId('reasons-send');
    expect(await send.isDisabled()).toBe(true);

    const better = page.getByRole('group', { name: 'What made answer A better?' });
    const worse = page.getByRole('group', { name: 'What was wrong with answer B?' });
    await better.getByRole('button', { name: 'accurate' }).click();
    await better.getByRole('button', { name: 'clear' }).click();
    await better.getByRole('button', { name: 'clear' }).click();
    await worse.getByRole('button', { name: 'too long' }).click();
    expect(await pressed(page)).toEqual(['accurate', 'too_long']);
    expect(await send.isEnabled()).toBe(true);
    await page.getByTestId('vote-result').screenshot({ path: '/tmp/reasons-chips-desktop-en.png' });
    expect(await wcagViolations(page)).toEqual([]);

    await send.click();
    const sent = page.getByTestId('reasons-sent');
    await sent.waitFor();
    expect(await sentGroups(page)).toEqual({
      thanks: 'Thanks for telling us why! You sent:',
      groups: [
        { question: 'What made answer A better?', reasons: ['accurate'] },
        { question: 'What was wrong with answer B?', reasons: ['too long'] },
      ],
    });
    expect(await page.getByTestId('reasons-send').count()).toBe(0);
    expect(await storedReasons(battle.id)).toEqual(['accurate', 'too_long']);
    await page.getByTestId('vote-result').screenshot({ path: '/tmp/reasons-sent-desktop-en.png' });
    expect(await wcagViolations(page)).toEqual([]);

    await page.goto('/leaderboard?tool=quiz-solving');
    expect(await boardReasons(page, battle.models.a, battle.labels.a)).toEqual({ picked: ['Picked for: accurate 1'], passed: [] });
    expect(await boardReasons(page, battle.models.b, battle.labels.b)).toEqual({ picked: [], passed: ['Passed over for: too long 1'] });
    expect(await page.getByTestId('leaderboard-row').count()).toBe(2);
    await page.screenshot({ path: '/tmp/reasons-leaderboard-desktop-en.png', fullPage: true });
    await page.getByTestId('leaderboard-reasons').screenshot({ path: '/tmp/reasons-board-desktop-en.png' });
    expect(await wcagViolations(page)).toEqual([]);

    // A category board is not a tool's: the reasons, counted per tool, are not shown under it.
    await page.goto('/leaderboard?category=en');
    await page.getByTestId('leaderboard-category').waitFor();
    await expect.poll(() => page.locator('.lb-board[aria-busy="false"]').count()).toBe(1);
    expect(await page.getByTestId('leaderboard-reasons').count()).toBe(0);
    await context.close();

    const phone = await open('en-US', PHONE);
    await phone.page.goto('/leaderboard');
    expect(await boardReasons(phone.page, battle.models.a, battle.labels.a)).toEqual({ picked: ['Picked for: accurate 1'], passed: [] });
    await phone.page.screenshot({ path: '/tmp/reasons-leaderboard-phone-en.png', fullPage: true });
    await phone.page.getByTestId('leaderboard-reasons').screenshot({ path: '/tmp/reasons-board-phone-en.png' });
    expect(await wcagViolations(phone.page)).toEqual([]);
    await phone.context.close();
  }, 150_000);

  it('takes the reasons of a Korean vote for B on a phone, and the Korean leaderboard counts them', async () => {
    const { context, page } = await open('ko-KR', PHONE);
    const battle = await askAndVote(page, 'anything-question', '하늘은 왜 파란가요?', 'b');

    const groups = await chipGroups(page);
    expect(groups.map((g) => g.question)).toEqual(['B 답변은 어떤 점이 더 좋았나요?', 'A 답변은 무엇이 아쉬웠나요?']);
    await page.getByRole('button', { name: '창의적이에요' }).click();
    await page.getByRole('button', { name: '틀렸어요' }).click();
    expect(await pressed(page)).toEqual(['creative', 'wrong']);
    // Every chip fits the phone's width: nothing is cut off or pushes the page sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await page.getByTestId('vote-result').screenshot({ path: '/tmp/reasons-chips-phone-ko.png' });
    expect(await wcagViolations(page)).toEqual([]);
    await page.setViewportSize(DESKTOP);
    await page.getByTestId('vote-result').screenshot({ path: '/tmp/reasons-chips-desktop-ko.png' });
    expect(await wcagViolations(page)).toEqual([]);
    await page.setViewportSize(PHONE);

    await page.getByTestId('reasons-send').click();
    const sent = page.getByTestId('reasons-sent');
    await sent.waitFor();
    expect(await sentGroups(page)).toEqual({
      thanks: '이유를 알려 주셔서 고마워요! 보낸 이유:',
      groups: [
        { question: 'B 답변은 어떤 점이 더 좋았나요?', reasons: ['창의적이에요'] },
        { question: 'A 답변은 무엇이 아쉬웠나요?', reasons: ['틀렸어요'] },
      ],
    });
    // Keyboard users are not lost: the chips they were on are gone, the thanks has the focus.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('이유를 알려 주셔서 고마워요! 보낸 이유:');
    expect(await storedReasons(battle.id)).toEqual(['creative', 'wrong']);
    await page.getByTestId('vote-result').screenshot({ path: '/tmp/reasons-sent-phone-ko.png' });
    expect(await wcagViolations(page)).toEqual([]);

    await page.goto('/leaderboard?tool=anything-question');
    expect(await boardReasons(page, battle.models.b, battle.labels.b)).toEqual({ picked: ['고른 이유: 창의적이에요 1표'], passed: [] });
    expect(await boardReasons(page, battle.models.a, battle.labels.a)).toEqual({ picked: [], passed: ['아쉬웠던 점: 틀렸어요 1표'] });
    expect(await page.getByTestId('leaderboard-reasons').getByRole('heading', { level: 2 }).textContent()).toMatch(/^투표 이유 · /);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await page.screenshot({ path: '/tmp/reasons-leaderboard-phone-ko.png', fullPage: true });
    await page.getByTestId('leaderboard-reasons').screenshot({ path: '/tmp/reasons-board-phone-ko.png' });
    expect(await wcagViolations(page)).toEqual([]);
    await context.close();

    // The overall board adds up every tool's reasons: this test's and the first one's.
    const desktop = await open('ko-KR', DESKTOP);
    await desktop.page.goto('/leaderboard');
    await desktop.page.getByTestId('leaderboard-reasons').waitFor();
    const lines = await desktop.page.getByTestId('leaderboard-reasons').locator('[data-reason]').evaluateAll((els) =>
      els.map((e) => `${e.closest('[data-model]')?.getAttribute('data-model')} ${e.getAttribute('data-reason')} ${e.getAttribute('data-count')}`).sort(),
    );
    const quiz = (await duet.db.pool.query<{ model_a: string; model_b: string }>("SELECT model_a, model_b FROM battles WHERE tool = 'quiz-solving'")).rows[0]!;
    expect(lines).toEqual(
      [`${quiz.model_a} accurate 1`, `${quiz.model_b} too_long 1`, `${battle.models.b} creative 1`, `${battle.models.a} wrong 1`].sort(),
    );
    await desktop.page.screenshot({ path: '/tmp/reasons-leaderboard-desktop-ko.png', fullPage: true });
    await desktop.page.getByTestId('leaderboard-reasons').screenshot({ path: '/tmp/reasons-board-desktop-ko.png' });
    expect(await wcagViolations(desktop.page)).toEqual([]);
    await desktop.context.close();
  }, 150_000);

  it('asks what was good and what was wrong with both after a Korean tie, and stores the reasons', async () => {
    const { context, page } = await open('ko-KR', DESKTOP);
    const battle = await askAndVote(page, 'accounting-solving', '감가상각은 어떻게 계산하나요?', 'tie');

    expect((await chipGroups(page)).map((g) => [g.question, g.chips.length])).toEqual([
      ['두 답변 모두 어떤 점이 좋았나요?', 5],
      ['두 답변 모두 무엇이 아쉬웠나요?', 4],
    ]);
    await page.getByRole('button', { name: '간결해요' }).click();
    await page.getByRole('button', { name: '너무 길어요' }).click();
    await page.getByTestId('reasons-send').click();
    await page.getByTestId('reasons-sent').waitFor();
    expect(await storedReasons(battle.id)).toEqual(['concise', 'too_long']);
    await page.getByTestId('vote-result').screenshot({ path: '/tmp/reasons-sent-desktop-ko.png' });
    expect(await wcagViolations(page)).toEqual([]);
    await context.close();
  }, 150_000);

  it('offers only what was wrong after "both are bad", and says in words when the hour for reasons has passed', async () => {
    const { context, page } = await open('en-US', PHONE);
    const battle = await askAndVote(page, 'excel-solving', 'How do I sum column B where column A says "paid"?', 'both_bad');

    expect(await chipGroups(page)).toEqual([{ question: 'What was wrong with both?', chips: ['too_long:false', 'wrong:false', 'refused:false', 'unsafe:false'] }]);
    await page.getByRole('button', { name: 'refused to answer' }).click();
    await page.getByTestId('vote-result').screenshot({ path: '/tmp/reasons-chips-phone-en.png' });
    expect(await wcagViolations(page)).toEqual([]);

    await duet.db.pool.query("UPDATE votes SET created_at = now() - interval '61 minutes' WHERE battle_id = $1", [battle.id]);
    await page.getByTestId('reasons-send').click();
    const error = page.getByTestId('reasons-error');
    await error.waitFor();
    expect(await error.textContent()).toBe('Reasons can only be added within an hour of voting, and that hour has passed.');
    expect(await error.getAttribute('role')).toBe('alert');
    // Sending again could not change the answer: the button is gone and the chips are closed.
    expect(await page.getByTestId('reasons-send').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'refused to answer' }).isDisabled()).toBe(true);
    expect(await storedReasons(battle.id)).toEqual([]);
    await page.getByTestId('vote-result').screenshot({ path: '/tmp/reasons-too-late-phone-en.png' });
    expect(await wcagViolations(page)).toEqual([]);
    await context.close();
  }, 150_000);

  /** The `content` of each `<meta property|name>` tag, the title and the page's language, as a crawler reads the HTML. */
  const tagsOf = (html: string): Record<string, string | undefined> => {
    const tags: Record<string, string | undefined> = {};
    for (const m of html.matchAll(/<meta (?:property|name)="([^"]+)" content="([^"]*)"/g)) tags[m[1]!] = m[2]!;
    return { ...tags, title: /<title>([^<]*)<\/title>/.exec(html)?.[1], lang: /<html lang="([^"]+)"/.exec(html)?.[1] };
  };

  it('shares a voted duel: its link copied or handed to the share sheet, its page in both languages, its tags and preview as a crawler fetches them', async () => {
    const { context, page } = await open('en-US', DESKTOP);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: duet.url });
    // This Chromium has no share sheet: a stand-in records what the page would hand to it.
    await page.addInitScript(() => {
      const shared: unknown[] = [];
      Object.assign(window, { sharedWith: shared });
      Object.defineProperty(navigator, 'share', { value: (data: unknown) => (shared.push(data), Promise.resolve()), configurable: true });
    });
    const battle = await askAndVote(page, 'excel-solving', 'How do I sum a column in a spreadsheet?', 'b');
    const url = `${duet.url}/b/${battle.id}`;
    const share = page.getByTestId('share-duel');
    expect(await share.getByRole('textbox', { name: 'Link to this duel' }).inputValue()).toBe(url);
    await share.getByRole('button', { name: 'Copy link' }).click();
    await expect.poll(() => page.getByTestId('share-duel-status').textContent()).toBe('Link copied.');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
    await share.getByRole('button', { name: 'Share…' }).click();
    expect(await page.evaluate(() => (window as unknown as { sharedWith: unknown[] }).sharedWith)).toEqual([
      { title: `${battle.labels.a} vs ${battle.labels.b} on Duet`, text: 'Which answer would you pick?', url },
    ]);
    await page.getByTestId('vote-result').screenshot({ path: '/tmp/share-duel-desktop-en.png' });
    expect(await wcagViolations(page)).toEqual([]);

    // A link preview runs no JavaScript: the tags are in the HTML the gateway sends, on the built shell.
    const html = await (await fetch(url, { headers: { 'accept-language': 'ko-KR,ko;q=0.9' } })).text();
    const tags = tagsOf(html);
    expect(tags).toMatchObject({
      lang: 'ko',
      title: `${battle.labels.a} vs ${battle.labels.b} · Duet`,
      'og:url': url,
      'og:image': `${url}/preview.png?lang=ko`,
      'twitter:card': 'summary_large_image',
    });
    expect(tags['og:description']).toContain('How do I sum a column in a spreadsheet?');
    expect(tags['og:description']).toContain(`방문자는 ${battle.labels.b}의 답을 골랐어요.`);
    expect(html).toMatch(/<script type="module"[^>]+src="\/assets\//);
    const image = await fetch(tags['og:image']!);
    expect(image.headers.get('content-type')).toBe('image/png');
    const png = Buffer.from(await image.arrayBuffer());
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630]);

    // The page itself, for anyone with the link.
    await page.goto(`/b/${battle.id}`);
    const heading = page.getByRole('heading', { level: 1 });
    await expect.poll(() => heading.textContent()).toBe(`${battle.labels.a} vs ${battle.labels.b}`);
    expect(await page.getByTestId('history-winner').textContent()).toContain(battle.labels.b);
    expect(await page.locator('.hentry__text').textContent()).toBe('How do I sum a column in a spreadsheet?');
    await page.getByTestId('history-toggle-b').click();
    expect((await page.getByTestId('history-answer-b').textContent())?.length).toBeGreaterThan(0);
    expect(await page.getByTestId('shared-ask').getAttribute('href')).toBe(findTool('excel-solving')!.route);
    expect(await page.title()).toBe(`${battle.labels.a} vs ${battle.labels.b} | Duet`);
    await page.screenshot({ path: '/tmp/share-page-desktop-en.png', fullPage: true });
    expect(await wcagViolations(page)).toEqual([]);
    await context.close();

    const phone = await open('ko-KR', PHONE);
    await phone.page.goto(`/b/${battle.id}`);
    await expect.poll(() => phone.page.getByTestId('shared-ask').textContent()).toMatch(/에서 질문하기$/);
    expect(await phone.page.getByText('공유된 대결').count()).toBe(1);
    await phone.page.screenshot({ path: '/tmp/share-page-phone-ko.png', fullPage: true });
    expect(await wcagViolations(phone.page)).toEqual([]);
    // What is not public is the 404 page, for the app and for a crawler.
    const missing = await phone.page.goto('/b/00000000-0000-4000-8000-000000000000');
    expect(missing?.status()).toBe(404);
    await phone.page.getByTestId('not-found').waitFor();
    await phone.context.close();
  }, 150_000);
});
