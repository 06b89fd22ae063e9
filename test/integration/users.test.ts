// Over 300 lines on purpose: the specification's account calls and their error catalogue, against one Auth Emulator.
import { randomBytes, randomUUID } from 'node:crypto';
import { AUTH_MESSAGES, SIGNUP_EVENT, SIGNUP_GIFTS, ZAuthConfigSchema, ZLoginResponseSchema, ZProfileResponseSchema, ZSignupResponseSchema } from '@duet/contracts';
import type { CreateBattleResponse, LoginResponse, ProfileResponse, SignupResponse } from '@duet/contracts';
import { SignJWT } from 'jose';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway } from '../../server/src/app.ts';
import { loadGatewayConfig } from '../../server/src/config.ts';
import { call, EMULATOR_HOST, firebaseUser, identity, PROJECT } from '../helpers/accounts.ts';
import type { OobCode } from '../helpers/accounts.ts';
import { TINY_PNG } from '../helpers/api.ts';
import type { TestDuet } from '../helpers/duet.ts';
import { startTestDuet } from '../helpers/duet.ts';
import { waitFor } from '../helpers/wait.ts';

/** An unsigned token shaped like the emulator's, for any project and uid. */
function unsignedIdToken(projectId: string, uid: string): string {
  const now = Math.floor(Date.now() / 1000);
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part({
    email: 'forged@duet.test',
    email_verified: true,
    auth_time: now,
    user_id: uid,
    firebase: { identities: {}, sign_in_provider: 'password' },
    iat: now,
    exp: now + 3600,
    aud: projectId,
    iss: `https://securetoken.google.com/${projectId}`,
    sub: uid,
  })}.`;
}

/** A JWT with some payload claims changed and its signature kept. */
function withClaims(jwt: string, claims: object): string {
  const [header, payload, signature] = jwt.split('.');
  const edited = { ...(JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()) as object), ...claims };
  return `${header}.${Buffer.from(JSON.stringify(edited)).toString('base64url')}.${signature}`;
}

describe('accounts on the Firebase Auth Emulator', () => {
  let duet: TestDuet;
  const url = (path: string) => `${duet.url}${path}`;

  beforeAll(async () => {
    duet = await startTestDuet({ env: { FIREBASE_AUTH_EMULATOR_HOST: EMULATOR_HOST } });
  });
  afterAll(async () => {
    await duet?.close();
  });

  const signup = (token: string, event = SIGNUP_EVENT) =>
    call<SignupResponse>(url('/api/v2/user/signup'), { body: { provider: 'firebase', token, event } });
  const login = (token: string) => call<LoginResponse>(url('/api/v2/user/login'), { body: { provider: 'firebase', token } });
  const profile = (init: { token?: string; authorization?: string } = {}) => call<ProfileResponse>(url('/api/v2/user/profile'), init);
  const count = async (sql: string, params: unknown[] = []) => (await duet.db.pool.query<{ n: number }>(sql, params)).rows[0]?.n;
  const usersWithUid = (uid: string) => count('SELECT count(*)::int AS n FROM users WHERE firebase_uid = $1', [uid]);

  /** A signed-up, logged-in account: its Firebase user, its Duet user id and a session token. */
  const account = async () => {
    const user = await firebaseUser();
    expect((await signup(user.idToken)).status).toBe(200);
    const res = await login(user.idToken);
    expect(res.status).toBe(200);
    const { rows } = await duet.db.pool.query<{ id: string }>('SELECT id FROM users WHERE firebase_uid = $1', [user.uid]);
    return { ...user, userId: rows[0]!.id, session: res.body.data.token };
  };

  const sessionSecret = async (): Promise<Uint8Array> => {
    const { rows } = await duet.db.pool.query<{ value: Buffer }>("SELECT value FROM app_secrets WHERE name = 'session-hs256'");
    return new Uint8Array(rows[0]!.value);
  };

  describe('signup', () => {
    it('creates the account with its gift, then answers { data: false } for the same account', async () => {
      const user = await firebaseUser({ displayName: 'Ada', photoUrl: 'https://example.com/ada.png' });
      const first = await signup(user.idToken);
      expect(first.status).toBe(200);
      const parsed = ZSignupResponseSchema.parse(first.body);
      expect(parsed.data).not.toBe(false);
      if (parsed.data === false) return;
      expect(parsed.data.user).toMatchObject({
        user_uid: user.uid,
        email: user.email,
        displayName: 'Ada',
        picture: 'https://example.com/ada.png',
        provider: 'firebase',
        emailVerified: false,
        benefits: { writingMonths: SIGNUP_GIFTS.writingMonths, drawingTokens: SIGNUP_GIFTS.drawingTokens, event: SIGNUP_EVENT },
      });

      const again = await signup(user.idToken);
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ data: false });
      expect(await usersWithUid(user.uid)).toBe(1);
      const { rows } = await duet.db.pool.query(
        `SELECT b.writing_months, b.drawing_tokens, b.event, u.signup_event, u.provider
           FROM signup_benefits b JOIN users u ON u.id = b.user_id WHERE u.firebase_uid = $1`,
        [user.uid],
      );
      expect(rows).toEqual([{ writing_months: 1, drawing_tokens: 130, event: SIGNUP_EVENT, signup_event: SIGNUP_EVENT, provider: 'firebase' }]);
    });

    it('grants the gift exactly once when the same account signs up five times at once', async () => {
      const user = await firebaseUser();
      const results = await Promise.all(Array.from({ length: 5 }, () => signup(user.idToken)));
      expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      expect(results.filter((r) => r.body.data !== false)).toHaveLength(1);
      expect(results.filter((r) => r.body.data === false)).toHaveLength(4);
      expect(await usersWithUid(user.uid)).toBe(1);
      expect(
        await count('SELECT count(*)::int AS n FROM signup_benefits b JOIN users u ON u.id = b.user_id WHERE u.firebase_uid = $1', [user.uid]),
      ).toBe(1);
    });

    it('refuses a forged Firebase token with 401 and stores nothing', async () => {
      const real = await firebaseUser();
      const before = await count('SELECT count(*)::int AS n FROM users');
      for (const token of [
        'not-a-token',
        randomBytes(300).toString('base64url'),
        unsignedIdToken('another-project', real.uid),
        unsignedIdToken(PROJECT, `nobody-${randomUUID().slice(0, 8)}`),
        // A genuine token whose payload was edited to claim another account.
        withClaims(real.idToken, { sub: 'someone-else', user_id: 'someone-else' }),
      ]) {
        const res = await signup(token);
        expect(res.status, token.slice(0, 40)).toBe(401);
        expect(res.body.error.code).toBe('unauthorized');
        expect((await login(token)).status).toBe(401);
      }
      expect(await count('SELECT count(*)::int AS n FROM users')).toBe(before);
      expect(await count('SELECT count(*)::int AS n FROM signup_benefits')).toBe(before);
    });

    it('refuses an anonymous Firebase sign-in: an account needs e-mail or Google', async () => {
      const anonymous = await identity<{ idToken: string; localId: string }>('accounts:signUp', { returnSecureToken: true });
      const res = await signup(anonymous.idToken);
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('unauthorized');
      expect(await usersWithUid(anonymous.localId)).toBe(0);
    });

    it('answers 400 to bodies that break the contract', async () => {
      const user = await firebaseUser();
      for (const body of [
        {},
        { provider: 'firebase', token: user.idToken },
        { provider: 'google', token: user.idToken, event: SIGNUP_EVENT },
        { provider: 'firebase', token: '', event: SIGNUP_EVENT },
        { provider: 'firebase', token: user.idToken, event: 'x'.repeat(65) },
        { provider: 'firebase', token: 42, event: SIGNUP_EVENT },
      ]) {
        const res = await call(url('/api/v2/user/signup'), { body });
        expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
        expect(res.body.error.code).toBe('validation_failed');
      }
      expect((await call(url('/api/v2/user/login'), { body: { provider: 'password', token: user.idToken } })).status).toBe(400);
      expect((await call(url('/api/v2/user/login'), { body: { provider: 'firebase' } })).status).toBe(400);
      expect(await usersWithUid(user.uid)).toBe(0);
    });
  });

  describe('login and profile', () => {
    it('answers 404 not_registered with the specification’s message for an account that never signed up', async () => {
      const user = await firebaseUser();
      const res = await login(user.idToken);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: { code: 'not_registered', message: '가입되지 않은 계정입니다. 회원가입을 해주세요' } });
      expect(await usersWithUid(user.uid)).toBe(0);
    });

    it('returns a session token that opens the profile, with the account’s uid, picture and gift', async () => {
      const user = await firebaseUser();
      await signup(user.idToken);
      // The picture and name are set after signup; login refreshes them from the new token.
      await identity('accounts:update', { idToken: user.idToken, displayName: 'Grace', photoUrl: 'https://example.com/grace.png' });
      const fresh = await identity<{ idToken: string }>('accounts:signInWithPassword', {
        email: user.email,
        password: 'correct horse battery',
        returnSecureToken: true,
      });
      const before = Date.now();
      const res = await login(fresh.idToken);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const { data } = ZLoginResponseSchema.parse(res.body);
      const expiresIn = Date.parse(data.expiresAt) - before;
      expect(expiresIn).toBeGreaterThan(12 * 3600_000 - 60_000);
      expect(expiresIn).toBeLessThan(12 * 3600_000 + 60_000);

      const me = await profile({ token: data.token });
      expect(me.status).toBe(200);
      const { user: p } = ZProfileResponseSchema.parse(me.body).data;
      expect(p).toMatchObject({
        user_uid: user.uid,
        picture: 'https://example.com/grace.png',
        displayName: 'Grace',
        email: user.email,
        provider: 'firebase',
        benefits: { writingMonths: 1, drawingTokens: 130, event: SIGNUP_EVENT },
      });
      expect(Date.parse(p.createdAt)).toBeGreaterThan(0);
      const { rows } = await duet.db.pool.query('SELECT last_login_at FROM users WHERE firebase_uid = $1', [user.uid]);
      expect(rows[0].last_login_at).toBeInstanceOf(Date);
    });

    it('records a verified e-mail at the next login', async () => {
      const user = await firebaseUser();
      await signup(user.idToken);
      const oobCodes = async () =>
        ((await (await fetch(`http://${EMULATOR_HOST}/emulator/v1/projects/${PROJECT}/oobCodes`)).json()) as { oobCodes: OobCode[] }).oobCodes;
      await identity('accounts:sendOobCode', { requestType: 'VERIFY_EMAIL', idToken: user.idToken });
      const code = (await oobCodes()).find((c) => c.email === user.email && c.requestType === 'VERIFY_EMAIL');
      expect(code).toBeDefined();
      await identity('accounts:update', { oobCode: code?.oobCode });
      const fresh = await identity<{ idToken: string }>('accounts:signInWithPassword', {
        email: user.email,
        password: 'correct horse battery',
        returnSecureToken: true,
      });
      const session = (await login(fresh.idToken)).body.data.token;
      expect((await profile({ token: session })).body.data.user.emailVerified).toBe(true);
    });

    it('answers 412 invalid_token with the specification’s message to every token that is not a live session', async () => {
      const me = await account();
      const secret = await sessionSecret();
      const now = Math.floor(Date.now() / 1000);
      const sign = (claims: { sub?: string; iss?: string; iat?: number; exp?: number }, key: Uint8Array = secret) => {
        let jwt = new SignJWT({}).setProtectedHeader({ alg: 'HS256' });
        if (claims.sub !== undefined) jwt = jwt.setSubject(claims.sub);
        if (claims.iss !== undefined) jwt = jwt.setIssuer(claims.iss);
        if (claims.iat !== undefined) jwt = jwt.setIssuedAt(claims.iat);
        if (claims.exp !== undefined) jwt = jwt.setExpirationTime(claims.exp);
        return jwt.sign(key);
      };
      const valid = { sub: me.userId, iss: 'duet', iat: now, exp: now + 3600 };
      // The control: the same recipe with the stored secret opens the profile.
      expect((await profile({ token: await sign(valid) })).status).toBe(200);

      const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
      const cases: Array<[string, { token?: string; authorization?: string }]> = [
        ['no header', {}],
        ['an empty header', { authorization: '' }],
        ['another scheme', { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }],
        ['garbage', { token: 'garbage' }],
        ['"null"', { token: 'null' }],
        ['another secret', { token: await sign(valid, randomBytes(32)) }],
        ['expired', { token: await sign({ ...valid, iat: now - 7200, exp: now - 3600 }) }],
        ['another issuer', { token: await sign({ ...valid, iss: 'someone' }) }],
        ['no expiry', { token: await sign({ sub: me.userId, iss: 'duet', iat: now }) }],
        ['a subject that is no user id', { token: await sign({ ...valid, sub: 'admin' }) }],
        ['an unknown user', { token: await sign({ ...valid, sub: randomUUID() }) }],
        ['alg none', { token: `${part({ alg: 'none' })}.${part(valid)}.` }],
        ['a Firebase ID token', { token: me.idToken }],
        ['a tampered session', { token: withClaims(me.session, { sub: randomUUID() }) }],
      ];
      for (const [what, init] of cases) {
        const res = await profile(init);
        expect(res.status, what).toBe(412);
        expect(res.body, what).toEqual({ error: { code: 'invalid_token', message: '유효하지 않은 토큰입니다.' } });
      }
      expect(AUTH_MESSAGES.invalidToken).toBe('유효하지 않은 토큰입니다.');
      // The real session still works.
      expect((await profile({ token: me.session })).status).toBe(200);
    });

    it('refuses the session of an account that was deleted', async () => {
      const me = await account();
      await duet.db.pool.query('DELETE FROM users WHERE id = $1', [me.userId]);
      const res = await profile({ token: me.session });
      expect(res.status).toBe(412);
      expect(res.body.error.code).toBe('invalid_token');
    });

    it('keeps sessions valid on another gateway of the same database (the generated secret is shared)', async () => {
      const me = await account();
      const other = await startGateway(loadGatewayConfig({ ...duet.env, PORT: '0' }), pino({ level: 'silent' }));
      try {
        const res = await call<ProfileResponse>(`${other.url}/api/v2/user/profile`, { token: me.session });
        expect(res.status).toBe(200);
        expect(res.body.data.user.user_uid).toBe(me.uid);
      } finally {
        await other.close();
      }
      expect(await count("SELECT count(*)::int AS n FROM app_secrets WHERE name = 'session-hs256'")).toBe(1);
    });
  });

  describe('battles and votes of a signed-in user', () => {
    const ASK = { tool: 'anything-question', text: 'Why is the sky blue?', lang: 'en' };
    const battleOwner = async (id: string) =>
      (await duet.db.pool.query<{ user_id: string | null }>('SELECT user_id FROM battles WHERE id = $1', [id])).rows[0]?.user_id;
    const finished = (id: string) =>
      waitFor(async () => (await count('SELECT count(*)::int AS n FROM answers WHERE battle_id = $1', [id])) === 2, {
        what: 'both answers',
        timeoutMs: 20_000,
      });

    it('stores the user on a battle and its vote made with a session token', async () => {
      const me = await account();
      const created = await call<CreateBattleResponse>(url('/api/battles'), { body: ASK, token: me.session });
      expect(created.status).toBe(202);
      expect(await battleOwner(created.body.battleId)).toBe(me.userId);
      await finished(created.body.battleId);
      const voted = await call(url(`/api/battles/${created.body.battleId}/vote`), {
        body: { winner: 'a', voteToken: created.body.voteToken },
        token: me.session,
      });
      expect(voted.status).toBe(200);
      const { rows } = await duet.db.pool.query('SELECT user_id FROM votes WHERE battle_id = $1', [created.body.battleId]);
      expect(rows).toEqual([{ user_id: me.userId }]);
    });

    it('leaves both anonymous without a token', async () => {
      const created = await call<CreateBattleResponse>(url('/api/battles'), { body: ASK });
      expect(created.status).toBe(202);
      expect(await battleOwner(created.body.battleId)).toBeNull();
      await finished(created.body.battleId);
      const voted = await call(url(`/api/battles/${created.body.battleId}/vote`), { body: { winner: 'tie', voteToken: created.body.voteToken } });
      expect(voted.status).toBe(200);
      const { rows } = await duet.db.pool.query('SELECT user_id FROM votes WHERE battle_id = $1', [created.body.battleId]);
      expect(rows).toEqual([{ user_id: null }]);
    });

    it('refuses a broken or expired token with 412 and stores no battle and no vote', async () => {
      const before = await count('SELECT count(*)::int AS n FROM battles');
      for (const token of ['broken', `${(await account()).session}x`]) {
        const res = await call(url('/api/battles'), { body: ASK, token });
        expect(res.status).toBe(412);
        expect(res.body).toEqual({ error: { code: 'invalid_token', message: AUTH_MESSAGES.invalidToken } });
      }
      // Multipart with an image, as the browser sends it.
      const form = new FormData();
      form.set('tool', 'title-academy');
      form.set('image', new Blob([TINY_PNG], { type: 'image/png' }), 'tiny.png');
      const multipart = await fetch(url('/api/battles'), { method: 'POST', body: form, headers: { authorization: 'Bearer broken' } });
      expect(multipart.status).toBe(412);
      expect(await count('SELECT count(*)::int AS n FROM battles')).toBe(before);

      const created = await call<CreateBattleResponse>(url('/api/battles'), { body: ASK });
      await finished(created.body.battleId);
      const secret = await sessionSecret();
      const now = Math.floor(Date.now() / 1000);
      const expired = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject((await account()).userId)
        .setIssuer('duet')
        .setIssuedAt(now - 7200)
        .setExpirationTime(now - 60)
        .sign(secret);
      const vote = await call(url(`/api/battles/${created.body.battleId}/vote`), {
        body: { winner: 'a', voteToken: created.body.voteToken },
        token: expired,
      });
      expect(vote.status).toBe(412);
      expect(await count('SELECT count(*)::int AS n FROM votes WHERE battle_id = $1', [created.body.battleId])).toBe(0);
    });

    it('lets a signed-in user vote only with the battle’s vote token', async () => {
      const me = await account();
      const created = await call<CreateBattleResponse>(url('/api/battles'), { body: ASK });
      await finished(created.body.battleId);
      const res = await call(url(`/api/battles/${created.body.battleId}/vote`), { body: { winner: 'a', voteToken: 'not-the-token' }, token: me.session });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('invalid_vote_token');
    });
  });

  it('serves the browser’s Firebase settings with the emulator’s URL, and a CSP that lets the SDK reach it', async () => {
    const res = await call(url('/api/auth/config'));
    expect(res.status).toBe(200);
    expect(ZAuthConfigSchema.parse(res.body)).toEqual({
      apiKey: 'demo-api-key',
      authDomain: 'demo-duet.firebaseapp.com',
      projectId: 'demo-duet',
      emulatorUrl: `http://${EMULATOR_HOST}`,
    });
    const csp = res.headers.get('content-security-policy') ?? '';
    const directive = (name: string) => csp.split(';').map((d) => d.trim()).find((d) => d.startsWith(`${name} `)) ?? '';
    expect(directive('connect-src')).toContain(`http://${EMULATOR_HOST}`);
    expect(directive('connect-src')).toContain('https://identitytoolkit.googleapis.com');
    expect(directive('frame-src')).toContain(`http://${EMULATOR_HOST}`);
    expect(directive('frame-src')).toContain('https://demo-duet.firebaseapp.com');
    expect(directive('script-src')).toBe("script-src 'self' https://apis.google.com");
    expect(directive('object-src')).toBe("object-src 'none'");
    expect((await call<{ accounts: boolean }>(url('/api/meta'))).body.accounts).toBe(true);
  });
});

describe('accounts when neither the emulator nor Firebase credentials are configured', () => {
  let duet: TestDuet;
  beforeAll(async () => {
    duet = await startTestDuet({ noWorker: true });
  });
  afterAll(async () => {
    await duet?.close();
  });

  it('answers 503 unavailable to the account calls and keeps everything else working', async () => {
    for (const [path, body] of [
      ['/api/v2/user/signup', { provider: 'firebase', token: 't', event: SIGNUP_EVENT }],
      ['/api/v2/user/login', { provider: 'firebase', token: 't' }],
      ['/api/v2/user/profile', undefined],
      ['/api/auth/config', undefined],
    ] as const) {
      const res = await call(`${duet.url}${path}`, { body });
      expect(res.status, path).toBe(503);
      expect(res.body.error.code).toBe('unavailable');
    }
    const created = await call<CreateBattleResponse>(`${duet.url}/api/battles`, { body: { tool: 'anything-question', text: 'Hello?' } });
    expect(created.status).toBe(202);
    const meta = await call<{ accounts: boolean }>(`${duet.url}/api/meta`);
    expect(meta.body.accounts).toBe(false);
    const csp = meta.headers.get('content-security-policy') ?? '';
    expect(csp).not.toContain('googleapis');
    expect(csp).not.toContain('firebaseapp');
  });
});
