import { redisKeys } from '@duet/contracts';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createComputeLeaderboard } from '../../worker/src/jobs/compute-leaderboard.handler.ts';
import { createComputeStyleLeaderboard } from '../../worker/src/jobs/compute-style-leaderboard.handler.ts';
import { duetAccount, EMULATOR_HOST } from '../helpers/accounts.ts';
import type { DuetAccount } from '../helpers/accounts.ts';
import type { TestDuet } from '../helpers/duet.ts';
import { EVAL_MODELS, seedEvaluationVotes } from '../helpers/evaluation-votes.ts';
import type { BattleModel } from '../helpers/user-votes.ts';
import { castVote, storedBattle } from '../helpers/user-votes.ts';
import { waitFor } from '../helpers/wait.ts';
import { wcagViolations } from './axe.ts';
import { askAnything, DESKTOP, launchBrowser, newPage, PHONE, startAppDuet } from './browser.ts';

/** The leaderboard page with votes waiting, then with ratings: switches, heat map and history. */
describe('the leaderboard page', () => {
  let duet: TestDuet;
  let browser: Browser;

  beforeAll(async () => {
    // The scheduled refit runs once at start, then not for ten minutes: the votes below wait.
    duet = await startAppDuet({ LEADERBOARD_INTERVAL_MS: '600000', FIREBASE_AUTH_EMULATOR_HOST: EMULATOR_HOST });
    browser = await launchBrowser();
    await waitFor(async () => (await duet.redis.exists(redisKeys(duet.prefix).leaderboard(null))) === 1, { what: 'the first refit', timeoutMs: 30_000 });
  });
  afterAll(async () => {
    await browser?.close();
    await duet?.close();
  });

  it('says in Korean how many votes wait for the next update instead of an empty page', async () => {
    await seedEvaluationVotes(duet.db.pool, { votes: 600, seed: 3, koreanEvery: 2, imageEvery: 50 });
    const { context, page } = await newPage(browser, { baseURL: duet.url, locale: 'ko-KR' });
    await page.goto('/leaderboard');
    const pending = page.getByTestId('leaderboard-pending');
    await pending.waitFor();
    expect(await pending.getAttribute('data-count')).toBe('600');
    expect(await pending.textContent()).toContain('600표');
    expect(await page.getByTestId('leaderboard-empty').textContent()).toContain('점수를 계산하고 있어요');
    await context.close();
  });

  it('shows the category and style switches, the head-to-head heat map and the too-few-votes notice', async () => {
    // The style refit (style boards, speeds), then the plain refit it marks due, as the worker runs them.
    const deps = { db: duet.db.pool, redis: duet.redis, keys: redisKeys(duet.prefix) };
    await createComputeStyleLeaderboard(deps)();
    await createComputeLeaderboard(deps)();
    await duet.db.pool.query(
      `INSERT INTO leaderboard_snapshots (scope, control, day, votes, models)
       VALUES ('*', 'none', (now() AT TIME ZONE 'UTC')::date - 1, 100,
               '[{"model":"eval-sage","label":"Eval Sage","rating":1010,"ciLow":950,"ciHigh":1070}]')`,
    );
    const { context, page } = await newPage(browser, { baseURL: duet.url, locale: 'en-US' });
    await page.goto('/leaderboard');
    await expect.poll(() => page.getByTestId('leaderboard-row').count(), { timeout: 15_000 }).toBe(3);
    expect(await page.getByTestId('leaderboard-pending').count()).toBe(0);
    expect(Number(await page.getByTestId('leaderboard-ttft').first().textContent().then((s) => s!.replace(/[^\d.]/g, '').slice(0, 3)))).toBeGreaterThan(0);

    const heatmap = page.getByTestId('leaderboard-heatmap');
    expect(await heatmap.getByRole('heading', { name: 'Head to head' }).isVisible()).toBe(true);
    expect(await heatmap.locator('td[data-share]').count()).toBe(6);
    expect(await page.getByTestId('leaderboard-pair-counts').locator('tbody tr').count()).toBe(3);
    expect(await page.getByTestId('leaderboard-history').locator('svg[role="img"]').count()).toBe(1);
    expect(await wcagViolations(page)).toEqual([]);

    // The intervals: the bootstrap's by default, the closed-form ones when chosen, the same ratings.
    const intervals = page.getByTestId('leaderboard-intervals');
    const bounds = () => page.getByTestId('leaderboard-interval').evaluateAll((cells) => cells.map((c) => `${c.getAttribute('data-low')}:${c.getAttribute('data-high')}`));
    const ratings = () => page.getByTestId('leaderboard-rating').allTextContents();
    expect(await intervals.getByLabel('Resampled').isChecked()).toBe(true);
    const [bootstrapBounds, bootstrapRatings] = [await bounds(), await ratings()];
    await intervals.getByText('Closed-form').click();
    await waitFor(() => new URL(page.url()).searchParams.get('intervals') === 'sandwich', { what: 'the intervals switch' });
    await expect.poll(() => intervals.getByLabel('Closed-form').isChecked(), { timeout: 15_000 }).toBe(true);
    await expect.poll(bounds, { timeout: 15_000 }).not.toEqual(bootstrapBounds);
    expect((await ratings()).sort()).toEqual(bootstrapRatings.sort());

    await page.getByTestId('leaderboard-control').getByText('Style-controlled').click();
    await waitFor(() => new URL(page.url()).searchParams.get('control') === 'style', { what: 'the style switch' });
    await page.getByTestId('leaderboard-style').waitFor();
    expect(await page.getByTestId('leaderboard-style').locator('li[data-feature="length"]').count()).toBe(1);
    // A style-controlled board has the bootstrap's intervals only: no switch.
    expect(await page.getByTestId('leaderboard-intervals').count()).toBe(0);

    await page.getByTestId('leaderboard-category').getByText('With a picture').click();
    await waitFor(() => new URL(page.url()).searchParams.get('category') === 'image', { what: 'the category switch' });
    await page.getByTestId('leaderboard-too-few').waitFor();
    expect(await page.getByTestId('leaderboard-too-few').textContent()).toMatch(/12 counted votes.*50/);
    expect(await page.getByTestId('leaderboard-heatmap').count()).toBe(0);
    await context.close();
  });

  it('has no WCAG violations with every picture on a Korean phone', async () => {
    const { context, page } = await newPage(browser, { baseURL: duet.url, locale: 'ko-KR', viewport: PHONE, reducedMotion: 'reduce' });
    await page.goto('/leaderboard?control=style');
    await page.getByTestId('leaderboard-heatmap').waitFor();
    await page.getByTestId('leaderboard-style').waitFor();
    expect(await page.getByTestId('leaderboard-heatmap').getByRole('heading', { name: '맞대결' }).isVisible()).toBe(true);
    expect(await wcagViolations(page)).toEqual([]);
    await page.goto('/leaderboard?intervals=sandwich');
    await expect.poll(() => page.getByTestId('leaderboard-intervals').getByLabel('닫힌 식').isChecked(), { timeout: 15_000 }).toBe(true);
    expect(await wcagViolations(page)).toEqual([]);
    await context.close();
  });

  it('says after the reveal how fast each model answered', async () => {
    const { context, page } = await newPage(browser, { baseURL: duet.url, locale: 'en-US' });
    await askAnything(page, 'Why is the sky blue?');
    await page.getByTestId('vote-bar').waitFor({ timeout: 30_000 });
    await page.getByTestId('vote-a').click();
    const speed = page.getByTestId('reveal-speed');
    await speed.waitFor();
    expect(await speed.locator('li').count()).toBe(2);
    expect(await speed.locator('li[data-side="a"]').textContent()).toMatch(/^Model A · .+: first word after \d+\.\d s(, \d+ tokens\/s)?$/);
    await context.close();
  });

  it('shows a signed-in visitor their own ranking next to the crowd’s, or the votes it still needs, in both languages', async () => {
    const model = (id: keyof typeof EVAL_MODELS): BattleModel => ({ id, label: EVAL_MODELS[id].label, family: 'other' });
    const [sage, clerk, rambler] = [model('eval-sage'), model('eval-clerk'), model('eval-rambler')];
    const newcomerModel: BattleModel = { id: 'eval-newcomer', label: 'Eval Newcomer', family: 'other' };
    const voteAs = async (who: DuetAccount, votes: Array<[BattleModel, BattleModel, 'a' | 'b' | 'tie']>) => {
      for (const [a, b, winner] of votes) expect((await castVote(duet.url, await storedBattle(duet.db.pool, a, b), winner, who.session)).status).toBe(200);
    };
    const [keen, newcomer] = await Promise.all([duetAccount(duet.url, duet.db.pool), duetAccount(duet.url, duet.db.pool)]);
    // A taste of its own: the clerk first, the newcomer (no crowd rating yet) last.
    const keenVotes: Array<[BattleModel, BattleModel, 'a' | 'b' | 'tie']> = [];
    for (let k = 0; k < 4; k++) keenVotes.push([clerk, sage, 'a'], [sage, rambler, k === 0 ? 'b' : 'a'], [rambler, clerk, 'b'], [newcomerModel, sage, 'b'], [clerk, newcomerModel, k === 0 ? 'tie' : 'a']);
    await voteAs(keen, keenVotes);
    await voteAs(newcomer, keenVotes.slice(0, 7));

    const open = async (who: DuetAccount, locale: string, viewport: typeof DESKTOP) => {
      const { context, page } = await newPage(browser, { baseURL: duet.url, locale, viewport });
      await context.addInitScript((token) => window.localStorage.setItem('duet_access_token', token), who.session);
      await page.goto('/leaderboard');
      return { context, page, card: page.getByTestId('own-board') };
    };

    // A phone leaves out the column of votes per model: the note under the table gives the total.
    for (const [locale, viewport, agree, headers] of [
      ['en-US', DESKTOP, /^You agree with the crowd on \d+% of your votes\./, ['Your rank', 'Model', "Crowd's rank", 'Your rating', 'Your votes']],
      ['ko-KR', PHONE, /^내 투표의 \d+%가 모두의 평가와 같아요\./, ['나의 순위', '모델', '모두의 순위', '내 점수']],
    ] as const) {
      const { context, page, card } = await open(keen, locale, viewport);
      await expect.poll(() => card.getByTestId('own-board-row').count(), { timeout: 15_000 }).toBe(4);
      const rows = card.getByTestId('own-board-row');
      expect(await rows.first().getAttribute('data-model')).toBe('eval-clerk');
      expect(await card.locator('tr[data-model="eval-newcomer"]').getAttribute('data-crowd-rank')).toBe('');
      expect(await card.getByRole('table').getByRole('columnheader').allTextContents()).toEqual(headers);
      expect(await card.getByTestId('own-board-agreement').locator('p').first().textContent()).toMatch(agree);
      expect(await card.getByRole('heading', { name: locale === 'en-US' ? 'Your board' : '나의 순위' }).isVisible()).toBe(true);
      // The card fits a phone: nothing in it is wider than the card.
      expect(await card.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
      expect(await wcagViolations(page)).toEqual([]);
      await context.close();
    }

    for (const [locale, viewport, needed] of [
      ['en-US', PHONE, 'Your blind votes so far: 7 of 20. 13 more votes'],
      ['ko-KR', DESKTOP, '블라인드 투표 7표를 했어요. 13표만 더 하면'],
    ] as const) {
      const { context, page, card } = await open(newcomer, locale, viewport);
      const notice = card.getByTestId('own-board-needed');
      await notice.waitFor({ timeout: 15_000 });
      expect(await notice.textContent()).toContain(needed);
      expect(await notice.getByRole('link').getAttribute('href')).toBe('/');
      expect(await card.getByRole('progressbar').getAttribute('value')).toBe('7');
      expect(await wcagViolations(page)).toEqual([]);
      await context.close();
    }
  });

  it('lists the models with too few votes after the ranked ones, marked provisional with the votes they need and no rank, in both languages', async () => {
    const sage: BattleModel = { id: 'eval-sage', label: 'Eval Sage', family: 'other' };
    const novice: BattleModel = { id: 'eval-novice', label: 'Eval Novice', family: 'claude' };
    // Twelve votes for a newcomer; and one vote on a tool nobody voted on: the bootstrap of one vote never varies.
    for (const winner of ['a', 'b', 'a', 'tie', 'a', 'b', 'a', 'a', 'b', 'a', 'tie', 'a'] as const) {
      expect((await castVote(duet.url, await storedBattle(duet.db.pool, novice, sage), winner)).status).toBe(200);
    }
    await seedEvaluationVotes(duet.db.pool, { votes: 1, tool: 'docent', seed: 12 });
    // The refit as the worker runs it with the settings' defaults: 300 counted votes to be ranked overall.
    const keys = redisKeys(duet.prefix);
    await duet.redis.set(keys.leaderboardDirty, 'provisional');
    expect(await createComputeLeaderboard({ db: duet.db.pool, redis: duet.redis, keys })()).toMatchObject({ computed: true });

    for (const [locale, viewport, texts] of [
      ['en-US', DESKTOP, { badge: 'Provisional', needs: '12 of 300 votes', one: '1 of 100 votes', title: 'Provisional ratings', noRank: 'Not ranked', noInterval: '95% interval: not enough votes yet', top: (n: string, who: string) => `#1 holds unless ${n} votes are removed (then ${who} leads)` }],
      ['ko-KR', PHONE, { badge: '잠정', needs: '300표 중 12표', one: '100표 중 1표', title: '잠정 점수', noRank: '순위 없음', noInterval: '95% 신뢰구간: 아직 표가 부족해요', top: (n: string, who: string) => `${n}표가 빠지면 1위가 바뀌어요 (다음 1위: ${who})` }],
    ] as const) {
      const { context, page } = await newPage(browser, { baseURL: duet.url, locale, viewport });
      await page.goto('/leaderboard');
      const rows = page.getByTestId('leaderboard-row');
      await expect.poll(() => page.locator('tr[data-model="eval-novice"]').count(), { timeout: 15_000 }).toBe(1);
      const flags = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-provisional')));
      const ranked = flags.indexOf('true');
      // The three models with hundreds of votes are ranked, first; every provisional row comes after them.
      expect(ranked).toBe(3);
      expect(flags.slice(ranked).every((f) => f === 'true')).toBe(true);
      expect(await rows.nth(0).getByTestId('leaderboard-rank').textContent()).toMatch(/^\s*1\s*$/);
      const heading = page.getByTestId('leaderboard-provisional').getByRole('rowheader').first();
      expect(await heading.textContent()).toContain(texts.title);

      const noviceRow = page.locator('tr[data-model="eval-novice"]');
      expect(await noviceRow.getByTestId('leaderboard-rank').textContent()).toBe(`–${texts.noRank}`);
      // The status is words in the row's header, read with the model's name, not a colour.
      expect(await noviceRow.getByRole('rowheader').textContent()).toBe(`Eval Novice${texts.badge} ${texts.needs}`);
      expect(await noviceRow.getByTestId('leaderboard-battles').textContent()).toBe('12');
      const interval = noviceRow.getByTestId('leaderboard-interval');
      expect(Number(await interval.getAttribute('data-high'))).toBeGreaterThan(Number(await interval.getAttribute('data-low')));
      // How many votes the #1 rests on, naming the ranked model that would pass it (never a provisional one).
      const top = page.getByTestId('leaderboard-top-robustness');
      const challenger = page.locator(`tr[data-model="${await top.getAttribute('data-challenger')}"]`);
      expect(await challenger.getAttribute('data-provisional')).toBe('false');
      const label = (await challenger.getByRole('rowheader').textContent())!;
      expect(await top.textContent()).toBe(texts.top(Number(await top.getAttribute('data-votes')).toLocaleString(locale), label));
      const shot = `/tmp/leaderboard-provisional-${viewport === PHONE ? 'phone' : 'desktop'}-${locale.slice(0, 2)}`;
      await page.screenshot({ path: `${shot}.png`, fullPage: true });
      expect(await wcagViolations(page)).toEqual([]);

      // A board of one vote: both models provisional, each with no interval (a dash, and why in words) rather than "±0".
      await page.goto('/leaderboard?tool=docent');
      await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(2);
      expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-provisional')))).toEqual(['true', 'true']);
      expect(await page.getByTestId('leaderboard-top-robustness').count()).toBe(0);
      for (const row of await rows.all()) {
        expect(await row.getByTestId('leaderboard-interval').getAttribute('data-low')).toBe('');
        expect(await row.getByTestId('leaderboard-interval').textContent()).toBe(`—${texts.noInterval}`);
        expect(await row.getByRole('rowheader').textContent()).toContain(`${texts.badge} ${texts.one}`);
      }
      await page.screenshot({ path: `${shot}-one-vote.png`, fullPage: true });
      expect(await wcagViolations(page)).toEqual([]);
      await context.close();
    }
  });

  it('says how many votes on repeated questions the board leaves out, and links to the board with them, in both languages', async () => {
    // Sixty counted votes on one question: ranked 1 to 60 as the votes would be, ten over the default cap of 50.
    const ids = await seedEvaluationVotes(duet.db.pool, { votes: 60, tool: 'quiz-solving', seed: 21 });
    await duet.db.pool.query(
      `UPDATE votes v SET prompt_rank = r.rank FROM (SELECT battle_id, row_number() OVER (ORDER BY battle_id) AS rank FROM votes WHERE battle_id = ANY($1)) r
        WHERE v.battle_id = r.battle_id`,
      [ids],
    );
    const keys = redisKeys(duet.prefix);
    await duet.redis.set(keys.leaderboardDirty, 'dedup');
    await createComputeLeaderboard({ db: duet.db.pool, redis: duet.redis, keys })();

    for (const [locale, viewport, texts] of [
      ['en-US', DESKTOP, { aside: '10 votes on questions asked more than 50 times in their activity are not counted.', all: 'Show the board with them', included: 'including 10 on questions' }],
      ['ko-KR', PHONE, { aside: '한 활동에서 50번 넘게 나온 같은 질문의 투표 10표는 반영하지 않았어요.', all: '포함한 점수 보기', included: '투표 10표도 포함돼요' }],
    ] as const) {
      const { context, page } = await newPage(browser, { baseURL: duet.url, locale, viewport });
      await page.goto('/leaderboard?tool=quiz-solving');
      const notice = page.getByTestId('leaderboard-dedup');
      await notice.waitFor();
      expect(await notice.textContent()).toBe(`${texts.aside} ${texts.all}`);
      const votes = Number(await page.getByTestId('leaderboard-votes').getAttribute('data-count'));
      await page.screenshot({ path: `/tmp/leaderboard-dedup-${viewport === PHONE ? 'phone' : 'desktop'}-${locale.slice(0, 2)}.png`, fullPage: true });
      expect(await wcagViolations(page)).toEqual([]);
      await page.getByTestId('leaderboard-dedup-toggle').click();
      await expect.poll(() => notice.getAttribute('data-dedup'), { timeout: 15_000 }).toBe('off');
      expect(page.url()).toContain('dedup=off');
      expect(await notice.textContent()).toContain(texts.included);
      expect(Number(await page.getByTestId('leaderboard-votes').getAttribute('data-count'))).toBe(votes + 10);
      await context.close();
    }
  });
});
