/**
 * Signing in to the operators' console and out of it. A credential is tried on the admin API
 * before the console shows anything: a signed-in visitor without the `admin` claim sees the
 * sign-in only, told that this account is not an operator.
 */
import { ZAuditPageSchema } from '@duet/contracts/schemas/admin.schema';
import type { QueryClient } from '@tanstack/react-query';
import type { User } from 'firebase/auth';
import { initIdentity, signIn, signInWithGoogle, signOutIdentity } from '../auth/identity.ts';
import { adminGet } from './admin-http.ts';
import { currentFirebaseUser, hasFirebaseSession, storeAdminToken, storedAdminToken, useAdminSession } from './admin-session.ts';
import { ApiError } from './http.ts';

/** The cheapest call every operator may make: whether the API takes a credential. */
const PROBE = '/api/admin/audit?limit=1';

const refused = (err: unknown) => err instanceof ApiError && (err.status === 401 || err.status === 403);

/** Tries a signed-in Firebase user on the API: signed in to the console, or told it is not an operator. */
async function tryAccount(user: User): Promise<void> {
  const email = user.email ?? user.uid;
  try {
    await adminGet(PROBE, ZAuditPageSchema, await user.getIdToken());
  } catch (err) {
    if (!refused(err)) throw err;
    useAdminSession.setState({ status: 'signed-out', credential: null, reason: 'not-operator', refusedEmail: email });
    return;
  }
  useAdminSession.setState({ status: 'signed-in', credential: { kind: 'account', email }, reason: null, refusedEmail: null });
}

let restoring: Promise<void> | null = null;

/** On opening the console: the token this tab keeps, else the tab's Firebase session, else the sign-in. */
export function restoreAdminSession(): Promise<void> {
  restoring ??= (async () => {
    const token = storedAdminToken();
    if (token) {
      try {
        await signInWithToken(token);
        return;
      } catch {
        // Refused (the sign-in says so) or unreachable: the sign-in form stays to try again.
        if (useAdminSession.getState().status === 'signed-in') return;
      }
    }
    if (hasFirebaseSession()) {
      const user = await currentFirebaseUser().catch(() => null);
      if (user) {
        await tryAccount(user).catch(() => undefined);
        if (useAdminSession.getState().status !== 'restoring') return;
      }
    }
    useAdminSession.setState((s) => (s.status === 'restoring' ? { status: 'signed-out' } : s));
  })().finally(() => {
    restoring = null;
  });
  return restoring;
}

/** ADMIN_TOKEN, pasted by an operator: kept in this tab's sessionStorage once the API takes it. */
export async function signInWithToken(token: string): Promise<void> {
  try {
    await adminGet(PROBE, ZAuditPageSchema, token);
  } catch (err) {
    if (refused(err)) {
      storeAdminToken(null);
      useAdminSession.setState({ status: 'signed-out', credential: null, reason: 'token-refused', refusedEmail: null });
    }
    throw err;
  }
  storeAdminToken(token);
  useAdminSession.setState({ status: 'signed-in', credential: { kind: 'token' }, reason: null, refusedEmail: null });
}

export type AccountMethod = { kind: 'password'; email: string; password: string } | { kind: 'google' };

/** An operator's Firebase account (one with the `admin` claim). */
export async function signInWithAccount(method: AccountMethod): Promise<void> {
  await initIdentity();
  const { user } = method.kind === 'google' ? await signInWithGoogle() : await signIn(method.email, method.password);
  await tryAccount(user);
}

/** Out of the console: the token is forgotten, an account signed out of Firebase, the figures dropped. */
export async function signOutConsole(queryClient: Pick<QueryClient, 'removeQueries'>): Promise<void> {
  const { credential } = useAdminSession.getState();
  storeAdminToken(null);
  if (credential?.kind === 'account') await signOutIdentity().catch(() => undefined);
  useAdminSession.setState({ status: 'signed-out', credential: null, reason: null, refusedEmail: null });
  queryClient.removeQueries({ queryKey: ['admin'] });
}
