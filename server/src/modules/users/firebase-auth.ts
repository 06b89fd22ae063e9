import { randomUUID } from 'node:crypto';
import { cert, deleteApp, initializeApp } from 'firebase-admin/app';
import type { App } from 'firebase-admin/app';
import { getAuth } from 'firebase-admin/auth';
import type { Logger } from 'pino';
import type { AccountsConfig } from '../../accounts-config.ts';
import { AppError } from '../../http/errors.ts';
import { requestLogger } from '../../http/request-log.ts';

/** Who a verified Firebase ID token says the caller is. */
export interface FirebaseIdentity {
  uid: string;
  email: string | null;
  name: string | null;
  picture: string | null;
  emailVerified: boolean;
  /** `password`, `google.com`, `anonymous`, ... */
  signInProvider: string | null;
  /** The custom claim `admin` is `true`: an operator (the queue board lets them in). */
  admin: boolean;
}

export interface FirebaseAuth {
  /**
   * Verifies a Firebase ID token (signature, project, expiry, and that the account is neither
   * disabled nor revoked). A bad token throws 401 `unauthorized`; an unreachable identity
   * provider throws 503 `unavailable`.
   */
  verifyIdToken: (idToken: string) => Promise<FirebaseIdentity>;
  /**
   * Deletes a Firebase user for good (the Admin SDK's `deleteUser`); one already gone counts as
   * deleted, so an erasure cut short can be asked for again. An unreachable identity provider
   * throws 503 `unavailable`.
   */
  deleteUser: (uid: string) => Promise<void>;
  close: () => Promise<void>;
}

/** Firebase error codes that mean "this token does not prove who you are". */
const REJECTED_TOKEN_CODES = new Set([
  'auth/argument-error',
  'auth/invalid-argument',
  'auth/invalid-id-token',
  'auth/id-token-expired',
  'auth/id-token-revoked',
  'auth/user-disabled',
  'auth/user-not-found',
  'auth/user-token-expired',
  'auth/tenant-id-mismatch',
]);

const TOKEN_MESSAGES: Record<string, string> = {
  'auth/id-token-expired': 'The sign-in has expired. Please sign in again.',
  'auth/id-token-revoked': 'The sign-in was revoked. Please sign in again.',
  'auth/user-disabled': 'This account is disabled.',
};

/**
 * A firebase-admin app of its own for one gateway (a unique app name, so several gateways can
 * live in one process, as in tests).
 *
 * The admin SDK finds the emulator through `process.env.FIREBASE_AUTH_EMULATOR_HOST`, for every
 * app in the process, and then accepts unsigned tokens. So the emulator mode sets it, and the
 * real mode refuses to start while it is set.
 */
export function createFirebaseAuth(config: Exclude<AccountsConfig, { mode: 'disabled' }>, logger: Logger): FirebaseAuth {
  const inProcess = process.env.FIREBASE_AUTH_EMULATOR_HOST;
  let app: App;
  if (config.mode === 'emulator') {
    if (inProcess && inProcess !== config.emulatorHost) {
      throw new Error(
        `FIREBASE_AUTH_EMULATOR_HOST is ${inProcess} in this process but ${config.emulatorHost} in the gateway's ` +
          'settings: one process talks to one emulator',
      );
    }
    process.env.FIREBASE_AUTH_EMULATOR_HOST = config.emulatorHost;
    app = initializeApp({ projectId: config.projectId }, `duet-gateway-${randomUUID()}`);
  } else {
    if (inProcess) {
      throw new Error(
        'FIREBASE_AUTH_EMULATOR_HOST is set in this process while real Firebase credentials are configured: ' +
          'the admin SDK would accept unsigned emulator tokens. Unset it.',
      );
    }
    // A path is read (and checked) right here, so a bad file stops the start.
    const credential =
      'file' in config.credentials
        ? cert(config.credentials.file)
        : cert({ projectId: config.projectId, clientEmail: config.credentials.clientEmail, privateKey: config.credentials.privateKey });
    app = initializeApp({ projectId: config.projectId, credential }, `duet-gateway-${randomUUID()}`);
  }
  const auth = getAuth(app);

  return {
    verifyIdToken: async (idToken) => {
      try {
        // checkRevoked: a disabled or signed-out-everywhere account cannot sign in with an old token.
        const t = await auth.verifyIdToken(idToken, true);
        const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
        return {
          uid: t.uid,
          email: str(t.email),
          name: str(t.name),
          picture: str(t.picture),
          emailVerified: t.email_verified === true,
          signInProvider: str(t.firebase?.sign_in_provider),
          admin: t.admin === true,
        };
      } catch (err) {
        const code = (err as { code?: unknown }).code;
        if (typeof code === 'string' && REJECTED_TOKEN_CODES.has(code)) {
          throw new AppError(401, 'unauthorized', TOKEN_MESSAGES[code] ?? 'The sign-in could not be verified. Please sign in again.');
        }
        requestLogger(logger).error({ err }, 'could not verify a Firebase ID token');
        throw new AppError(503, 'unavailable', 'The sign-in service is not reachable. Please try again.');
      }
    },
    deleteUser: async (uid) => {
      try {
        await auth.deleteUser(uid);
      } catch (err) {
        if ((err as { code?: unknown }).code === 'auth/user-not-found') return;
        requestLogger(logger).error({ err }, 'could not delete a Firebase user');
        throw new AppError(503, 'unavailable', 'The sign-in service is not reachable. Please try again.');
      }
    },
    close: () => deleteApp(app),
  };
}
