/**
 * The account flows of the specification (section 4): login, signup and logout. Loaded on
 * demand (by the auth dialog, and by the header on logout), like the Firebase SDK it drives.
 */
import { ACCOUNT_DELETION_WORD, AUTH_PROVIDER, SIGNUP_EVENT, ZDeleteAccountResponseSchema, ZLoginResponseSchema, ZProfileResponseSchema, ZSignupResponseSchema } from '@duet/contracts/schemas/user.schema';
import type { UserCredential } from 'firebase/auth';
import { ApiError, api, postJson } from '../api/http.ts';
import { queryClient } from '../api/query-client.ts';
import { PROVIDER_KEY, setAccessToken, useAuth } from '../state/auth.ts';
import { useDuetStore } from '../state/store.ts';
import {
  getIdToken,
  IdentityError,
  initIdentity,
  register,
  sendVerificationEmail,
  signIn,
  signInWithGoogle,
  signOutIdentity,
} from './identity.ts';
import { AuthFlowError } from './messages.ts';
import { PROFILE_QUERY_KEY } from './use-profile.ts';

/** How the visitor proves who they are. */
export type AuthMethod =
  | { kind: 'password'; email: string; password: string; displayName?: string }
  | { kind: 'google' };

/** Signs out of Firebase without letting a failure there hide the flow's own outcome. */
const quietSignOut = () => signOutIdentity().catch(() => undefined);

/**
 * Login: sign in with the provider, trade its ID token for Duet's access token, store the token,
 * the provider and the local OAuth profile, set the profile, and reload the page. An account
 * that never signed up through Duet fails with `not-registered` (and is signed out again).
 */
export async function login(method: AuthMethod): Promise<void> {
  await initIdentity();
  const { user } = method.kind === 'google' ? await signInWithGoogle() : await signIn(method.email, method.password);
  const idToken = await getIdToken(user);
  let token: string;
  try {
    const answer = ZLoginResponseSchema.parse(await postJson('/api/v2/user/login', { provider: AUTH_PROVIDER, token: idToken }));
    token = answer.data.token;
  } catch (err) {
    await quietSignOut();
    if (err instanceof ApiError && (err.code === 'not_registered' || err.status === 404)) throw new AuthFlowError('not-registered');
    throw err;
  }
  setAccessToken(token);
  window.localStorage.setItem(PROVIDER_KEY, AUTH_PROVIDER);
  useAuth.getState().setOAuth({
    isLogin: true,
    token,
    email: user.email ?? '',
    provider: AUTH_PROVIDER,
    displayName: user.displayName ?? '',
    userImage: user.photoURL ?? '',
  });
  try {
    useDuetStore.getState().setProfile(ZProfileResponseSchema.parse(await api('/api/v2/user/profile')).data);
  } catch {
    // The reload fetches it again, and reports a failure there.
  }
  window.location.reload();
}

/**
 * An e-mail account, created here or (when the address already has one, e.g. from a sister
 * service sharing the accounts) signed in with the same password, so it can still sign up to Duet.
 */
async function passwordAccount(email: string, password: string, displayName?: string): Promise<UserCredential> {
  try {
    return await register(email, password, displayName);
  } catch (err) {
    if (!(err instanceof IdentityError) || err.code !== 'email-already-in-use') throw err;
    try {
      return await signIn(email, password);
    } catch {
      throw err;
    }
  }
}

/**
 * Signup: get an account from the provider, register it with Duet under the campaign tag, then
 * send the verification e-mail. Duet answering falsy fails with `already-registered`. Either way
 * the visitor is signed out of Firebase afterwards: they log in next.
 */
export async function signup(method: AuthMethod): Promise<void> {
  await initIdentity();
  const { user } =
    method.kind === 'google' ? await signInWithGoogle() : await passwordAccount(method.email, method.password, method.displayName);
  try {
    // A fresh token carries a display name set just now.
    const idToken = await getIdToken(user, method.kind === 'password' && Boolean(method.displayName));
    const answer = ZSignupResponseSchema.parse(
      await postJson('/api/v2/user/signup', { provider: AUTH_PROVIDER, token: idToken, event: SIGNUP_EVENT }),
    );
    if (!answer.data) throw new AuthFlowError('already-registered');
    if (!user.emailVerified) {
      // The account exists now; a refused e-mail must not turn the signup into a failure.
      await sendVerificationEmail(user).catch((err: unknown) => console.warn('Verification e-mail not sent', err));
    }
  } finally {
    await quietSignOut();
  }
}

/**
 * Logout: sign out of Firebase (skipped when this tab has no Firebase session), clear all local
 * storage and the profile. The caller then goes to `/`.
 */
export async function logout(): Promise<void> {
  await quietSignOut();
  useAuth.getState().clear();
  useDuetStore.getState().setProfile({});
  queryClient.removeQueries({ queryKey: PROFILE_QUERY_KEY });
}

/**
 * Deletes the signed-in visitor's account for good (its Firebase user, its Duet account, its
 * battles' questions, images and answers), then signs out here as `logout` does. The caller
 * has had the visitor type the confirmation word.
 */
export async function deleteAccount(): Promise<void> {
  ZDeleteAccountResponseSchema.parse(
    await api('/api/v2/user/profile', { method: 'DELETE', body: JSON.stringify({ confirm: ACCOUNT_DELETION_WORD }) }),
  );
  await logout();
}
