/**
 * The identity helper: Firebase Authentication behind a small surface. It starts uninitialised;
 * `initIdentity()` loads the SDK (a dynamic import, so Firebase never weighs on the landing page),
 * reads the public client configuration from `GET /api/auth/config`, and sets up session-scoped
 * persistence (sign-in lasts only for the browser session) and, in development and tests, the
 * Auth Emulator. Every action fails with `firebase-not-initialized` before that.
 */
import type { AuthConfig } from '@duet/contracts';
import type { FirebaseError } from 'firebase/app';
import type * as FirebaseAuth from 'firebase/auth';
import type { Auth, User, UserCredential } from 'firebase/auth';
import { api } from '../api/http.ts';

/** The product's own error code for an action attempted before `initIdentity()`. */
export const NOT_INITIALIZED = 'firebase-not-initialized';

/**
 * An identity failure. `code` is a Firebase Auth code without its `auth/` prefix
 * (`wrong-password`, `popup-closed-by-user`, ...) or `firebase-not-initialized`.
 */
export class IdentityError extends Error {
  readonly code: string;
  constructor(code: string, options?: { cause?: unknown }) {
    super(code, options);
    this.name = 'IdentityError';
    this.code = code;
  }
}

interface Identity {
  auth: Auth;
  sdk: typeof FirebaseAuth;
}

let identity: Identity | null = null;
let initialising: Promise<Identity> | null = null;

const isFirebaseError = (err: unknown): err is FirebaseError =>
  err instanceof Error && typeof (err as { code?: unknown }).code === 'string';

/** Firebase's `auth/wrong-password` becomes `wrong-password`; anything else passes through. */
export function toIdentityError(err: unknown): unknown {
  if (err instanceof IdentityError || !isFirebaseError(err)) return err;
  return new IdentityError(err.code.replace(/^auth\//, ''), { cause: err });
}

async function guarded<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (err) {
    throw toIdentityError(err);
  }
}

function ready(): Identity {
  if (!identity) throw new IdentityError(NOT_INITIALIZED);
  return identity;
}

/**
 * Loads and sets up the SDK once (later calls share the first). A failure (configuration not
 * reachable, SDK chunk not loaded) rejects with `firebase-not-initialized` and allows a retry.
 */
export function initIdentity(): Promise<void> {
  initialising ??= (async () => {
    const config = await api<AuthConfig>('/api/auth/config');
    const [{ initializeApp }, sdk] = await Promise.all([import('firebase/app'), import('firebase/auth')]);
    const app = initializeApp({
      apiKey: config.apiKey,
      authDomain: config.authDomain,
      projectId: config.projectId,
      ...(config.appId ? { appId: config.appId } : {}),
    });
    const auth = sdk.getAuth(app);
    if (config.emulatorUrl) sdk.connectAuthEmulator(auth, config.emulatorUrl, { disableWarnings: true });
    await sdk.setPersistence(auth, sdk.browserSessionPersistence);
    identity = { auth, sdk };
    return identity;
  })().catch((err: unknown) => {
    initialising = null;
    throw new IdentityError(NOT_INITIALIZED, { cause: err });
  });
  return initialising.then(() => undefined);
}

/** Creates an e-mail and password account (and names it when a display name is given). */
export function register(email: string, password: string, displayName?: string): Promise<UserCredential> {
  return guarded(async () => {
    const { auth, sdk } = ready();
    const credential = await sdk.createUserWithEmailAndPassword(auth, email, password);
    if (displayName) await sdk.updateProfile(credential.user, { displayName });
    return credential;
  });
}

export function signIn(email: string, password: string): Promise<UserCredential> {
  return guarded(async () => {
    const { auth, sdk } = ready();
    return sdk.signInWithEmailAndPassword(auth, email, password);
  });
}

/** Google in a popup: the SDK opens it centred at 500 x 600 and reports a close 8 s after noticing it. */
export function signInWithGoogle(): Promise<UserCredential> {
  return guarded(async () => {
    const { auth, sdk } = ready();
    return sdk.signInWithPopup(auth, new sdk.GoogleAuthProvider());
  });
}

export function sendVerificationEmail(user: User): Promise<void> {
  return guarded(async () => {
    const { sdk } = ready();
    await sdk.sendEmailVerification(user);
  });
}

/** The user's Firebase ID token; `refresh` mints a new one (after a profile change, say). */
export function getIdToken(user: User, refresh = false): Promise<string> {
  return guarded(() => user.getIdToken(refresh));
}

/** Whether this tab holds a Firebase session (session persistence keeps it in sessionStorage). */
function hasStoredSession(): boolean {
  try {
    for (let i = 0; i < window.sessionStorage.length; i++) {
      if (window.sessionStorage.key(i)?.startsWith('firebase:authUser:')) return true;
    }
  } catch {
    // Storage unavailable: nothing can have been kept there.
  }
  return false;
}

/**
 * Signs out of Firebase. Loads the SDK only when this tab holds a Firebase session; when there is
 * none, or the SDK cannot be set up, there is nothing to sign out of and this resolves quietly.
 */
export async function signOutIdentity(): Promise<void> {
  if (!identity) {
    if (!hasStoredSession()) return;
    try {
      await initIdentity();
    } catch {
      return;
    }
  }
  const { auth, sdk } = ready();
  await guarded(() => sdk.signOut(auth));
}
