import { findTool } from '@duet/contracts/catalog';
import type { Meta } from '@duet/contracts';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDuet } from '../helpers/duet.ts';
import { wcagViolations } from './axe.ts';
import { DESKTOP, launchBrowser, newPage, PHONE, startAppDuet } from './browser.ts';

type Model = Meta['models'][number];

interface Words {
  locale: string;
  question: RegExp;
  blind: string;
  chosen: string;
  modelA: string;
  modelB: string;
  note: string;
  viewMain: string;
  viewChosen: string;
}

const EN: Words = {
  locale: 'en-US',
  question: /^(Your question|Your word)$/,
  blind: 'Blind',
  chosen: 'Choose the models',
  modelA: 'Model A',
  modelB: 'Model B',
  note: 'You see the models’ names from the start, so votes in this mode are not counted in the leaderboard.',
  viewMain: 'Blind battles',
  viewChosen: 'Models chosen',
};

const KO: Words = {
  locale: 'ko-KR',
  question: /^(질문|단어)$/,
  blind: '블라인드',
  chosen: '모델 직접 고르기',
  modelA: '모델 A',
  modelB: '모델 B',
  note: '처음부터 모델 이름이 보이기 때문에, 이 방식으로 한 투표는 리더보드에 반영되지 않아요.',
  viewMain: '블라인드 대결',
  viewChosen: '모델을 고른 대결',
};

/** Battles whose two models the visitor chose: named from the start, voted on uncounted, listed in a history view of their own. */
describe('choosing the two models in the browser', () => {
  let duet: TestDuet;
  let browser: Browser;
  let models: Model[];

  beforeAll(async () => {
    duet = await startAppDuet();
    browser = await launchBrowser();
    models = ((await (await fetch(`${duet.url}/api/meta`)).json()) as Meta).models;
  });
  afterAll(async () => {
    await browser?.close();
    await duet?.close();
  });

  const open = (locale: string, viewport: { width: number; height: number }) => newPage(browser, { baseURL: duet.url, locale, viewport, reducedMotion: 'reduce' });

  /** The options of a model select, as their names. */
  const options = (page: Page, side: 'a' | 'b') => page.getByTestId(`model-${side}`).locator('option').allTextContents();

  /**
   * Opens `slug`'s page, switches to chosen models and checks the defaults and the note, picks
   * `pick` (a, b), asks `question`, sees the models' names on the answers before any vote, and
   * votes for A. Returns the battle's id.
   */
  async function askChosen(page: Page, w: Words, slug: string, question: string, pick: [Model, Model], shot: string): Promise<string> {
    await page.goto(findTool(slug)!.route);
    const blind = page.getByRole('radio', { name: w.blind });
    await blind.waitFor();
    expect(await blind.isChecked()).toBe(true);
    expect(await page.getByTestId('model-a').count()).toBe(0);
    expect(await page.getByTestId('models-note').count()).toBe(0);

    await page.getByRole('radio', { name: w.chosen }).check();
    const selectA = page.getByRole('combobox', { name: w.modelA });
    const selectB = page.getByRole('combobox', { name: w.modelB });
    // The first two models by default, each select offering every model.
    const picked = async () => [await selectA.inputValue(), await selectB.inputValue()];
    expect(await picked()).toEqual([models[0]!.id, models[1]!.id]);
    expect(await options(page, 'a')).toEqual(models.map((m) => m.label));
    expect(await options(page, 'b')).toEqual(models.map((m) => m.label));
    expect(await page.getByTestId('models-note').textContent()).toBe(w.note);

    // Choosing on one side the model the other holds swaps the two: never the same model twice.
    await selectB.selectOption(models[0]!.id);
    expect(await picked()).toEqual([models[1]!.id, models[0]!.id]);
    await selectA.selectOption(models[0]!.id);
    expect(await picked()).toEqual([models[0]!.id, models[1]!.id]);

    await selectA.selectOption(pick[0].id);
    if (await selectB.inputValue() !== pick[1].id) await selectB.selectOption(pick[1].id);
    expect(await picked()).toEqual([pick[0].id, pick[1].id]);

    await page.getByRole('textbox', { name: w.question }).fill(question);
    await page.locator('.tool-page__ask').screenshot({ path: `/tmp/chosen-form-${shot}.png` });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(page.viewportSize()!.width);
    expect(await wcagViolations(page)).toEqual([]);

    await page.getByTestId('submit').click();
    // Named from the start: the panes carry the models' names before anything is voted.
    await expect.poll(() => page.getByTestId('answer-a').locator('.pane__label').textContent()).toBe(pick[0].label);
    expect(await page.getByTestId('answer-b').locator('.pane__label').textContent()).toBe(pick[1].label);
    await page.getByTestId('vote-bar').waitFor({ timeout: 40_000 });
    await page.getByTestId('battle').screenshot({ path: `/tmp/chosen-answers-${shot}.png` });
    await page.getByTestId('vote-a').click({ timeout: 40_000 });
    await page.getByTestId('vote-result').waitFor();

    const { rows } = await duet.db.pool.query<{ id: string; mode: string; model_a: string; model_b: string; label_a: string; label_b: string }>(
      'SELECT id, mode, model_a, model_b, label_a, label_b FROM battles WHERE tool = $1',
      [slug],
    );
    expect(rows).toHaveLength(1);
    const battle = rows[0]!;
    expect(battle).toMatchObject({ mode: 'named', model_a: pick[0].id, model_b: pick[1].id, label_a: pick[0].label, label_b: pick[1].label });
    const vote = await duet.db.pool.query<{ counted: boolean | null }>('SELECT counted FROM votes WHERE battle_id = $1', [battle.id]);
    expect(vote.rows).toEqual([{ counted: false }]);
    // Only battles moderation passed are listed.
    await expect
      .poll(async () => (await duet.db.pool.query<{ moderation: string }>('SELECT moderation FROM battles WHERE id = $1', [battle.id])).rows[0]?.moderation, {
        timeout: 30_000,
      })
      .toBe('ok');
    return battle.id;
  }

  /** The history list's entries as shown: their battle ids come from the page's headings. */
  const listedIds = (page: Page) =>
    page.getByTestId('history-entry').evaluateAll((els) => els.map((e) => e.getAttribute('aria-labelledby')?.replace(/^h-/, '')));

  /** The chosen view lists the battle with its models' names; the main (blind) view does not list it. */
  async function checkHistory(page: Page, w: Words, slug: string, battleId: string, pick: [Model, Model], shot: string): Promise<void> {
    const route = `/history${findTool(slug)!.route}`;
    await page.goto(route);
    await page.getByTestId('history-empty').waitFor();
    const main = page.getByRole('link', { name: w.viewMain });
    expect(await main.getAttribute('aria-current')).toBe('page');
    expect(await page.getByTestId('history-entry').count()).toBe(0);

    await page.getByRole('link', { name: w.viewChosen }).click();
    await page.getByTestId('history-list').waitFor();
    expect(new URL(page.url()).search).toBe('?view=chosen');
    expect(await page.getByRole('link', { name: w.viewChosen }).getAttribute('aria-current')).toBe('page');
    expect(await listedIds(page)).toEqual([battleId]);
    const entry = page.getByTestId('history-entry');
    expect(await entry.getByTestId('history-winner').textContent()).toContain(pick[0].label);
    expect(await entry.getByTestId('history-toggle-a').textContent()).toContain(pick[0].label);
    expect(await entry.getByTestId('history-toggle-b').textContent()).toContain(pick[1].label);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(page.viewportSize()!.width);
    await page.screenshot({ path: `/tmp/chosen-history-${shot}.png`, fullPage: true });
    expect(await wcagViolations(page)).toEqual([]);

    // The address alone opens the chosen view (it can be shared); the main view still leaves it out.
    await page.goto(`${route}?view=chosen`);
    await page.getByTestId('history-list').waitFor();
    expect(await listedIds(page)).toEqual([battleId]);
    await main.click();
    await page.getByTestId('history-empty').waitFor();
    expect(new URL(page.url()).search).toBe('');
  }

  it('asks two chosen models in English on a desktop, shows their names from the start, and lists the uncounted vote only under "Models chosen"', async () => {
    expect(models.length).toBeGreaterThanOrEqual(2);
    // The sides the other way round from the defaults.
    const pick: [Model, Model] = [models[1]!, models[0]!];
    const { context, page } = await open(EN.locale, DESKTOP);
    const id = await askChosen(page, EN, 'quiz-solving', 'What is the capital of Australia?', pick, 'desktop-en');
    await checkHistory(page, EN, 'quiz-solving', id, pick, 'desktop-en');
    await context.close();

    const phone = await open(EN.locale, PHONE);
    await checkHistory(phone.page, EN, 'quiz-solving', id, pick, 'phone-en');
    await phone.context.close();
  }, 150_000);

  it('asks two chosen models in Korean on a phone, and the Korean history lists the battle under "모델을 고른 대결" only', async () => {
    const pick: [Model, Model] = [models[0]!, models[models.length - 1]!];
    const { context, page } = await open(KO.locale, PHONE);
    const id = await askChosen(page, KO, 'anything-question', '하늘은 왜 파란가요?', pick, 'phone-ko');
    await checkHistory(page, KO, 'anything-question', id, pick, 'phone-ko');
    await context.close();

    const desktop = await open(KO.locale, DESKTOP);
    await desktop.page.goto(findTool('anything-question')!.route);
    await desktop.page.getByRole('radio', { name: KO.chosen }).check();
    await desktop.page.locator('.tool-page__ask').screenshot({ path: '/tmp/chosen-form-desktop-ko.png' });
    expect(await wcagViolations(desktop.page)).toEqual([]);
    await checkHistory(desktop.page, KO, 'anything-question', id, pick, 'desktop-ko');
    await desktop.context.close();
  }, 150_000);

  it('keeps a blind battle blind when the switch stays off: no models sent, labels hidden, vote counted', async () => {
    const { context, page } = await open(EN.locale, PHONE);
    await page.goto(findTool('accounting-solving')!.route);
    await page.getByRole('radio', { name: EN.chosen }).check();
    await page.getByRole('radio', { name: EN.blind }).check();
    const sent = page.waitForRequest((r) => r.url().endsWith('/api/battles') && r.method() === 'POST');
    await page.getByRole('textbox', { name: EN.question }).fill('How is depreciation computed?');
    await page.getByTestId('submit').click();
    expect(Object.keys((await sent).postDataJSON() as object).sort()).toEqual(['inputs', 'lang', 'text', 'tool']);
    await page.getByTestId('vote-bar').waitFor({ timeout: 40_000 });
    expect(await page.getByTestId('answer-a').locator('.pane__label').textContent()).toBe('Model A');
    await page.getByTestId('vote-a').click({ timeout: 40_000 });
    await page.getByTestId('vote-result').waitFor();
    const { rows } = await duet.db.pool.query<{ mode: string; counted: boolean | null }>(
      "SELECT b.mode, v.counted FROM battles b JOIN votes v ON v.battle_id = b.id WHERE b.tool = 'accounting-solving'",
    );
    expect(rows).toEqual([{ mode: 'blind', counted: true }]);
    await context.close();
  }, 150_000);
});
