import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlmServer } from '../fakes/fake-llm-server.ts';
import type { FakeLlmServer } from '../fakes/fake-llm-server.ts';
import type { TestDuet } from '../helpers/duet.ts';
import { gpsJpeg } from '../helpers/image-fixtures.ts';
import { wcagViolations } from './axe.ts';
import { askAnything, CLAUDE, COMPAT, DESKTOP, fakeModels, launchBrowser, newPage, PHONE, startAppDuet } from './browser.ts';

/** The turn limit of this Duet: the three-turn conversation reaches it. */
const MAX_TURNS = 3;
const TOOL = 'anything-question';

/** What each model answers in turn `n`: its name and the turn in it, so a pane shows whose answer it has. */
const answerOf = (model: 'Compat' | 'Claude', n: number, words = 0) =>
  `${model} answer ${n}: the Moon pulls the sea toward it${' and the Earth turns beneath the bulge'.repeat(words)}.`;

/** Each side's pane within `root` (the battle, or one turn of it). */
const pane = (root: Locator, side: 'a' | 'b') => root.getByTestId(`answer-${side}`);
const answerText = async (root: Locator, side: 'a' | 'b') => (await pane(root, side).locator('.pane__body').textContent())?.trim();
const turn = (page: Page, n: number) => page.getByTestId(`turn-${n}`);

async function bothDone(root: Locator) {
  for (const side of ['a', 'b'] as const) await expect.poll(() => pane(root, side).getAttribute('data-state'), { timeout: 20_000 }).toBe('done');
}

/** The page on a desktop, then on a phone: nothing pushes it sideways, a screenshot to look at, no axe-core violation. */
async function lookAt(page: Page, name: string) {
  for (const [size, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    await page.setViewportSize(viewport);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    await page.screenshot({ path: `/tmp/follow-up-${name}-${size}.png`, fullPage: true });
    expect(await wcagViolations(page)).toEqual([]);
  }
}

/**
 * Follow-up questions in the browser: a battle becomes a conversation of turns, watched live,
 * resumed after a reload mid-turn, stopped turn by turn, ended by its limit or its vote, and
 * shown whole in history and on its shared page.
 */
describe('follow-up questions in the browser', () => {
  let fake: FakeLlmServer;
  let duet: TestDuet;
  let browser: Browser;

  beforeAll(async () => {
    fake = await startFakeLlmServer();
    duet = await startAppDuet({
      ...fakeModels(fake),
      MAX_TURNS: String(MAX_TURNS),
      // History lists moderated battles only: the word list decides at once, and the sweep catches up fast.
      MODERATION: 'wordlist',
      MODERATION_INTERVAL_MS: '300',
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await duet?.close();
    await fake?.close();
  });

  /** The models' answers in turn `n`: at once, or `slow` (a few seconds, word by word). */
  function script(n: number, slow = false) {
    const pace = slow ? { ttftMs: 300, tokensPerSecond: 12 } : { ttftMs: 0, tokensPerSecond: 0 };
    fake.scenario(COMPAT, { text: answerOf('Compat', n, slow ? 6 : 0), ...pace });
    fake.scenario(CLAUDE, { text: answerOf('Claude', n, slow ? 6 : 0), ...pace });
  }

  /** The last request a model was sent, as text. */
  const lastAsked = (model: string) => JSON.stringify(fake.requests.filter((r) => r.model === model).at(-1)?.body);

  const rootId = async (question: string) =>
    (await duet.db.pool.query<{ id: string }>('SELECT id FROM battles WHERE tool = $1 AND text = $2', [TOOL, question])).rows[0]!.id;

  /** Sends a follow-up from the form under the last turn. */
  async function askFollowUp(page: Page, text: string, send: string) {
    const form = page.getByTestId('follow-up');
    await form.getByTestId('follow-up-text').fill(text);
    await form.getByRole('button', { name: send }).click();
  }

  it('holds a three-turn conversation live, resumes it after a reload mid-turn, stops at the limit and takes the vote with reasons', async () => {
    const { context, page } = await newPage(browser, { baseURL: duet.url, locale: 'en-US', viewport: DESKTOP, reducedMotion: 'reduce' });
    script(1);
    const question = 'Why are there tides?';
    await askAnything(page, question);
    const battle = page.getByTestId('battle');
    await bothDone(battle);
    // Which model answers as A is drawn at random.
    const compat = (await answerText(battle, 'a'))?.startsWith('Compat') ? 'a' : 'b';
    const claude = compat === 'a' ? 'b' : 'a';
    // One question: its answers as ever, no list of turns.
    expect(await page.getByTestId('turns').count()).toBe(0);

    // Both answers have ended: a follow-up may be asked, turn 2 of 3, and nothing empty is sent.
    const form = page.getByTestId('follow-up');
    expect(await form.getByRole('textbox', { name: 'Ask a follow-up' }).count()).toBe(1);
    expect(await form.locator('.follow-up__turn-tag').textContent()).toBe('Turn 2 of 3');
    expect(await page.getByTestId('follow-up-counter').textContent()).toBe('0 / 2,000');
    await form.getByRole('button', { name: 'Send' }).click();
    expect(await form.getByRole('alert').textContent()).toBe('Write your follow-up question first.');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('follow-up-text');
    await lookAt(page, 'form-en');
    await page.setViewportSize(DESKTOP);

    script(2);
    await askFollowUp(page, 'And why twice a day?', 'Send');
    // The form is gone: focus moves to the turn it started.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Turn 2');
    await bothDone(turn(page, 2));
    expect(await page.getByTestId('turns').getAttribute('aria-label')).toBe('The conversation, turn by turn');
    expect(await turn(page, 2).getByTestId('turn-question').textContent()).toBe('Your follow-upAnd why twice a day?');
    expect(await answerText(turn(page, 1), compat)).toBe(answerOf('Compat', 1));
    expect(await answerText(turn(page, 2), compat)).toBe(answerOf('Compat', 2));
    expect(await answerText(turn(page, 2), claude)).toBe(answerOf('Claude', 2));
    // Each model was given the whole conversation with its own earlier answer, not the other's.
    for (const [model, own, other] of [[COMPAT, 'Compat', 'Claude'], [CLAUDE, 'Claude', 'Compat']] as const) {
      const asked = lastAsked(model);
      for (const part of [question, answerOf(own, 1), 'And why twice a day?']) expect(asked).toContain(part);
      expect(asked).not.toContain(answerOf(other, 1));
    }
    expect(await page.getByTestId('vote-bar').locator('.vote-bar__hint').textContent()).toBe(
      'Your vote is for the whole conversation. Vote to see which model wrote each answer.',
    );

    // The third turn streams slowly; the page is reloaded while it does.
    script(3, true);
    await askFollowUp(page, 'Does the Sun pull too?', 'Send');
    await expect.poll(() => pane(turn(page, 3), compat).getAttribute('data-state'), { timeout: 20_000 }).toBe('streaming');
    expect(await turn(page, 3).getByTestId('stop').textContent()).toBe('Stop answering');
    expect(await page.getByTestId('vote-bar').count()).toBe(0);
    await page.reload();

    // The first turn's snapshot names the follow-ups: the whole conversation is back, the last turn live.
    await expect.poll(() => page.getByTestId('turns').locator(':scope > li').count(), { timeout: 20_000 }).toBe(3);
    expect(await turn(page, 3).getByTestId('turn-question').textContent()).toBe('Your follow-upDoes the Sun pull too?');
    await bothDone(turn(page, 3));
    expect(await answerText(turn(page, 1), claude)).toBe(answerOf('Claude', 1));
    expect(await answerText(turn(page, 2), compat)).toBe(answerOf('Compat', 2));
    // Every word of the turn once, in order: nothing lost or repeated across the reload.
    expect(await answerText(turn(page, 3), compat)).toBe(answerOf('Compat', 3, 6));
    expect(await answerText(turn(page, 3), claude)).toBe(answerOf('Claude', 3, 6));

    // The limit: no more questions, time to vote.
    expect(await page.getByTestId('follow-up').count()).toBe(0);
    expect(await page.getByTestId('turn-limit').textContent()).toBe('That’s all 3 questions this battle can have. Time to vote!');
    await lookAt(page, 'three-turns-en');

    await page.setViewportSize(DESKTOP);
    await page.getByTestId('vote-a').click({ timeout: 20_000 });
    await page.getByTestId('vote-reasons').waitFor();
    await page.getByRole('group', { name: 'What made answer A better?' }).getByRole('button', { name: 'accurate' }).click();
    await page.getByTestId('reasons-send').click();
    await page.getByTestId('reasons-sent').waitFor();
    const id = await rootId(question);
    expect((await duet.db.pool.query<{ reasons: string[] }>('SELECT reasons FROM votes WHERE battle_id = $1', [id])).rows[0]?.reasons).toEqual(['accurate']);
    // Voting ended the battle: no follow-up, no note.
    expect(await page.getByTestId('follow-up').count()).toBe(0);
    expect(await page.getByTestId('turn-limit').count()).toBe(0);

    // History and the shared page show the whole conversation.
    await page.goto('/history/anything-question-duet');
    const entry = page.getByTestId('history-entry').filter({ hasText: question });
    await expect.poll(() => entry.count(), { timeout: 20_000 }).toBe(1);
    const followUps = entry.getByTestId('history-follow-ups');
    expect(await followUps.getAttribute('aria-label')).toBe('2 follow-up questions and their answers');
    expect(await followUps.locator('.hfollow__text').allTextContents()).toEqual(['And why twice a day?', 'Does the Sun pull too?']);
    const third = entry.getByTestId('history-turn-3');
    await third.getByTestId(`history-turn-answer-${compat}`).locator('summary').click();
    await expect.poll(() => third.getByTestId(`history-turn-answer-${compat}`).locator('.hanswer__panel').textContent()).toBe(answerOf('Compat', 3, 6));
    expect(await third.getByTestId(`history-turn-answer-${claude}`).locator('.hanswer__panel').textContent()).toBe('');
    await lookAt(page, 'history-en');

    await page.goto(`/b/${id}`);
    await expect.poll(() => page.getByTestId('history-turn-2').locator('.hfollow__text').textContent()).toBe('And why twice a day?');
    expect(await wcagViolations(page)).toEqual([]);
    await context.close();
  }, 120_000);

  it('says in Korean on a phone why a follow-up was refused, stops a running turn, takes an image, and keeps to the limit', async () => {
    const { context, page } = await newPage(browser, { baseURL: duet.url, locale: 'ko-KR', viewport: PHONE, reducedMotion: 'reduce' });
    script(1);
    await askAnything(page, '밀물과 썰물은 왜 생기나요?');
    await bothDone(page.getByTestId('battle'));
    const form = page.getByTestId('follow-up');
    expect(await form.getByRole('textbox', { name: '이어서 질문하기' }).count()).toBe(1);
    expect(await form.locator('.follow-up__turn-tag').textContent()).toBe('질문 2/3');

    // The battle is voted on in another tab meanwhile: the gateway refuses the follow-up, in the visitor's words.
    const asked = JSON.parse((await page.evaluate((key) => sessionStorage.getItem(key), `duet_battle_${TOOL}`))!) as { battleId: string; voteToken: string };
    const voted = await fetch(`${duet.url}/api/battles/${asked.battleId}/vote`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ winner: 'tie', voteToken: asked.voteToken }),
    });
    expect(voted.status).toBe(200);
    await askFollowUp(page, '하루에 두 번인 이유는요?', '보내기');
    await expect.poll(() => page.getByTestId('follow-up-error').textContent()).toBe('이미 투표한 비교예요.');
    expect(await page.getByTestId('follow-up-error').getAttribute('role')).toBe('alert');

    // A new battle: its second turn comes with an image and is stopped while it runs.
    script(1);
    const question = '달은 바다에 어떤 영향을 주나요?';
    await askAnything(page, question);
    await bothDone(page.getByTestId('battle'));
    script(2, true);
    await form.getByTestId('image-input').setInputFiles({ name: 'moon.jpg', mimeType: 'image/jpeg', buffer: await gpsJpeg(320, 240) });
    await form.getByRole('img', { name: '선택한 이미지 미리 보기' }).waitFor();
    await askFollowUp(page, '이 사진 속 달도 그런가요?', '보내기');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('질문 2');
    expect(await turn(page, 2).getByRole('img', { name: '이 질문과 함께 보낸 이미지' }).count()).toBe(1);
    await expect.poll(() => pane(turn(page, 2), 'a').getAttribute('data-state'), { timeout: 20_000 }).toBe('streaming');
    await turn(page, 2).getByRole('button', { name: '답변 멈추기' }).click();
    await bothDone(turn(page, 2));
    for (const side of ['a', 'b'] as const) expect(await turn(page, 2).getByTestId(`status-${side}`).textContent()).toBe('멈춤');

    // A stopped turn has ended: the last follow-up may be asked, then the limit holds.
    expect(await page.getByTestId('follow-up').locator('.follow-up__turn-tag').textContent()).toBe('질문 3/3');
    await lookAt(page, 'stopped-ko');
    script(3);
    await askFollowUp(page, '태양은요?', '보내기');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('질문 3');
    await bothDone(turn(page, 3));
    expect(await page.getByTestId('turn-limit').textContent()).toBe('이 대결에서 할 수 있는 질문 3개를 모두 했어요. 이제 투표해 주세요!');
    expect(await page.getByTestId('follow-up').count()).toBe(0);
    await lookAt(page, 'three-turns-ko');

    await page.getByTestId('vote-b').click({ timeout: 20_000 });
    await page.getByTestId('vote-result').waitFor();

    await page.goto('/history/anything-question-duet');
    const entry = page.getByTestId('history-entry').filter({ hasText: question });
    await expect.poll(() => entry.count(), { timeout: 20_000 }).toBe(1);
    expect(await entry.getByTestId('history-follow-ups').getAttribute('aria-label')).toBe('이어서 한 질문 2개와 답변');
    expect(await entry.getByTestId('history-turn-2').locator('h4').textContent()).toBe('질문 2');
    const image = entry.getByTestId('history-turn-2').getByRole('img', { name: '이 질문과 함께 보낸 이미지' });
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await lookAt(page, 'history-ko');
    await context.close();
  }, 120_000);
});
