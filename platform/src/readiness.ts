import { z } from 'zod';
import { migrationNames } from './migrations.ts';
import type { Db } from './pg-pool.ts';
import { redisWritable } from './redis-connection.ts';
import type { RedisClient } from './redis-connection.ts';
import { within } from './timeout.ts';

/**
 * What `GET /readyz` answers, on the gateway and on the worker's own port alike: each part, and
 * `ok` only when all are (200, else 503).
 */
export const ZReadinessSchema = z.object({
  ok: z.boolean(),
  postgres: z.enum(['ok', 'down']),
  redis: z.enum(['ok', 'down']),
  /** `pending` when a migration is not applied yet; `unknown` while PostgreSQL does not answer. */
  migrations: z.enum(['ok', 'pending', 'unknown']),
  /** Present while the process shuts down. */
  draining: z.literal(true).optional(),
});
export type Readiness = z.infer<typeof ZReadinessSchema>;

export interface ReadinessProbes {
  /** The migrations `pgmigrations` lists; null when the table does not exist yet. */
  appliedMigrations: () => Promise<ReadonlySet<string> | null>;
  /** Resolves when Redis takes writes on the process's connection (`redisWritable` of redis-connection.ts). */
  redisWritable: () => Promise<unknown>;
  /** Every migration the code needs (the file names without extension). */
  expectedMigrations: readonly string[];
  draining: () => boolean;
  /** A dependency slower than this counts as down. */
  timeoutMs?: number;
}

/** One rule for both processes: Redis and PostgreSQL answer within a second, migrations applied, not draining. */
export async function checkReadiness(p: ReadinessProbes): Promise<Readiness> {
  const ms = p.timeoutMs ?? 1_000;
  const [pg, redis] = await Promise.all([
    within(ms, p.appliedMigrations).then(
      (applied) => ({
        postgres: 'ok' as const,
        migrations: p.expectedMigrations.every((m) => applied?.has(m)) ? ('ok' as const) : ('pending' as const),
      }),
      () => ({ postgres: 'down' as const, migrations: 'unknown' as const }),
    ),
    within(ms, p.redisWritable).then(
      () => 'ok' as const,
      () => 'down' as const,
    ),
  ]);
  const draining = p.draining();
  return {
    ok: pg.postgres === 'ok' && pg.migrations === 'ok' && redis === 'ok' && !draining,
    postgres: pg.postgres,
    redis,
    migrations: pg.migrations,
    ...(draining ? { draining: true as const } : {}),
  };
}

/** The migrations node-pg-migrate applied; null when its table does not exist yet. */
export async function appliedMigrations(db: Db): Promise<Set<string> | null> {
  try {
    const { rows } = await db.query<{ name: string }>('SELECT name FROM pgmigrations');
    return new Set(rows.map((r) => r.name));
  } catch (err) {
    if ((err as { code?: unknown }).code === '42P01') return null;
    throw err;
  }
}

/**
 * A process's readiness, as `GET /readyz` answers it on every port that serves it: its own
 * PostgreSQL pool and Redis connection answer, every migration in `platform/migrations` is
 * applied, and it is not shutting down (`draining`).
 */
export function readinessOf(deps: { db: Db; redis: RedisClient; draining: () => boolean }): () => Promise<Readiness> {
  const expectedMigrations = migrationNames();
  return () =>
    checkReadiness({
      appliedMigrations: () => appliedMigrations(deps.db),
      redisWritable: () => redisWritable(deps.redis),
      expectedMigrations,
      draining: deps.draining,
    });
}
