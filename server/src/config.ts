import { buildRoster, parseEnv, rosterSettingsFromEnv, ZInfraEnvSchema, ZModelEnvSchema } from '@duet/shared';
import type { ModelSpec } from '@duet/shared';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

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
  /** Folder of the built client to serve; empty to serve the API only. */
  CLIENT_DIST: z.string().default('client/dist'),
  /** Run migrations at start-up. */
  MIGRATE_ON_START: bool.default(true),
}).extend(ZModelEnvSchema.shape);

export type GatewayEnv = z.infer<typeof ZGatewayEnvSchema>;

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
  rateLimits: { battlesPerMinute: number; votesPerMinute: number };
  clientDist: string;
  migrateOnStart: boolean;
  roster: ModelSpec[];
  /** True when the built-in demo models answer (no provider keys configured). */
  demoModels: boolean;
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
    rateLimits: { battlesPerMinute: e.RATE_LIMIT_BATTLES_PER_MINUTE, votesPerMinute: e.RATE_LIMIT_VOTES_PER_MINUTE },
    clientDist: e.CLIENT_DIST,
    migrateOnStart: e.MIGRATE_ON_START,
    roster,
    demoModels: demo,
  };
}
