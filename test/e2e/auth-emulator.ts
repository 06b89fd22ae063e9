/**
 * The Firebase Auth Emulator's REST API as the browser tests use it: accounts made directly in the
 * identity provider (as a sister service would), profile changes, and the verification e-mails
 * it "sends".
 */
import { randomUUID } from 'node:crypto';

export const EMULATOR_HOST = process.env.FIREBASE_AUTH_EMULATOR_HOST ?? '127.0.0.1:9099';
export const EMULATOR_PROJECT = 'demo-duet';
/** The key the gateway hands the browser in emulator mode; the emulator accepts any. */
const API_KEY = 'demo-api-key';

const emulator = `http://${EMULATOR_HOST}`;
const toolkit = (method: string) => `${emulator}/identitytoolkit.googleapis.com/v1/accounts:${method}?key=${API_KEY}`;

async function post<T>(url: string, body: unknown): Promise<T> {
  const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const json = (await res.json()) as T & { error?: { message: string } };
  if (!res.ok) throw new Error(`${url}: ${res.status} ${json.error?.message ?? ''}`);
  return json;
}

/** A fresh address: the emulator is shared by every suite, so nobody's accounts collide. */
export const uniqueEmail = (tag: string): string => `${tag}-${randomUUID().slice(0, 8)}@duet.test`;

export interface EmulatorAccount {
  uid: string;
  idToken: string;
  email: string;
}

/** An e-mail and password account created in the identity provider only (never through Duet). */
export async function createProviderAccount(email: string, password: string): Promise<EmulatorAccount> {
  const res = await post<{ localId: string; idToken: string }>(toolkit('signUp'), { email, password, returnSecureToken: true });
  return { uid: res.localId, idToken: res.idToken, email };
}

/** Changes the account's picture or name (a later sign-in's ID token carries them). */
export async function updateProviderAccount(account: EmulatorAccount, changes: { photoUrl?: string; displayName?: string }): Promise<void> {
  await post(toolkit('update'), { idToken: account.idToken, ...changes });
}

export interface OobCode {
  email: string;
  requestType: string;
  oobCode: string;
  oobLink: string;
}

/** The out-of-band e-mails (verification, password reset) the emulator has "sent". */
export async function oobCodes(): Promise<OobCode[]> {
  const res = await fetch(`${emulator}/emulator/v1/projects/${EMULATOR_PROJECT}/oobCodes`);
  return ((await res.json()) as { oobCodes: OobCode[] }).oobCodes;
}

/** The provider's record of an account (emailVerified, photoUrl, ...). */
export async function lookupProviderAccount(idToken: string): Promise<{ emailVerified?: boolean; photoUrl?: string; displayName?: string }> {
  const res = await post<{ users: Array<{ emailVerified?: boolean; photoUrl?: string; displayName?: string }> }>(toolkit('lookup'), { idToken });
  return res.users[0] ?? {};
}

/** Signs in with e-mail and password at the provider (as the browser would), answering an ID token. */
export async function providerSignIn(email: string, password: string): Promise<EmulatorAccount> {
  const res = await post<{ localId: string; idToken: string }>(toolkit('signInWithPassword'), { email, password, returnSecureToken: true });
  return { uid: res.localId, idToken: res.idToken, email };
}

/**
 * Gives an account custom claims (an operator's `{ admin: true }`), as the Admin SDK would: the
 * emulator's `accounts:update` with its owner credential. ID tokens minted afterwards carry them.
 */
export async function setCustomClaims(uid: string, claims: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${emulator}/identitytoolkit.googleapis.com/v1/projects/${EMULATOR_PROJECT}/accounts:update`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: 'Bearer owner' },
    body: JSON.stringify({ localId: uid, customAttributes: JSON.stringify(claims) }),
  });
  if (!res.ok) throw new Error(`accounts:update: ${res.status} ${await res.text()}`);
}
