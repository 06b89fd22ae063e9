/**
 * Account settings: Firebase Authentication (or its emulator) and Duet's own session tokens,
 * with the rules between them (the emulator's unsigned tokens never meet real credentials, and
 * emulator mode never runs where others can reach it).
 */
import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import { ZOptionalTextSchema as optional } from '@duet/platform/env';
import { z } from 'zod';

/** Accounts: Firebase Authentication (or its emulator) and Duet's own session tokens. */
export const ZAccountsEnvSchema = z.object({
  FIREBASE_PROJECT_ID: optional
    .transform((v) => v ?? 'demo-duet')
    .pipe(z.string().regex(/^[a-z0-9][a-z0-9-]{2,38}[a-z0-9]$/, 'a Firebase project id, e.g. my-project-1234')),
  /** `host:port` of the Firebase Auth Emulator (development and tests only: its tokens are unsigned). */
  FIREBASE_AUTH_EMULATOR_HOST: optional.pipe(
    z.string().regex(/^[A-Za-z0-9.-]+:\d{1,5}$|^\[[0-9A-Fa-f:]+\]:\d{1,5}$/, 'host:port, e.g. 127.0.0.1:9099').optional(),
  ),
  /** A service account's e-mail and private key (PEM; `\n` escapes are accepted)... */
  FIREBASE_CLIENT_EMAIL: optional.pipe(z.string().email('a service account e-mail').optional()),
  FIREBASE_PRIVATE_KEY: optional.transform((v) => v?.replace(/\\n/g, '\n')),
  /** ...or the path of a service account JSON file. */
  GOOGLE_APPLICATION_CREDENTIALS: optional,
  /** The browser's Firebase settings (served by `GET /api/auth/config`). */
  FIREBASE_WEB_API_KEY: optional,
  FIREBASE_AUTH_DOMAIN: optional.pipe(
    z.string().regex(/^[A-Za-z0-9.-]+(:\d{1,5})?$/, 'a host name, e.g. my-project.firebaseapp.com').optional(),
  ),
  FIREBASE_APP_ID: optional,
  /** Key of the session tokens; unset, a random one is generated once and kept in PostgreSQL. */
  SESSION_SECRET: optional.pipe(z.string().min(32, 'at least 32 characters').optional()),
  SESSION_TTL_HOURS: z.coerce.number().positive().max(24 * 90).default(12),
  RATE_LIMIT_ACCOUNTS_PER_MINUTE: z.coerce.number().int().min(0).default(30),
});
export type AccountsEnv = z.infer<typeof ZAccountsEnvSchema>;

/**
 * The rules between account settings. Above all: emulator ID tokens are unsigned, so the emulator
 * together with real credentials would let anyone forge a sign-in. That never starts.
 */
export function checkAccounts(e: AccountsEnv, ctx: z.RefinementCtx): void {
  const problem = (key: keyof AccountsEnv, message: string) => ctx.addIssue({ code: 'custom', path: [key], message });
  const credentialKeys = ['FIREBASE_CLIENT_EMAIL', 'FIREBASE_PRIVATE_KEY', 'GOOGLE_APPLICATION_CREDENTIALS'] as const;
  const realKeys = credentialKeys.filter((k) => e[k]);
  if (e.FIREBASE_AUTH_EMULATOR_HOST) {
    if (realKeys.length) {
      problem(
        'FIREBASE_AUTH_EMULATOR_HOST',
        `must not be set together with real Firebase credentials (${realKeys.join(', ')}): emulator ID tokens are ` +
          'unsigned, so anyone could forge a sign-in. Unset FIREBASE_AUTH_EMULATOR_HOST in production, or the credentials in development',
      );
    }
    return;
  }
  if (Boolean(e.FIREBASE_CLIENT_EMAIL) !== Boolean(e.FIREBASE_PRIVATE_KEY)) {
    const missing = e.FIREBASE_CLIENT_EMAIL ? 'FIREBASE_PRIVATE_KEY' : 'FIREBASE_CLIENT_EMAIL';
    problem(missing, 'FIREBASE_CLIENT_EMAIL and FIREBASE_PRIVATE_KEY go together');
  }
  if (e.FIREBASE_PRIVATE_KEY && !/-----BEGIN (RSA )?PRIVATE KEY-----/.test(e.FIREBASE_PRIVATE_KEY)) {
    problem('FIREBASE_PRIVATE_KEY', 'not a PEM private key (it starts with -----BEGIN PRIVATE KEY-----)');
  }
  if (e.GOOGLE_APPLICATION_CREDENTIALS && !e.FIREBASE_PRIVATE_KEY && !existsSync(e.GOOGLE_APPLICATION_CREDENTIALS)) {
    problem('GOOGLE_APPLICATION_CREDENTIALS', `no such file: ${e.GOOGLE_APPLICATION_CREDENTIALS}`);
  }
  if (!realKeys.length) return;
  if (e.FIREBASE_PROJECT_ID.startsWith('demo-')) {
    problem('FIREBASE_PROJECT_ID', 'must name your Firebase project when real credentials are set (demo-* projects are emulator-only)');
  }
  if (!e.FIREBASE_WEB_API_KEY) {
    problem('FIREBASE_WEB_API_KEY', 'is required when real Firebase credentials are set (browsers sign in with it)');
  }
}

const isLoopback = (host: string): boolean => {
  const h = host.replace(/^\[|\]$/g, '');
  if (h === 'localhost') return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  return h === '::1';
};

/**
 * Emulator ID tokens are unsigned: anyone who can reach a gateway in emulator mode can sign in as
 * any user. So emulator mode runs only where nobody else can reach it (gateway and emulator on
 * loopback), or when `ALLOW_AUTH_EMULATOR` says this is a development machine.
 */
export function checkEmulatorExposure(e: { HOST: string; FIREBASE_AUTH_EMULATOR_HOST?: string | undefined; ALLOW_AUTH_EMULATOR: boolean }, ctx: z.RefinementCtx): void {
  const emulator = e.FIREBASE_AUTH_EMULATOR_HOST;
  if (!emulator || e.ALLOW_AUTH_EMULATOR) return;
  const emulatorHost = emulator.slice(0, emulator.lastIndexOf(':'));
  if (isLoopback(e.HOST) && isLoopback(emulatorHost)) return;
  ctx.addIssue({
    code: 'custom',
    path: ['FIREBASE_AUTH_EMULATOR_HOST'],
    message:
      `emulator mode needs the gateway (HOST=${e.HOST}) and the emulator on a loopback address: emulator tokens are unsigned, ` +
      'so anyone who can reach this gateway could sign in as anyone. Set HOST=127.0.0.1, or ALLOW_AUTH_EMULATOR=true on a development machine',
  });
}

/** The browser's Firebase settings. */
export interface FirebaseWebConfig {
  apiKey: string;
  authDomain: string;
  appId?: string | undefined;
}

/**
 * How accounts work in this deployment: against the Firebase Auth Emulator (development, tests),
 * against a real Firebase project, or not at all (no emulator, no credentials: the account calls
 * answer 503 and everything else works).
 */
export type AccountsConfig =
  | { mode: 'disabled' }
  | { mode: 'emulator'; projectId: string; emulatorHost: string; web: FirebaseWebConfig }
  | {
      mode: 'firebase';
      projectId: string;
      credentials: { clientEmail: string; privateKey: string } | { file: string };
      web: FirebaseWebConfig;
    };

export function accountsConfig(e: AccountsEnv): AccountsConfig {
  const web = (apiKey: string): FirebaseWebConfig => ({
    apiKey,
    authDomain: e.FIREBASE_AUTH_DOMAIN ?? `${e.FIREBASE_PROJECT_ID}.firebaseapp.com`,
    appId: e.FIREBASE_APP_ID,
  });
  if (e.FIREBASE_AUTH_EMULATOR_HOST) {
    return {
      mode: 'emulator',
      projectId: e.FIREBASE_PROJECT_ID,
      emulatorHost: e.FIREBASE_AUTH_EMULATOR_HOST,
      web: web(e.FIREBASE_WEB_API_KEY ?? 'demo-api-key'),
    };
  }
  const credentials =
    e.FIREBASE_CLIENT_EMAIL && e.FIREBASE_PRIVATE_KEY
      ? { clientEmail: e.FIREBASE_CLIENT_EMAIL, privateKey: e.FIREBASE_PRIVATE_KEY }
      : e.GOOGLE_APPLICATION_CREDENTIALS
        ? { file: e.GOOGLE_APPLICATION_CREDENTIALS }
        : null;
  if (!credentials) return { mode: 'disabled' };
  // checkAccounts made sure the web API key is there.
  return { mode: 'firebase', projectId: e.FIREBASE_PROJECT_ID, credentials, web: web(e.FIREBASE_WEB_API_KEY ?? '') };
}

