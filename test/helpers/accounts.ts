/**
 * Accounts in integration tests: the Firebase Auth Emulator's REST API (users made as the browser
 * SDK makes them) and Duet's own account calls.
 */
import { randomUUID } from 'node:crypto';
import { SIGNUP_EVENT } from '@duet/contracts';
import type { ErrorResponse, LoginResponse } from '@duet/contracts';
import type pg from 'pg';

export const EMULATOR_HOST = process.env.FIREBASE_AUTH_EMULATOR_HOST ?? '127.0.0.1:9099';
export const PROJECT = 'demo-duet';
export const IDENTITY = `http://${EMULATOR_HOST}/identitytoolkit.googleapis.com/v1`;

export interface Call<T> {
  status: number;
  body: T & ErrorResponse;
  headers: Headers;
}

export async function call<T>(url: string, init: { method?: string; body?: unknown; token?: string; authorization?: string } = {}): Promise<Call<T>> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const authorization = init.authorization ?? (init.token !== undefined ? `Bearer ${init.token}` : undefined);
  if (authorization !== undefined) headers.authorization = authorization;
  const res = await fetch(url, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: res.status, body: (await res.json()) as T & ErrorResponse, headers: res.headers };
}

export async function identity<T>(method: string, body: object): Promise<T> {
  const res = await fetch(`${IDENTITY}/${method}?key=any`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

export interface OobCode {
  email: string;
  oobCode: string;
  requestType: string;
}

export interface FirebaseUser {
  uid: string;
  email: string;
  idToken: string;
}

/** A new user in the emulator (an e-mail of its own), optionally with a name and a picture. */
export async function firebaseUser(profile: { displayName?: string; photoUrl?: string } = {}): Promise<FirebaseUser> {
  const email = `u-${randomUUID()}@duet.test`;
  const password = 'correct horse battery';
  const created = await identity<{ localId: string; idToken: string }>('accounts:signUp', { email, password, returnSecureToken: true });
  if (!profile.displayName && !profile.photoUrl) return { uid: created.localId, email, idToken: created.idToken };
  await identity('accounts:update', { idToken: created.idToken, ...profile, returnSecureToken: true });
  // A fresh sign-in, so the ID token carries the new name and picture.
  const signedIn = await identity<{ idToken: string }>('accounts:signInWithPassword', { email, password, returnSecureToken: true });
  return { uid: created.localId, email, idToken: signedIn.idToken };
}

export interface DuetAccount extends FirebaseUser {
  /** The account's id in Duet's database. */
  userId: string;
  /** Duet's session token, for `Authorization: Bearer`. */
  session: string;
}

/** A new emulator user, signed up and logged in at the Duet on `baseUrl` (whose database `db` is). */
export async function duetAccount(baseUrl: string, db: pg.Pool): Promise<DuetAccount> {
  const user = await firebaseUser();
  const signup = await call(`${baseUrl}/api/v2/user/signup`, { body: { provider: 'firebase', token: user.idToken, event: SIGNUP_EVENT } });
  if (signup.status !== 200) throw new Error(`signup: ${signup.status}`);
  const login = await call<LoginResponse>(`${baseUrl}/api/v2/user/login`, { body: { provider: 'firebase', token: user.idToken } });
  if (login.status !== 200) throw new Error(`login: ${login.status}`);
  const { rows } = await db.query<{ id: string }>('SELECT id FROM users WHERE firebase_uid = $1', [user.uid]);
  return { ...user, userId: (rows[0] as { id: string }).id, session: login.body.data.token };
}
