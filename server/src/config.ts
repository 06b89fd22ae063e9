import proxyaddr from 'proxy-addr';
import { RATING_INTERVAL_METHODS, ZBattleModeSchema } from '@duet/contracts';
import { parseEnv, ZInfraEnvSchema, ZOptionalTextSchema, ZYesNoSchema } from '@duet/platform/env';
import { buildRoster, rosterSettingsFromEnv, ZModelEnvSchema } from '@duet/platform/roster-settings';
import type { BattleMode, ModelSpec, RatingIntervalMethod } from '@duet/contracts';
import type { RedisNode } from '@duet/platform/env';
import { ZBudgetEnvSchema } from '@duet/platform/budget-settings';
import { type BreakerSettings, breakerSettings, ZBreakerEnvSchema } from '@duet/platform/model-breaker';
import { z } from 'zod';
import type { AccountsConfig } from './accounts-config.ts';
import { accountsConfig, checkAccounts, checkEmulatorExposure, ZAccountsEnvSchema } from './accounts-config.ts';
import type { SiteConfig } from './site-config.ts';
import { siteConfig, ZSiteEnvSchema } from './site-config.ts';

const bool = ZYesNoSchema;
const optional = ZOptionalTextSchema;

export const ZGatewayEnvSchema = ZInfraEnvSchema.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  /** `blind` hides model names until the vote; `named` shows them from the start. */
  BATTLE_MODE: ZBattleModeSchema.default('blind'),
  /** Extra browser origins allowed to call the API and open sockets (comma separated). */
  CORS_ORIGINS: z.string().default(''),
  /**
   * The reverse proxies whose `X-Forwarded-For` is believed for the client address (rate limits,
   * sockets per address): addresses, subnets or `loopback`, `linklocal`, `uniquelocal`, comma
   * separated. Empty or `false`: none. Never a hop count: that believes anyone who reaches the
   * port directly with a forged header.
   */
  TRUST_PROXY: z
    .string()
    .default('')
    .transform((v) => (['', '0', 'false'].includes(v.trim()) ? [] : v.split(',').map((s) => s.trim()).filter(Boolean)))
    .superRefine((list, ctx) => {
      if (list.some((s) => /^\d+$/.test(s))) {
        ctx.addIssue({
          code: 'custom',
          message:
            'takes the proxies\' addresses or subnets (e.g. loopback, 10.0.0.0/8), not a hop count: a hop count believes ' +
            'X-Forwarded-For from anyone who reaches the port directly',
        });
        return;
      }
      try {
        proxyaddr.compile(list);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
      }
    }),
  /** Open sockets per client address on one gateway. */
  SOCKET_MAX_PER_IP: z.coerce.number().int().min(1).default(20),
  /** Battle and tool rooms one socket may follow at once. */
  SOCKET_MAX_ROOMS: z.coerce.number().int().min(1).default(32),
  SOCKET_JOINS_PER_SECOND: z.coerce.number().int().min(1).default(5),
  SOCKET_CANCELS_PER_SECOND: z.coerce.number().int().min(1).default(2),
  /** Any event, per socket per second. */
  SOCKET_EVENTS_PER_SECOND: z.coerce.number().int().min(1).default(20),
  /** Cancels per client IP per minute over HTTP (0: off). */
  RATE_LIMIT_CANCELS_PER_MINUTE: z.coerce.number().int().min(0).default(30),
  /** Battles waiting in the queue past which new ones are refused (503 `busy`); 0: never. */
  QUEUE_MAX_WAITING: z.coerce.number().int().min(0).default(5_000),
  /** How often viewers of waiting battles are told their place in line. */
  QUEUE_WATCH_INTERVAL_MS: z.coerce.number().int().min(100).default(1_000),
  /** Longest the gateway takes to stop after SIGTERM; requests still open then are cut. */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(1_000).default(20_000),
  /**
   * After SIGTERM, how long the gateway keeps serving while `/readyz` answers 503, so a load
   * balancer probing it stops sending new viewers before it stops accepting connections. Part of
   * SHUTDOWN_TIMEOUT_MS, at most half of it.
   */
  DRAIN_DELAY_MS: z.coerce.number().int().min(0).default(0),
  /** The internal port of `/metrics` (and `/healthz`, `/readyz`); 0 picks a free one. Never publish it. */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9465),
  /** Its address; default: HOST's. */
  METRICS_HOST: optional,
  /** Serve the client's source maps (`*.map`); off in production unless you want them public. */
  SERVE_SOURCE_MAPS: bool.default(false),
  /**
   * Lets accounts use the Auth Emulator while the gateway or the emulator is on a non-loopback
   * address. Development only: emulator tokens are unsigned. `npm start` sets it when it starts
   * the emulator itself.
   */
  ALLOW_AUTH_EMULATOR: bool.default(false),
  RATE_LIMIT_BATTLES_PER_MINUTE: z.coerce.number().int().min(0).default(12),
  RATE_LIMIT_VOTES_PER_MINUTE: z.coerce.number().int().min(0).default(60),
  /** Open-data downloads per client IP per minute (0: off). */
  RATE_LIMIT_EXPORTS_PER_MINUTE: z.coerce.number().int().min(0).default(6),
  /** Changes through the admin API (the console's) per minute per address (0: no limit); reads are not counted. */
  RATE_LIMIT_ADMIN_WRITES_PER_MINUTE: z.coerce.number().int().min(0).default(300),
  /** Serve the open-data export (`GET /api/export/votes.jsonl|.csv`); off, it answers 404. */
  EXPORT_ENABLED: bool.default(false),
  /** A download whose reader takes nothing for this long is cut, freeing its slot. */
  EXPORT_STALL_MS: z.coerce.number().int().min(100).default(60_000),
  /** Memory for rendered history pages, kept per gateway until a change to their tool's history (MB; 0: off). */
  HISTORY_CACHE_MB: z.coerce.number().min(0).max(4096).default(32),
  /** Bearer token of the operators' admin API (`/api/admin/...`); unset, the admin API is off. */
  ADMIN_TOKEN: optional.pipe(z.string().min(32, 'at least 32 characters').optional()),
  /** Battles a visitor who is not signed in may ask a day (BUDGET_TIME_ZONE's), by device and address (0: no quota). */
  QUOTA_ANON_PER_DAY: z.coerce.number().int().min(0).max(1_000_000).default(20),
  /** Battles a signed-in account may ask a day (0: no quota); at least QUOTA_ANON_PER_DAY. */
  QUOTA_USER_PER_DAY: z.coerce.number().int().min(0).max(1_000_000).default(100),
  /**
   * `pow`: a new battle needs a solved proof-of-work challenge (`GET /api/challenge`); `off`: none.
   * Unset: `pow` while a model battles are drawn from (the live roster) has a price, none with free models alone.
   */
  BOT_CHALLENGE: optional.pipe(z.enum(['off', 'pow']).optional()),
  /** PBKDF2 iterations of one try at a challenge. */
  BOT_CHALLENGE_COST: z.coerce.number().int().min(1).max(100_000).default(1_000),
  /** A challenge's highest counter: a solver tries between half of it and all of it. */
  BOT_CHALLENGE_DIFFICULTY: z.coerce.number().int().min(2).max(10_000_000).default(2_000),
  /** Battles a minute, across gateways, past which challenges get BOT_CHALLENGE_HOT_FACTOR times harder (0: never). */
  BOT_CHALLENGE_HOT_PER_MINUTE: z.coerce.number().int().min(0).default(600),
  BOT_CHALLENGE_HOT_FACTOR: z.coerce.number().int().min(1).max(1_000).default(4),
  /** Votes per voter (account, else hashed IP) per UTC day that count; more are kept, marked. 0: no cap. */
  VOTE_DAILY_CAP: z.coerce.number().int().min(0).default(0),
  /**
   * The site's public address (`https://duet.example.com`), for the absolute links in a shared
   * battle's link preview. Unset: the address each request came to (behind a proxy, set it).
   */
  PUBLIC_URL: optional.pipe(
    z
      .string()
      .url('an absolute address, e.g. https://duet.example.com')
      .refine((v) => /^https?:\/\/[^/]+$/i.test(v.replace(/\/$/, '')), 'an http or https origin, with no path')
      .transform((v) => v.replace(/\/$/, ''))
      .optional(),
  ),
  /**
   * Font files (comma separated) the shared battles' preview images are set in, family NanumGothic
   * (Debian's `fonts-nanum`): Korean and Latin letters in two small TrueType files, quick to load.
   */
  SHARE_FONT_FILES: z
    .string()
    .default('/usr/share/fonts/truetype/nanum/NanumGothic.ttf,/usr/share/fonts/truetype/nanum/NanumGothicBold.ttf')
    .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean)),
  /** The most turns a battle may have: its first question and the follow-ups. */
  MAX_TURNS: z.coerce.number().int().min(1).max(50).default(8),
  /** The leaderboard's intervals when a request does not choose: the bootstrap's or the sandwich's (the refit computes both). */
  RATING_INTERVALS: z.enum(RATING_INTERVAL_METHODS).default('bootstrap'),
  /** Folder of the built client to serve; empty to serve the API only. */
  CLIENT_DIST: z.string().default('client/dist'),
  /** Run migrations at start-up. */
  MIGRATE_ON_START: bool.default(true),
  /** The longest side an uploaded image is kept at and sent to the models, in pixels. */
  IMAGE_MAX_SIDE_PX: z.coerce.number().int().min(64).max(8192).default(2048),
  /** The most an upload may decode to, in megapixels (width × height); more is refused with 413. */
  IMAGE_MAX_MEGAPIXELS: z.coerce.number().min(1).max(268).default(50),
  /** Uploads one gateway cleans at once; the others wait (decoding is what takes memory). */
  IMAGE_CLEAN_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(2),
})
  .extend(ZModelEnvSchema.shape)
  .extend(ZBudgetEnvSchema.shape)
  .extend(ZBreakerEnvSchema.shape)
  .extend(ZAccountsEnvSchema.shape)
  .extend(ZSiteEnvSchema.shape)
  .superRefine(checkAccounts)
  .superRefine(checkEmulatorExposure)
  .superRefine((e, ctx) => {
    if (e.QUOTA_ANON_PER_DAY > 0 && e.QUOTA_USER_PER_DAY > 0 && e.QUOTA_USER_PER_DAY < e.QUOTA_ANON_PER_DAY) {
      ctx.addIssue({ code: 'custom', path: ['QUOTA_USER_PER_DAY'], message: 'at least QUOTA_ANON_PER_DAY: signing up never gives fewer questions' });
    }
    if (e.DRAIN_DELAY_MS > e.SHUTDOWN_TIMEOUT_MS / 2) {
      ctx.addIssue({ code: 'custom', path: ['DRAIN_DELAY_MS'], message: 'at most half of SHUTDOWN_TIMEOUT_MS: the rest is for open requests to finish' });
    }
  });

export type GatewayEnv = z.infer<typeof ZGatewayEnvSchema>;

export interface GatewayConfig {
  port: number;
  host: string;
  databaseUrl: string;
  dbPoolSize: number;
  /** DB_QUERY_TIMEOUT_MS: how long a query may go unanswered (0: no bound). */
  dbQueryTimeoutMs: number;
  redisUrl: string;
  /** REDIS_CLUSTER_NODES: the Redis Cluster's nodes; empty: one Redis at `redisUrl`. */
  redisClusterNodes: RedisNode[];
  redisPrefix: string;
  logLevel: GatewayEnv['LOG_LEVEL'];
  mode: BattleMode;
  corsOrigins: string[];
  /** PUBLIC_URL without a trailing slash; null: each request's own address. */
  publicUrl: string | null;
  /** SHARE_FONT_FILES. */
  shareFontFiles: string[];
  /** MAX_TURNS: a battle's first question and its follow-ups. */
  maxTurns: number;
  /** RATING_INTERVALS: the leaderboard's intervals when a request does not choose. */
  ratingIntervals: RatingIntervalMethod;
  /** Proxies whose X-Forwarded-For is believed (Express's `trust proxy`); empty: none. */
  trustProxy: string[];
  rateLimits: {
    battlesPerMinute: number;
    votesPerMinute: number;
    cancelsPerMinute: number;
    accountsPerMinute: number;
    exportsPerMinute: number;
    adminWritesPerMinute: number;
  };
  /** What one browser tab, and one address, may do over Socket.IO (realtime's `SocketLimits`). */
  sockets: { maxRooms: number; maxSocketsPerIp: number; joinsPerSecond: number; cancelsPerSecond: number; eventsPerSecond: number };
  queue: { maxWaiting: number; watchIntervalMs: number };
  shutdownTimeoutMs: number;
  /** How long a stopping gateway keeps serving with `/readyz` at 503 before it stops accepting. */
  drainDelayMs: number;
  /** The internal listener of `/metrics`. */
  metrics: { host: string; port: number };
  serveSourceMaps: boolean;
  clientDist: string;
  migrateOnStart: boolean;
  dailyVoteCap: number;
  /** Whether the open-data export is served. */
  exportEnabled: boolean;
  /** A download whose reader takes nothing for this long is cut. */
  exportStallMs: number;
  /** Bytes of rendered history pages this gateway keeps (0: none). */
  historyCacheBytes: number;
  /** ADMIN_TOKEN; null: the admin API is off. */
  adminToken: string | null;
  /** How uploads are cleaned: the side cap, the pixel budget, how many at once. */
  images: { maxSidePx: number; maxInputPixels: number; concurrency: number };
  /** The environment's roster: it seeds the live one in PostgreSQL on the first start (`roster-store.ts`). */
  roster: ModelSpec[];
  /** Whether an environment variable a roster model names for its key is set (a model without its key cannot be enabled). */
  keyIsSet: (envName: string) => boolean;
  /**
   * The proof-of-work challenge of new battles; null when off. `always` (`BOT_CHALLENGE=pow`), or
   * (unset) while a model battles are drawn from has a price.
   */
  challenge: { always: boolean; cost: number; difficulty: number; hotPerMinute: number; hotFactor: number } | null;
  /** Battles a day per visitor who is not signed in, and per account (0: no quota). */
  quotas: { anonPerDay: number; userPerDay: number };
  /** BUDGET_USD_PER_DAY (0: none) and the time zone whose day it counts by. */
  budget: { usdPerDay: number; timeZone: string };
  /** When a failing model leaves the draw and when it is tried again (`BREAKER_*`). */
  breaker: BreakerSettings;
  /** True when the built-in demo models answer (no provider keys configured). */
  demoModels: boolean;
  accounts: AccountsConfig;
  /** Sister services' addresses and the operator's contact details, shown only when configured. */
  site: SiteConfig;
  session: {
    /** SESSION_SECRET; null: the key generated once and kept in PostgreSQL. */
    secret: string | null;
    ttlHours: number;
  };
}

/** Reads the gateway's configuration once, failing fast with every bad key listed. */
export function loadGatewayConfig(env: Record<string, string | undefined> = process.env): GatewayConfig {
  const e = parseEnv(ZGatewayEnvSchema, env);
  const { roster, demo } = buildRoster(rosterSettingsFromEnv(e));
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dbPoolSize: e.DB_POOL_SIZE,
    dbQueryTimeoutMs: e.DB_QUERY_TIMEOUT_MS,
    redisUrl: e.REDIS_URL,
    redisClusterNodes: e.REDIS_CLUSTER_NODES,
    redisPrefix: e.REDIS_PREFIX,
    logLevel: e.LOG_LEVEL,
    mode: e.BATTLE_MODE,
    corsOrigins: e.CORS_ORIGINS.split(',').map((s) => s.trim()).filter(Boolean),
    trustProxy: e.TRUST_PROXY,
    publicUrl: e.PUBLIC_URL ?? null,
    shareFontFiles: e.SHARE_FONT_FILES,
    maxTurns: e.MAX_TURNS,
    ratingIntervals: e.RATING_INTERVALS,
    rateLimits: {
      battlesPerMinute: e.RATE_LIMIT_BATTLES_PER_MINUTE,
      votesPerMinute: e.RATE_LIMIT_VOTES_PER_MINUTE,
      cancelsPerMinute: e.RATE_LIMIT_CANCELS_PER_MINUTE,
      accountsPerMinute: e.RATE_LIMIT_ACCOUNTS_PER_MINUTE,
      exportsPerMinute: e.RATE_LIMIT_EXPORTS_PER_MINUTE,
      adminWritesPerMinute: e.RATE_LIMIT_ADMIN_WRITES_PER_MINUTE,
    },
    sockets: {
      maxRooms: e.SOCKET_MAX_ROOMS,
      maxSocketsPerIp: e.SOCKET_MAX_PER_IP,
      joinsPerSecond: e.SOCKET_JOINS_PER_SECOND,
      cancelsPerSecond: e.SOCKET_CANCELS_PER_SECOND,
      eventsPerSecond: e.SOCKET_EVENTS_PER_SECOND,
    },
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    drainDelayMs: e.DRAIN_DELAY_MS,
    metrics: { host: e.METRICS_HOST ?? e.HOST, port: e.METRICS_PORT },
    queue: { maxWaiting: e.QUEUE_MAX_WAITING, watchIntervalMs: e.QUEUE_WATCH_INTERVAL_MS },
    serveSourceMaps: e.SERVE_SOURCE_MAPS,
    clientDist: e.CLIENT_DIST,
    migrateOnStart: e.MIGRATE_ON_START,
    dailyVoteCap: e.VOTE_DAILY_CAP,
    exportEnabled: e.EXPORT_ENABLED,
    exportStallMs: e.EXPORT_STALL_MS,
    historyCacheBytes: Math.round(e.HISTORY_CACHE_MB * 1024 * 1024),
    adminToken: e.ADMIN_TOKEN ?? null,
    keyIsSet: (envName) => /_API_KEY$/.test(envName) && Boolean(env[envName]),
    images: { maxSidePx: e.IMAGE_MAX_SIDE_PX, maxInputPixels: Math.round(e.IMAGE_MAX_MEGAPIXELS * 1_000_000), concurrency: e.IMAGE_CLEAN_CONCURRENCY },
    roster,
    budget: { usdPerDay: e.BUDGET_USD_PER_DAY, timeZone: e.BUDGET_TIME_ZONE },
    breaker: breakerSettings(e),
    quotas: { anonPerDay: e.QUOTA_ANON_PER_DAY, userPerDay: e.QUOTA_USER_PER_DAY },
    challenge:
      e.BOT_CHALLENGE === 'off'
        ? null
        : {
            always: e.BOT_CHALLENGE === 'pow',
            cost: e.BOT_CHALLENGE_COST,
            difficulty: e.BOT_CHALLENGE_DIFFICULTY,
            hotPerMinute: e.BOT_CHALLENGE_HOT_PER_MINUTE,
            hotFactor: e.BOT_CHALLENGE_HOT_FACTOR,
          },
    demoModels: demo,
    accounts: accountsConfig(e),
    site: siteConfig(e),
    session: { secret: e.SESSION_SECRET ?? null, ttlHours: e.SESSION_TTL_HOURS },
  };
}
