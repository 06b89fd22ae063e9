import { existsSync } from 'node:fs';
import { buildRoster, parseEnv, rosterSettingsFromEnv, ZInfraEnvSchema, ZModelEnvSchema } from '@duet/shared';
import type { ModelSpec } from '@duet/shared';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** An optional setting; empty or blank counts as unset (Compose files often pass `KEY=`). */
const optional = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() !== '' ? v.trim() : undefined));

/** Accounts: Firebase Authentication (or its emulator) and Duet's own session tokens. */
const ZAccountsEnvSchema = z.object({
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
type AccountsEnv = z.infer<typeof ZAccountsEnvSchema>;

/**
 * The rules between account settings. Above all: emulator ID tokens are unsigned, so the emulator
 * together with real credentials would let anyone forge a sign-in. That never starts.
 */
function checkAccounts(e: AccountsEnv, ctx: z.RefinementCtx): void {
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

const ZGatewayEnvSchema = ZInfraEnvSchema.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  /** `blind` hides model names until the vote; `named` shows them from the start. */
  BATTLE_MODE: z.enum(['blind', 'named']).default('blind'),
  /** Extra browser origins allowed to call the API and open sockets (comma separated). */
  CORS_ORIGINS: z.string().default(''),
  /** Hops of reverse proxies to trust for the client IP (rate limits). */
  TRUST_PROXY: z.coerce.number().int().min(0).default(0),
  RATE_LIMIT_BATTLES_PER_MINUTE: z.coerce.number().int().min(0).default(12),
  RATE_LIMIT_VOTES_PER_MINUTE: z.coerce.number().int().min(0).default(60),
  /** Open-data downloads per client IP per minute (0: off). */
  RATE_LIMIT_EXPORTS_PER_MINUTE: z.coerce.number().int().min(0).default(6),
  /** Votes per voter (account, else hashed IP) per UTC day that count; more are kept, marked. 0: no cap. */
  VOTE_DAILY_CAP: z.coerce.number().int().min(0).default(0),
  /** Folder of the built client to serve; empty to serve the API only. */
  CLIENT_DIST: z.string().default('client/dist'),
  /** Run migrations at start-up. */
  MIGRATE_ON_START: bool.default(true),
})
  .extend(ZModelEnvSchema.shape)
  .extend(ZAccountsEnvSchema.shape)
  .superRefine(checkAccounts);

export type GatewayEnv = z.infer<typeof ZGatewayEnvSchema>;

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

export interface GatewayConfig {
  port: number;
  host: string;
  databaseUrl: string;
  redisUrl: string;
  redisPrefix: string;
  logLevel: GatewayEnv['LOG_LEVEL'];
  mode: 'blind' | 'named';
  corsOrigins: string[];
  trustProxy: number;
  rateLimits: { battlesPerMinute: number; votesPerMinute: number; accountsPerMinute: number; exportsPerMinute: number };
  clientDist: string;
  migrateOnStart: boolean;
  dailyVoteCap: number;
  roster: ModelSpec[];
  /** True when the built-in demo models answer (no provider keys configured). */
  demoModels: boolean;
  accounts: AccountsConfig;
  session: {
    /** SESSION_SECRET; null: the key generated once and kept in PostgreSQL. */
    secret: string | null;
    ttlHours: number;
  };
}

function accountsConfig(e: AccountsEnv): AccountsConfig {
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

/** Reads the gateway's configuration once, failing fast with every bad key listed. */
export function loadGatewayConfig(env: Record<string, string | undefined> = process.env): GatewayConfig {
  const e = parseEnv(ZGatewayEnvSchema, env);
  const { roster, demo } = buildRoster(rosterSettingsFromEnv(e));
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX,
    logLevel: e.LOG_LEVEL,
    mode: e.BATTLE_MODE,
    corsOrigins: e.CORS_ORIGINS.split(',').map((s) => s.trim()).filter(Boolean),
    trustProxy: e.TRUST_PROXY,
    rateLimits: {
      battlesPerMinute: e.RATE_LIMIT_BATTLES_PER_MINUTE,
      votesPerMinute: e.RATE_LIMIT_VOTES_PER_MINUTE,
      accountsPerMinute: e.RATE_LIMIT_ACCOUNTS_PER_MINUTE,
      exportsPerMinute: e.RATE_LIMIT_EXPORTS_PER_MINUTE,
    },
    clientDist: e.CLIENT_DIST,
    migrateOnStart: e.MIGRATE_ON_START,
    dailyVoteCap: e.VOTE_DAILY_CAP,
    roster,
    demoModels: demo,
    accounts: accountsConfig(e),
    session: { secret: e.SESSION_SECRET ?? null, ttlHours: e.SESSION_TTL_HOURS },
  };
}
