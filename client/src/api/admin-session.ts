/**
 * Who is using the operators' console, and the credential its calls carry: ADMIN_TOKEN (kept in
 * this tab's sessionStorage only, never in localStorage), or the Firebase ID token of a signed-in
 * user with the `admin` claim (minted by the Firebase SDK, which caches it until it nears expiry).
 */
import type { User } from 'firebase/auth';
import { create } from 'zustand';
import { initIdentity } from '../auth/identity.ts';

const TOKEN_KEY = 'duet_admin_token';

/** Why the console shows its sign-in again. */
export type SignInReason = 'not-operator' | 'token-refused' | 'session-ended' | null;

export type OperatorCredential = { kind: 'token' } | { kind: 'account'; email: string };

interface AdminSessionState {
  status: 'restoring' | 'signed-out' | 'signed-in';
  credential: OperatorCredential | null;
  reason: SignInReason;
  /** The e-mail of a signed-in account the API refused. */
  refusedEmail: string | null;
}

export const useAdminSession = create<AdminSessionState>()(() => ({
  status: 'restoring',
  credential: null,
  reason: null,
  refusedEmail: null,
}));

export function storedAdminToken(): string | null {
  try {
    return window.sessionStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

export function storeAdminToken(token: string | null): void {
  try {
    if (token) window.sessionStorage.setItem(TOKEN_KEY, token);
    else window.sessionStorage.removeItem(TOKEN_KEY);
  } catch {
    // No storage: the token lives as long as this page.
  }
}

/** Whether this tab holds a Firebase session (kept in sessionStorage), so loading the SDK is worth it. */
export function hasFirebaseSession(): boolean {
  try {
    for (let i = 0; i < window.sessionStorage.length; i++) {
      if (window.sessionStorage.key(i)?.startsWith('firebase:authUser:')) return true;
    }
  } catch {
    // Storage unavailable: nothing was kept there.
  }
  return false;
}

/** The Firebase user of this tab, once the SDK has read its session; null when nobody is signed in. */
export async function currentFirebaseUser(): Promise<User | null> {
  await initIdentity();
  const { getAuth } = await import('firebase/auth');
  const auth = getAuth();
  await auth.authStateReady();
  return auth.currentUser;
}

/** The bearer credential for the next call, or null when signed out. */
export async function currentBearer(): Promise<string | null> {
  const { credential } = useAdminSession.getState();
  if (credential?.kind === 'token') return storedAdminToken();
  if (credential?.kind === 'account') {
    const user = await currentFirebaseUser();
    // Fresh enough: the SDK answers its cached token, and mints a new one near expiry.
    return user ? user.getIdToken() : null;
  }
  return null;
}

/** The API refused the credential (401 or 403): back to the sign-in, saying why. */
export function refuseCredential(status: number): void {
  const { credential } = useAdminSession.getState();
  if (!credential) return;
  if (credential.kind === 'token') storeAdminToken(null);
  const reason: SignInReason = status === 401 ? 'session-ended' : credential.kind === 'token' ? 'token-refused' : 'not-operator';
  useAdminSession.setState({
    status: 'signed-out',
    credential: null,
    reason,
    refusedEmail: credential.kind === 'account' && reason === 'not-operator' ? credential.email : null,
  });
}
