// Over 300 lines on purpose: the operators' console end to end in one Duet, one browser and one
// emulator session (every screen, both ways of signing in, and what each change does elsewhere).
import { readFileSync } from 'node:fs';
import type { AuditPage, CreateBattleResponse, HistoryResponse, QuotasReport, SpendReport } from '@duet/contracts';
import { pino } from 'pino';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../server/src/app.ts';
import { startGateway } from '../../server/src/app.ts';
import { loadGatewayConfig } from '../../server/src/config.ts';
import type { TestDuet } from '../helpers/duet.ts';
import { waitFor } from '../helpers/wait.ts';
import { createProviderAccount, EMULATOR_HOST, setCustomClaims, uniqueEmail } from './auth-emulator.ts';
import { wcagViolations } from './axe.ts';
import { DESKTOP, launchBrowser, newPage, PHONE, startAppDuet } from './browser.ts';

const ADMIN_TOKEN = 'console-operator-'.padEnd(48, 'k');
/** A 1×1 PNG (`test/helpers/api.ts` has it too, typed for Node's fetch only). */
const PNG = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='), (c) => c.charCodeAt(0));
const PASSWORD = 'operator-secret-1';
const TOOL = 'anything-question';
/** Four demo models, so that a weight and a disabled model show in the draw. */
const ROSTER = [
  { id: 'demo:atlas', label: 'Atlas', provider: 'demo', model: 'atlas', family: 'gpt' },
  { id: 'demo:sonnet', label: 'Sonnet', provider: 'demo', model: 'sonnet', family: 'claude' },
  { id: 'demo:iris', label: 'Iris', provider: 'demo', model: 'atlas', family: 'other' },
  { id: 'demo:juno', label: 'Juno', provider: 'demo', model: 'sonnet', family: 'other' },
];
const SCREENS = [
  ['now', '/admin', 'admin-now-pace'],
  ['models', '/admin/models', 'admin-model'],
  ['moderation', '/admin/moderation', 'admin-battle'],
  ['budgets', '/admin/budgets', 'admin-quotas-form'],
  ['audit', '/admin/audit', 'admin-audit-entry'],
] as const;

describe('the operators’ console', () => {
  let duet: TestDuet;
  let second: Gateway;
  let browser: Browser;
  let page: Page;
  const operator = { email: uniqueEmail('operator'), uid: '' };
  const visitor = { email: uniqueEmail('visitor') };
  /** Flagged battles the moderation test decides, and one left in the queue for the screenshots. */
  const flagged: Record<'approve' | 'hide' | 'running' | 'kept', string> = { approve: '', hide: '', running: '', kept: '' };

  const admin = async <T>(path: string): Promise<T> => {
    const res = await fetch(`${duet.url}${path}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(res.status, path).toBe(200);
    return (await res.json()) as T;
  };
  const history = async () => (await (await fetch(`${duet.url}/api/tools/${TOOL}/history?limit=50`)).json()) as HistoryResponse;

  /** A finished, voted battle (public once moderation passes it). */
  async function finishedBattle(text: string, opts: { image?: boolean } = {}): Promise<string> {
    let body: FormData | string = JSON.stringify({ tool: TOOL, text, lang: 'en' });
    if (opts.image) {
      body = new FormData();
      for (const [k, v] of Object.entries({ tool: TOOL, text, lang: 'en' })) body.set(k, v);
      body.set('image', new Blob([PNG], { type: 'image/png' }), 'q.png');
    }
    const res = await fetch(`${duet.url}/api/battles`, { method: 'POST', body, headers: typeof body === 'string' ? { 'content-type': 'application/json' } : {} });
    expect(res.status).toBe(202);
    const created = (await res.json()) as CreateBattleResponse;
    const id = created.battleId;
    await waitFor(async () => (await duet.db.pool.query(`SELECT 1 FROM battles WHERE id = $1 AND status = 'finished' AND moderation <> 'pending'`, [id])).rowCount === 1, {
      what: `battle ${id} to finish and be moderated`,
      timeoutMs: 30_000,
    });
    const vote = await fetch(`${duet.url}/api/battles/${id}/vote`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ winner: 'a', voteToken: created.voteToken }) });
    expect(vote.status).toBe(200);
    return id;
  }

  /** The pair each of `n` battles asked through the second gateway drew. */
  async function drawsThroughSecond(n: number): Promise<string[][]> {
    const ids = await Promise.all(
      Array.from({ length: n }, async (_, i) => {
        const res = await fetch(`${second.url}/api/battles`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ tool: TOOL, text: `Draw ${i}: what is a good name for a cat?`, lang: 'en' }),
        });
        expect(res.status).toBe(202);
        return ((await res.json()) as CreateBattleResponse).battleId;
      }),
    );
    const { rows } = await duet.db.pool.query<{ model_a: string; model_b: string }>('SELECT model_a, model_b FROM battles WHERE id = ANY($1)', [ids]);
    return rows.map((r) => [r.model_a, r.model_b]);
  }

  async function signInWithAccount(p: Page, email: string) {
    await p.getByTestId('admin-email').fill(email);
    await p.getByTestId('admin-password').fill(PASSWORD);
    await p.getByTestId('admin-account-submit').click();
  }

  async function signInWithToken(p: Page, token = ADMIN_TOKEN) {
    await p.getByTestId('admin-token').fill(token);
    await p.getByTestId('admin-token-submit').click();
  }

  const model = (id: string) => page.locator(`[data-testid="admin-model"][data-model="${id}"]`);
  const focusedBattle = () => page.getByTestId('admin-battle').getAttribute('data-battle');

  beforeAll(async () => {
    duet = await startAppDuet({ FIREBASE_AUTH_EMULATOR_HOST: EMULATOR_HOST, ADMIN_TOKEN, DUET_MODELS: JSON.stringify(ROSTER), DEMO_SPEED: '60' });
    second = await startGateway(loadGatewayConfig(duet.env), pino({ level: 'silent' }));
    browser = await launchBrowser();
    const account = await createProviderAccount(operator.email, PASSWORD);
    operator.uid = account.uid;
    await setCustomClaims(account.uid, { admin: true });
    await createProviderAccount(visitor.email, PASSWORD);

    flagged.kept = await finishedBattle('What should a lighthouse keeper read at night?', { image: true });
    flagged.running = await finishedBattle('Is a tomato a fruit?');
    flagged.hide = await finishedBattle('How do bees find their way home?');
    flagged.approve = await finishedBattle('Why do cats purr?', { image: true });
    await duet.db.pool.query(
      `UPDATE battles SET moderation = 'flagged', moderation_categories = '{violence}', moderated_by = 'wordlist', moderated_at = now() WHERE id = ANY($1)`,
      [Object.values(flagged)],
    );
    // Decided by the worker as finished, shown to the console as still running.
    await duet.db.pool.query(`UPDATE battles SET status = 'running' WHERE id = $1`, [flagged.running]);
    ({ page } = await newPage(browser, { baseURL: duet.url, locale: 'en-US', reducedMotion: 'reduce' }));
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await second?.close();
    await duet?.close();
  });

  it('is the app on its own routes, while the queue board and its sign-in stay the gateway’s', async () => {
    for (const path of ['/admin', '/admin/models', '/admin/moderation', '/admin/budgets', '/admin/audit']) {
      const res = await fetch(`${duet.url}${path}`, { headers: { accept: 'text/html' } });
      expect(res.status, path).toBe(200);
      expect(await res.text(), path).toContain('<div id="root">');
    }
    const board = await fetch(`${duet.url}/admin/queues`, { headers: { accept: 'text/html' } });
    expect(board.status).toBe(401);
    expect(await board.text()).not.toContain('<div id="root">');
    expect((await fetch(`${duet.url}/admin/session`)).status).toBe(200);
  });

  it('shows a signed-in visitor without the admin claim its sign-in only, saying the account is no operator’s', async () => {
    const { context, page: p } = await newPage(browser, { baseURL: duet.url, locale: 'en-US' });
    await p.goto('/admin/models');
    await signInWithAccount(p, visitor.email);
    const reason = p.getByTestId('admin-sign-in-reason');
    await expect.poll(() => reason.getAttribute('data-reason'), { timeout: 20_000 }).toBe('not-operator');
    expect(await reason.textContent()).toContain(`${visitor.email} is signed in, but it is not an operator account`);
    // Still signed in to Firebase in this tab: coming back, the console tries the account again and says the same.
    await p.reload();
    await expect.poll(() => p.getByTestId('admin-sign-in-reason').getAttribute('data-reason'), { timeout: 20_000 }).toBe('not-operator');
    expect(await p.getByTestId('admin-console').count()).toBe(0);
    expect(await p.getByTestId('admin-model').count()).toBe(0);
    await context.close();
  });

  it('refuses a wrong token, signs an operator in by the admin claim, and reads the figures again, never more than five seconds old', async () => {
    await page.goto('/admin');
    await signInWithToken(page, 'not-the-token'.padEnd(40, 'x'));
    await expect.poll(() => page.getByTestId('admin-sign-in-reason').getAttribute('data-reason')).toBe('token-refused');
    expect(await page.evaluate(() => sessionStorage.getItem('duet_admin_token'))).toBeNull();

    await signInWithAccount(page, operator.email);
    await page.getByTestId('admin-console').waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('admin-who').textContent()).toBe(operator.email);
    const figures = page.getByTestId('admin-now-pace');
    await figures.waitFor();
    expect(await page.getByTestId('admin-now-models').locator('tbody tr').count()).toBe(ROSTER.length);
    const readAt = () => page.getByTestId('admin-now-at').locator('time').getAttribute('datetime');
    const first = await readAt();
    await expect.poll(readAt, { timeout: 5_000, interval: 250 }).not.toBe(first);
    // Read again in place: the same document all along.
    expect(await page.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(1);
  });

  it('re-weights a model and the next battles through another gateway follow it; a disabled model leaves the draw', async () => {
    await page.getByTestId('admin-nav-models').click();
    await model('demo:juno').locator('[data-field="weight"]').fill('1000');
    await model('demo:juno').getByTestId('admin-model-save').click();
    await expect.poll(() => model('demo:juno').getByTestId('admin-model-change').textContent()).toContain(`firebase:${operator.uid}`);
    await expect.poll(async () => (await drawsThroughSecond(10)).every((pair) => pair.includes('demo:juno')), { timeout: 10_000 }).toBe(true);
    expect((await drawsThroughSecond(30)).every((pair) => pair.includes('demo:juno'))).toBe(true);

    await model('demo:iris').getByTestId('admin-model-enabled').uncheck();
    await expect.poll(() => model('demo:iris').getAttribute('data-state')).toBe('disabled');
    await expect.poll(async () => (await drawsThroughSecond(10)).every((pair) => !pair.includes('demo:iris')), { timeout: 10_000 }).toBe(true);
    // With Juno's weight, its partner is drawn evenly from the others: Iris would be in about a third.
    expect((await drawsThroughSecond(30)).some((pair) => pair.includes('demo:iris'))).toBe(false);
  });

  it('retires a model once confirmed, asks before leaving fewer than two to draw, and shows the API’s refusals', async () => {
    await model('demo:atlas').getByTestId('admin-model-retire').click();
    const dialog = page.getByTestId('admin-confirm');
    await expect.poll(() => dialog.evaluate((d) => (d as HTMLDialogElement).open)).toBe(true);
    await page.getByTestId('admin-confirm-ok').click();
    await expect.poll(() => model('demo:atlas').getAttribute('data-state')).toBe('retired');

    // Sonnet and Juno are the last two: disabling one needs the operator's word, and Cancel keeps it.
    await model('demo:sonnet').getByTestId('admin-model-enabled').uncheck();
    await expect.poll(() => dialog.evaluate((d) => (d as HTMLDialogElement).open)).toBe(true);
    expect(await dialog.textContent()).toContain('leave 1 model to draw from');
    await page.getByTestId('admin-confirm-cancel').click();
    expect(await model('demo:sonnet').getAttribute('data-state')).toBe('enabled');
    await expect.poll(() => model('demo:sonnet').getByTestId('admin-model-enabled').isChecked()).toBe(true);

    // A new model is added disabled; one that cannot run says why, and enabling it is refused with that reason.
    await page.getByTestId('admin-add-toggle').click();
    const form = page.getByTestId('admin-add-model');
    await form.locator('[data-field="id"]').fill('openai:gpt-4o-mini');
    await form.locator('[data-field="label"]').fill('GPT-4o mini');
    await form.locator('[data-field="model"]').fill('gpt-4o-mini');
    await form.locator('[data-field="apiKeyEnv"]').fill('CONSOLE_TEST_API_KEY');
    await page.getByTestId('admin-add-submit').click();
    await model('openai:gpt-4o-mini').waitFor();
    expect(await model('openai:gpt-4o-mini').getAttribute('data-state')).toBe('disabled');
    expect(await model('openai:gpt-4o-mini').getByTestId('admin-model-unrunnable').textContent()).toContain('CONSOLE_TEST_API_KEY is not set');
    await model('openai:gpt-4o-mini').getByTestId('admin-model-enabled').check();
    await expect.poll(() => model('openai:gpt-4o-mini').getByTestId('admin-model-error').textContent()).toContain('cannot be enabled: CONSOLE_TEST_API_KEY is not set');
    await expect.poll(() => model('openai:gpt-4o-mini').getByTestId('admin-model-enabled').isChecked()).toBe(false);

    // A taken id: 409 conflict, in the API's words.
    await page.getByTestId('admin-add-toggle').click();
    await form.locator('[data-field="id"]').fill('demo:juno');
    await form.locator('[data-field="label"]').fill('Juno again');
    await form.locator('[data-field="model"]').fill('sonnet');
    await form.locator('[data-field="provider"]').selectOption('demo');
    await page.getByTestId('admin-add-submit').click();
    await expect.poll(() => page.getByTestId('admin-add-error').getAttribute('data-code')).toBe('conflict');
    expect(await page.getByTestId('admin-add-error').textContent()).toContain('demo:juno exists already');
  });

  it('works through flagged battles by keyboard: approves one into the public history, hides one, restores it', async () => {
    await page.getByTestId('admin-nav-moderation').click();
    await page.getByTestId('admin-battle').waitFor();
    // Newest first; the image comes through the bearer-guarded route as a blob.
    expect(await focusedBattle()).toBe(flagged.approve);
    await expect.poll(() => page.getByTestId('admin-battle-image').getAttribute('src')).toMatch(/^blob:/);
    expect(await page.getByTestId('admin-battle-question').textContent()).toBe('Why do cats purr?');
    expect((await page.getByTestId('admin-answer-a').textContent())?.length).toBeGreaterThan(20);
    expect(await page.getByTestId('admin-battle').textContent()).toContain('violence');
    expect(await page.getByTestId('admin-battle-by').textContent()).toContain('wordlist');

    await page.keyboard.press('j');
    expect(await focusedBattle()).toBe(flagged.hide);
    await page.keyboard.press('ArrowDown');
    expect(await focusedBattle()).toBe(flagged.running);
    await page.keyboard.press('a');
    await expect.poll(() => page.getByTestId('admin-decide-error').getAttribute('data-code')).toBe('battle_not_finished');
    expect(await page.getByTestId('admin-decide-error').textContent()).toContain('still running');
    await page.keyboard.press('k');
    await page.keyboard.press('ArrowUp');
    expect(await focusedBattle()).toBe(flagged.approve);

    await page.keyboard.press('a');
    await expect.poll(focusedBattle).toBe(flagged.hide);
    await expect.poll(async () => (await history()).list.some((e) => e.id === flagged.approve)).toBe(true);

    await page.keyboard.press('h');
    await page.getByTestId('admin-hide-reason').fill('Graphic violence');
    await page.keyboard.press('Enter');
    await expect.poll(focusedBattle).toBe(flagged.running);
    expect((await history()).list.some((e) => e.id === flagged.hide)).toBe(false);
    expect(await page.locator(`[data-battle="${flagged.hide}"]`).count()).toBe(0);

    await page.getByTestId('admin-queue-taken_down').click();
    await expect.poll(focusedBattle).toBe(flagged.hide);
    expect(await page.getByTestId('admin-battle').textContent()).toContain('Graphic violence');
    await page.keyboard.press('r');
    await page.getByTestId('admin-queue-empty').waitFor();
    await expect.poll(async () => (await history()).list.some((e) => e.id === flagged.hide)).toBe(true);
  });

  it('changes budgets and quotas live, as the API then reports them', async () => {
    const { context, page: p } = await newPage(browser, { baseURL: duet.url, locale: 'en-US' });
    await p.goto('/admin/budgets');
    await signInWithToken(p);
    const budgets = p.getByTestId('admin-budgets-form');
    await budgets.waitFor();
    await budgets.getByLabel('All models, USD a day').fill('12.5');
    await budgets.getByLabel('Sonnet, USD a day').fill('3');
    await p.getByTestId('admin-budgets-save').click();
    await p.getByTestId('admin-budgets-done').waitFor();
    const spend = await admin<SpendReport>('/api/admin/spend');
    expect(spend.budgets.overallUsdPerDay).toBe(12.5);
    expect(spend.budgets.models['demo:sonnet']).toBe(3);

    await p.locator('[data-field="anonPerDay"]').fill('40');
    await p.getByTestId('admin-quotas-save').click();
    await p.getByTestId('admin-quotas-done').waitFor();
    expect((await admin<QuotasReport>('/api/admin/quotas')).anonPerDay).toBe(40);
    await p.locator('[data-quota="anonPerDay"]').getByRole('button').click();
    await expect.poll(async () => (await admin<QuotasReport>('/api/admin/quotas')).anonPerDay).toBe(0);
    await expect.poll(() => p.locator('[data-field="anonPerDay"]').inputValue()).toBe('0');

    // A credential the API stops taking sends the console back to its sign-in.
    await p.evaluate(() => sessionStorage.setItem('duet_admin_token', 'revoked'.padEnd(40, 'x')));
    await p.getByTestId('admin-nav-audit').click();
    await expect.poll(() => p.getByTestId('admin-sign-in-reason').getAttribute('data-reason')).toBe('token-refused');
    await context.close();
  });

  it('lists every action above with its author, filtered, and downloads the filtered log as JSONL', async () => {
    await page.getByTestId('admin-nav-audit').click();
    await page.locator('[data-field="actor"]').fill(`firebase:${operator.uid}`);
    await page.getByTestId('admin-audit-apply').click();
    const entries = page.getByTestId('admin-audit-entry');
    // The unfiltered log stays on screen until the filtered one arrives.
    await expect.poll(async () => [...new Set(await entries.evaluateAll((els) => els.map((e) => e.getAttribute('data-actor'))))]).toEqual([`firebase:${operator.uid}`]);
    expect(await entries.evaluateAll((els) => els.map((e) => e.getAttribute('data-action')))).toEqual(
      expect.arrayContaining(['model.update', 'model.retire', 'model.create', 'battle.approve', 'battle.takedown', 'battle.restore']),
    );
    const weight = entries.filter({ hasText: 'demo:juno' }).filter({ hasText: 'weight' });
    expect(await weight.locator('.adm-diff__row').first().textContent()).toMatch(/weight\s*1\s*→\s*1000/);

    const download = page.waitForEvent('download');
    await page.getByTestId('admin-audit-download').click();
    const file = await (await download).path();
    const lines = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as AuditPage['entries'][number]);
    expect(lines.every((l) => l.actor === `firebase:${operator.uid}`)).toBe(true);
    expect(lines.map((l) => l.action)).toEqual(expect.arrayContaining(['model.update', 'battle.takedown']));

    const byToken = await admin<AuditPage>('/api/admin/audit?actor=token');
    expect(byToken.entries.map((e) => e.action)).toEqual(expect.arrayContaining(['budgets.update', 'quotas.update']));
  });

  for (const [device, viewport] of [['phone', PHONE], ['desktop', DESKTOP]] as const) {
    for (const lang of ['en', 'ko'] as const) {
      it(`shows every screen on a ${device} in ${lang === 'en' ? 'English' : 'Korean'} with no axe-core violation`, async () => {
        const { context, page: p } = await newPage(browser, { baseURL: duet.url, viewport, locale: lang === 'ko' ? 'ko-KR' : 'en-US', reducedMotion: 'reduce' });
        const found: Record<string, unknown> = {};
        await p.goto('/admin');
        await p.getByTestId('admin-token-form').waitFor();
        found['sign-in'] = await wcagViolations(p);
        await p.screenshot({ path: `/tmp/console-sign-in-${device}-${lang}.png`, fullPage: true });
        await signInWithToken(p);
        await p.getByTestId('admin-console').waitFor();
        for (const [name, path, ready] of SCREENS) {
          await p.goto(path);
          await p.getByTestId(ready).first().waitFor({ timeout: 20_000 });
          found[name] = await wcagViolations(p);
          await p.screenshot({ path: `/tmp/console-${name}-${device}-${lang}.png`, fullPage: true });
        }
        await context.close();
        expect(Object.fromEntries(Object.entries(found).filter(([, v]) => (v as unknown[]).length > 0))).toEqual({});
      });
    }
  }
});
