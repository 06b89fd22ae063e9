import { randomUUID } from 'node:crypto';
import { ALL_QUEUES, ZErrorResponseSchema } from '@duet/contracts';
import { deleteApp, initializeApp } from 'firebase-admin/app';
import type { App } from 'firebase-admin/app';
import { getAuth } from 'firebase-admin/auth';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDuet } from '../helpers/duet.ts';
import { startTestDuet } from '../helpers/duet.ts';

const EMULATOR_HOST = process.env.FIREBASE_AUTH_EMULATOR_HOST ?? '127.0.0.1:9099';
const IDENTITY = `http://${EMULATOR_HOST}/identitytoolkit.googleapis.com/v1`;
const ADMIN_TOKEN = `board-${randomUUID()}`;
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

async function identity<T>(method: string, body: object): Promise<T> {
  const res = await fetch(`${IDENTITY}/${method}?key=any`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${method}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** A new emulator user, and a fresh ID token for it (carrying whatever claims it has by then). */
async function firebaseUser(claims?: object): Promise<{ uid: string; idToken: string }> {
  const email = `op-${randomUUID()}@duet.test`;
  const password = 'correct horse battery';
  const { localId } = await identity<{ localId: string }>('accounts:signUp', { email, password, returnSecureToken: true });
  if (claims) await getAuth(admin).setCustomUserClaims(localId, claims);
  const { idToken } = await identity<{ idToken: string }>('accounts:signInWithPassword', { email, password, returnSecureToken: true });
  return { uid: localId, idToken };
}

let admin: App;

describe('the queue board at /admin/queues', () => {
  let duet: TestDuet;
  let operator: { idToken: string };
  let visitor: { idToken: string };

  beforeAll(async () => {
    duet = await startTestDuet({ noWorker: true, env: { ADMIN_TOKEN, FIREBASE_AUTH_EMULATOR_HOST: EMULATOR_HOST } });
    admin = initializeApp({ projectId: 'demo-duet' }, `board-test-${randomUUID()}`);
    [operator, visitor] = await Promise.all([firebaseUser({ admin: true }), firebaseUser()]);
  });
  afterAll(async () => {
    if (admin) await deleteApp(admin);
    await duet?.close();
  });

  const board = (path = '/admin/queues', headers: Record<string, string> = {}) => fetch(`${duet.url}${path}`, { headers, redirect: 'manual' });
  const bearer = (credential: string) => ({ authorization: `Bearer ${credential}` });
  const openSession = (body: string, headers: Record<string, string>) =>
    fetch(`${duet.url}/admin/session`, { method: 'POST', headers, body, redirect: 'manual' });
  const sessionCookie = (res: Response) => res.headers.get('set-cookie')?.split(';')[0];

  const expectRefusal = async (res: Response, status: number, code: string) => {
    expect(res.status).toBe(status);
    const body = ZErrorResponseSchema.parse(await res.json());
    expect(body.error.code).toBe(code);
  };

  const expectBoard = async (headers: Record<string, string>) => {
    const page = await board('/admin/queues', headers);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<base href="/admin/queues/"');
    const api = await board('/admin/queues/api/queues', headers);
    expect(api.status).toBe(200);
    const { queues } = (await api.json()) as { queues: Array<{ name: string }> };
    expect(queues.map((q) => q.name).sort()).toEqual([...ALL_QUEUES].sort());
  };

  it('answers 401 without a credential: JSON to a script, the sign-in form to a browser', async () => {
    const res = await board();
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    await expectRefusal(res, 401, 'unauthorized');
    await expectRefusal(await board('/admin/queues/api/queues'), 401, 'unauthorized');
    await expectRefusal(await board('/admin/queues/static/js/main.js'), 401, 'unauthorized');
    const page = await board('/admin/queues', { accept: 'text/html,application/xhtml+xml' });
    expect(page.status).toBe(401);
    expect(await page.text()).toMatch(/<form method="post" action="\/admin\/session">/);
  });

  it('answers 403 to a wrong token, a forged session and a Firebase user without the admin claim', async () => {
    await expectRefusal(await board('/admin/queues', bearer(`${ADMIN_TOKEN}x`)), 403, 'invalid_token');
    await expectRefusal(await board('/admin/queues', bearer('a.b.c')), 403, 'invalid_token');
    await expectRefusal(await board('/admin/queues', bearer(visitor.idToken)), 403, 'invalid_token');
    await expectRefusal(await board('/admin/queues/api/queues', bearer(visitor.idToken)), 403, 'invalid_token');
    // A cookie that was not signed here is no session at all.
    await expectRefusal(await board('/admin/queues', { cookie: 'duet_operator=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ0b2tlbiJ9.AAAA' }), 401, 'unauthorized');
  });

  it('opens to ADMIN_TOKEN and to a Firebase user with the admin claim, under the app’s own Content-Security-Policy', async () => {
    await expectBoard(bearer(ADMIN_TOKEN));
    await expectBoard(bearer(operator.idToken));
    const page = await board('/admin/queues', bearer(ADMIN_TOKEN));
    const app = await fetch(`${duet.url}/api/meta`);
    expect(page.headers.get('content-security-policy')).toBe(app.headers.get('content-security-policy'));
    expect(page.headers.get('x-powered-by')).toBeNull();
  });

  it('trades a credential for a short-lived signed HttpOnly cookie that opens the board', async () => {
    const json = { 'content-type': 'application/json' };
    await expectRefusal(await openSession('{}', json), 401, 'unauthorized');
    const wrong = await openSession(JSON.stringify({ token: `${ADMIN_TOKEN}x` }), json);
    expect(wrong.headers.get('set-cookie')).toBeNull();
    await expectRefusal(wrong, 403, 'invalid_token');
    await expectRefusal(await openSession(JSON.stringify({ token: visitor.idToken }), json), 403, 'invalid_token');

    const opened = await openSession(JSON.stringify({ token: ADMIN_TOKEN }), json);
    expect(opened.status).toBe(200);
    const setCookie = opened.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/^duet_operator=[\w-]+\.[\w-]+\.[\w-]+;/);
    expect(setCookie).toMatch(/Max-Age=1800/);
    expect(setCookie).toMatch(/Path=\/admin(;|$)/);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    const { expiresAt } = (await opened.json()) as { expiresAt: string };
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(29 * 60_000);
    await expectBoard({ cookie: sessionCookie(opened)! });

    const byFirebase = await openSession(JSON.stringify({ token: operator.idToken }), json);
    expect(byFirebase.status).toBe(200);
    await expectBoard({ cookie: sessionCookie(byFirebase)! });

    // A changing request carrying the cookie from another site is refused before the board sees it.
    const crossSite = await fetch(`${duet.url}/admin/queues/api/queues/battles/pause`, {
      method: 'PUT',
      headers: { cookie: sessionCookie(opened)!, origin: 'https://evil.example' },
    });
    await expectRefusal(crossSite, 403, 'origin_not_allowed');
  });

  it('signs a browser in through its form, and the board works under the CSP', async () => {
    const form = await openSession(new URLSearchParams({ token: ADMIN_TOKEN }).toString(), {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'text/html',
    });
    expect(form.status).toBe(303);
    expect(form.headers.get('location')).toBe('/admin/queues');
    expect(sessionCookie(form)).toMatch(/^duet_operator=/);

    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
    try {
      const page = await browser.newPage();
      const problems: string[] = [];
      page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
      page.on('console', (m) => {
        if (m.text().startsWith('CSP ')) problems.push(m.text());
      });
      // Every page reports what the Content-Security-Policy blocked.
      await page.addInitScript({
        content: "document.addEventListener('securitypolicyviolation', (e) => console.error('CSP ' + e.violatedDirective + ' ' + e.blockedURI));",
      });
      const first = await page.goto(`${duet.url}/admin/queues`);
      expect(first?.status()).toBe(401);
      await page.fill('#token', ADMIN_TOKEN);
      await Promise.all([page.waitForURL(`${duet.url}/admin/queues`), page.click('button[type=submit]')]);
      for (const queue of ALL_QUEUES) await page.getByText(queue, { exact: true }).first().waitFor({ timeout: 15_000 });
      await page.goto(`${duet.url}/admin/queues/queue/battles`);
      await page.getByText('No latest jobs in this queue.').waitFor({ timeout: 15_000 });
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 60_000);
});

describe('the queue board with no operator credential configured', () => {
  it('is not there: 404', async () => {
    const duet = await startTestDuet({ noWorker: true });
    try {
      for (const path of ['/admin/queues', '/admin/session']) {
        const res = await fetch(`${duet.url}${path}`, { headers: { authorization: 'Bearer anything-at-all' } });
        expect(res.status).toBe(404);
      }
    } finally {
      await duet.close();
    }
  });
});
