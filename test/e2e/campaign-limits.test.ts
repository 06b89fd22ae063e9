import { redisKeys } from '@duet/contracts';
import { createModelBreaker } from '@duet/platform/model-breaker';
import { DEMO_ROSTER } from '@duet/platform/roster-settings';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadGatewayConfig } from '../../server/src/config.ts';
import type { TestDuet } from '../helpers/duet.ts';
import { EMULATOR_HOST } from './auth-emulator.ts';
import { askAnything, launchBrowser, newPage, PHONE, startAppDuet } from './browser.ts';

const ADMIN_TOKEN = 'operator-'.padEnd(40, 'x');

/** A paid campaign's limits as a visitor meets them on the page: each says what happened and what to do. */
describe('a campaign’s limits in the browser', () => {
  let duet: TestDuet;
  let browser: Browser;

  beforeAll(async () => {
    duet = await startAppDuet({
      FIREBASE_AUTH_EMULATOR_HOST: EMULATOR_HOST,
      // The demo models at a price: the budgets have something to count.
      DUET_MODELS: JSON.stringify(DEMO_ROSTER.map((m) => ({ ...m, inputUsdPerMTok: 3, outputUsdPerMTok: 15 }))),
      BOT_CHALLENGE: 'off',
      QUOTA_ANON_PER_DAY: '1',
      QUOTA_USER_PER_DAY: '5',
      BREAKER: 'on',
      ADMIN_TOKEN,
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await duet?.close();
  });

  const formError = async (page: Awaited<ReturnType<typeof newPage>>['page']) => {
    const error = page.getByTestId('form-error');
    await error.waitFor();
    return error;
  };

  it('offers a visitor who is not signed in a sign-up on the spot once their questions for the day are asked', async () => {
    const { context, page } = await newPage(browser, { baseURL: duet.url, locale: 'ko-KR', viewport: PHONE });
    await askAnything(page, '하늘은 왜 파란가요?');
    await page.getByTestId('vote-bar').waitFor({ timeout: 40_000 });
    await askAnything(page, '바다는 왜 짠가요?');
    const error = await formError(page);
    expect(await error.textContent()).toContain('오늘 질문 1개를 모두 사용했어요. 가입하면 하루 5개까지 질문할 수 있어요.');
    await page.getByTestId('form-signup').click();
    const dialog = page.getByTestId('auth-dialog');
    await dialog.waitFor();
    expect(await dialog.locator('[data-mode]').getAttribute('data-mode')).toBe('signup');
    await context.close();
  });

  it('says when too few models are answering, and when the day’s budget is spent, when it opens again', async () => {
    const { context, page } = await newPage(browser, { baseURL: duet.url, locale: 'en-US' });
    await page.goto('/anything-question-duet');
    // Both models out of the draw, as if their providers had failed.
    const breaker = createModelBreaker(duet.redis, redisKeys(duet.prefix), loadGatewayConfig(duet.env).breaker);
    for (const m of DEMO_ROSTER) for (let i = 0; i < 10; i++) await breaker.record(m.id, 'fail');
    await new Promise((r) => setTimeout(r, 1_100));
    await askAnything(page, 'Why is the sea salty?');
    expect(await (await formError(page)).textContent()).toBe('Too few models are answering right now. Please try again in a minute.');
    expect(await page.getByTestId('form-signup').count()).toBe(0);
    await duet.redis.del(redisKeys(duet.prefix).breakerStates);

    // A budget smaller than one battle's worst case, set by an operator for every gateway.
    const set = await fetch(`${duet.url}/api/admin/budgets`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ overallUsdPerDay: 0.0001 }),
    });
    expect(set.status).toBe(200);
    await new Promise((r) => setTimeout(r, 1_100));
    // A new device's first question: within its quota, past the budget.
    await context.clearCookies();
    await askAnything(page, 'Why is the sky blue?');
    expect(await (await formError(page)).textContent()).toMatch(/^Today's questions have all been asked\. New ones open at .+ \(in about \d+ (hours|minutes)\)\.$/);
    await context.close();
  });
});
