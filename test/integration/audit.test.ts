import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { AuditLogEntry, AuditPage, CreateBattleResponse, ErrorResponse } from '@duet/contracts';
import { ZAuditEntrySchema, ZAuditPageSchema } from '@duet/contracts';
import { deleteApp, initializeApp } from 'firebase-admin/app';
import type { App } from 'firebase-admin/app';
import { getAuth } from 'firebase-admin/auth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMULATOR_HOST, identity, PROJECT } from '../helpers/accounts.ts';
import { postJson } from '../helpers/api.ts';
import { watchToEnd } from '../helpers/battle-viewer.ts';
import type { TestDuet } from '../helpers/duet.ts';
import { startTestDuet } from '../helpers/duet.ts';
import { waitFor } from '../helpers/wait.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);
const ADMIN_TOKEN = 'operator-'.padEnd(40, 'x');

/** A new emulator user with the `admin` claim, and an ID token that carries it. */
async function firebaseOperator(app: App): Promise<{ uid: string; idToken: string }> {
  const email = `op-${randomUUID()}@duet.test`;
  const password = 'correct horse battery';
  const { localId } = await identity<{ localId: string }>('accounts:signUp', { email, password, returnSecureToken: true });
  await getAuth(app).setCustomUserClaims(localId, { admin: true });
  const { idToken } = await identity<{ idToken: string }>('accounts:signInWithPassword', { email, password, returnSecureToken: true });
  return { uid: localId, idToken };
}

async function call<T>(url: string, init: { method?: string; body?: unknown; credential?: string | null } = {}): Promise<{ status: number; body: T & ErrorResponse }> {
  const credential = init.credential === undefined ? ADMIN_TOKEN : init.credential;
  const res = await fetch(url, {
    method: init.method ?? 'GET',
    headers: {
      ...(credential === null ? {} : { authorization: `Bearer ${credential}` }),
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: res.status, body: (await res.json()) as T & ErrorResponse };
}

describe('the operators’ audit log', () => {
  let duet: TestDuet;
  let firebase: App;
  let operator: { uid: string; idToken: string };
  /** Two finished battles the word list passed. */
  let first: string;
  let second: string;

  const api = (path: string) => `${duet.url}/api${path}`;
  const audit = async (query = '') => {
    const res = await call<AuditPage>(api(`/admin/audit${query}`));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return ZAuditPageSchema.parse(res.body);
  };
  const decide = async (id: string, action: 'approve' | 'takedown' | 'restore', body?: object, credential?: string) => {
    const res = await call(api(`/admin/battles/${id}/${action}`), { method: 'POST', body, credential });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  const finished = async (text: string) => {
    const created = await postJson<CreateBattleResponse>(api('/battles'), { tool: 'anything-question', text, lang: 'en' });
    expect(created.status).toBe(202);
    await watchToEnd(duet.url, created.body.battleId);
    return created.body.battleId;
  };
  /** The entry as it should read, `at` and `id` aside. */
  const entry = (actor: string, action: string, target: string, before: object, after: object) => ({ actor, action, target, before, after });
  const shape = ({ actor, action, target, before, after }: AuditLogEntry) => ({ actor, action, target, before, after });

  beforeAll(async () => {
    duet = await startTestDuet({ env: { ADMIN_TOKEN, FIREBASE_AUTH_EMULATOR_HOST: EMULATOR_HOST, MODERATION: 'wordlist', DEMO_SPEED: '400' } });
    firebase = initializeApp({ projectId: PROJECT }, `audit-test-${randomUUID()}`);
    operator = await firebaseOperator(firebase);
    [first, second] = [await finished('Why is the sky blue?'), await finished('What makes sunsets red?')];
    for (const id of [first, second]) {
      await waitFor(async () => (await duet.db.pool.query<{ moderation: string }>('SELECT moderation FROM battles WHERE id = $1', [id])).rows[0]?.moderation === 'ok', {
        what: `moderation of ${id}`,
      });
    }
  }, 120_000);
  afterAll(async () => {
    if (firebase) await deleteApp(firebase);
    await duet?.close();
  });

  it('records each decision with its author, the state before and after, newest first', async () => {
    // What the log held before (the gateway's own start-up entries): not this test's.
    const earlier = new Set((await audit('?limit=200')).entries.map((e) => e.id));
    await decide(first!, 'takedown', { reason: 'Reported by its asker.' });
    await decide(first!, 'restore', undefined, operator.idToken);
    await decide(first!, 'approve', { reason: 'Checked again.' });
    await decide(second!, 'takedown');
    await expect(
      run('npm', ['run', '--silent', 'takedown', '--', second!, '--restore'], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: duet.env.DATABASE_URL, REDIS_URL: duet.env.REDIS_URL, REDIS_PREFIX: duet.env.REDIS_PREFIX },
      }),
    ).resolves.toMatchObject({ stdout: expect.stringContaining(`Battle ${second} restored`) });

    const entries = (await audit('?limit=200')).entries.filter((e) => !earlier.has(e.id));
    expect(entries.map(shape)).toEqual([
      entry('cli', 'battle.restore', second!, { moderation: 'taken_down', reason: null }, { moderation: 'ok', reason: null }),
      entry('token', 'battle.takedown', second!, { moderation: 'ok', reason: null }, { moderation: 'taken_down', reason: null }),
      entry('token', 'battle.approve', first!, { moderation: 'ok', reason: null }, { moderation: 'ok', reason: 'Checked again.' }),
      entry(`firebase:${operator.uid}`, 'battle.restore', first!, { moderation: 'taken_down', reason: 'Reported by its asker.' }, { moderation: 'ok', reason: null }),
      entry('token', 'battle.takedown', first!, { moderation: 'ok', reason: null }, { moderation: 'taken_down', reason: 'Reported by its asker.' }),
    ]);
    const ids = entries.map((e) => BigInt(e.id));
    expect([...ids].sort((a, b) => (a < b ? 1 : -1))).toEqual(ids);
    const times = entries.map((e) => Date.parse(e.at));
    expect(times.every((t, i) => !Number.isNaN(t) && (i === 0 || t <= times[i - 1]!))).toBe(true);
    // Who decided is kept with the battle too.
    const { rows } = await duet.db.pool.query<{ id: string; moderated_by: string }>('SELECT id, moderated_by FROM battles WHERE id = ANY($1)', [[first, second]]);
    expect(Object.fromEntries(rows.map((r) => [r.id, r.moderated_by]))).toEqual({ [first!]: 'operator:token', [second!]: 'operator:cli' });
  }, 60_000);

  it('filters by action, actor and target, and pages with the cursor it gives', async () => {
    const all = (await audit()).entries;
    const where = (f: (e: AuditLogEntry) => boolean) => all.filter(f).map((e) => e.id);
    const ids = async (query: string) => (await audit(query)).entries.map((e) => e.id);

    expect(await ids('?action=battle.takedown')).toEqual(where((e) => e.action === 'battle.takedown'));
    expect(await ids('?action=battle.takedown')).toHaveLength(2);
    expect(await ids(`?actor=${encodeURIComponent(`firebase:${operator.uid}`)}`)).toEqual(where((e) => e.actor === `firebase:${operator.uid}`));
    expect(await ids(`?target=${second}`)).toEqual(where((e) => e.target === second));
    expect(await ids(`?action=battle.restore&actor=cli&target=${second}`)).toHaveLength(1);
    expect(await ids('?action=battle.delete')).toEqual([]);

    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const page: AuditPage = await audit(`?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.entries.length).toBeLessThanOrEqual(2);
      paged.push(...page.entries.map((e) => e.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(paged).toEqual(all.map((e) => e.id));
    // A cursor keeps its filters' company: the takedowns after the newest one.
    const takedowns = await audit('?action=battle.takedown&limit=1');
    expect((await audit(`?action=battle.takedown&cursor=${takedowns.nextCursor}`)).entries.map((e) => e.id)).toEqual(where((e) => e.action === 'battle.takedown').slice(1));
  });

  it('exports every matching entry as JSON lines, past a page of the export', async () => {
    // More entries than the export reads per query, as a busy log would have.
    const bulk = randomUUID();
    await duet.db.pool.query(
      `INSERT INTO operator_audit (actor, action, target, before, after)
       SELECT 'token', 'model.update', $1, jsonb_build_object('n', n - 1), jsonb_build_object('n', n) FROM generate_series(1, 1234) AS n`,
      [bulk],
    );
    const download = async (query: string) => {
      const res = await fetch(api(`/admin/audit.jsonl${query}`), { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
      expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="duet-audit\.jsonl"$/);
      const text = await res.text();
      expect(text.endsWith('\n') || text === '').toBe(true);
      return text.split('\n').filter(Boolean).map((line) => ZAuditEntrySchema.parse(JSON.parse(line)));
    };

    const lines = await download(`?target=${bulk}`);
    expect(lines).toHaveLength(1234);
    expect(lines[0]).toMatchObject({ actor: 'token', action: 'model.update', target: bulk, before: { n: 1233 }, after: { n: 1234 } });
    expect(lines.map((l) => (l.after as { n: number }).n)).toEqual(Array.from({ length: 1234 }, (_, i) => 1234 - i));

    const decisions = await download('?action=battle.restore');
    expect(decisions).toEqual((await audit('?action=battle.restore')).entries);
    expect(await download('?action=battle.delete')).toEqual([]);
    const stored = (await duet.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM operator_audit')).rows[0]!.n;
    expect(await download('')).toHaveLength(stored);
  });

  it('refuses bad filters, cursors and credentials, and a refused decision writes no entry', async () => {
    const count = async () => (await duet.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM operator_audit')).rows[0]!.n;
    const before = await count();
    const cursorOf = (key: unknown) => Buffer.from(JSON.stringify(key)).toString('base64url');
    for (const query of [
      '?limit=0',
      '?limit=201',
      '?limit=x',
      '?action=',
      '?action=a&action=b',
      '?actions=battle.approve',
      '?cursor=junk',
      `?cursor=${cursorOf(['0'])}`,
      `?cursor=${cursorOf(['-1'])}`,
      `?cursor=${cursorOf(['01'])}`,
      `?cursor=${cursorOf(['9223372036854775808'])}`,
      `?cursor=${cursorOf([1])}`,
      `?cursor=${cursorOf(['1', '2'])}`,
      `?cursor=${cursorOf(['1'])}=`,
      '?target=%00',
    ]) {
      for (const path of ['/admin/audit', '/admin/audit.jsonl']) {
        const res = await call(api(`${path}${query}`));
        expect({ path, query, status: res.status, code: res.body.error?.code }).toEqual({ path, query, status: 400, code: 'validation_failed' });
      }
    }
    // The download takes filters only: a cursor there is a mistake.
    expect((await call(api(`/admin/audit.jsonl?cursor=${cursorOf(['1'])}`))).status).toBe(400);

    for (const path of ['/admin/audit', '/admin/audit.jsonl']) {
      expect((await call(api(path), { credential: null })).status).toBe(401);
      expect((await call(api(path), { credential: `${ADMIN_TOKEN}y` })).status).toBe(403);
    }

    expect((await call(api(`/admin/battles/${first}/approve`), { method: 'POST', body: { reason: 'x'.repeat(501) } })).status).toBe(400);
    expect((await call(api(`/admin/battles/${randomUUID()}/takedown`), { method: 'POST' })).status).toBe(404);
    expect((await call(api(`/admin/battles/${first}/takedown`), { method: 'POST', credential: `${ADMIN_TOKEN}y` })).status).toBe(403);
    expect(await count()).toBe(before);
  });
});
