import { z } from 'zod';

/** An optional setting; empty or blank counts as unset (Compose often passes `KEY=`). */
export const ZOptionalTextSchema = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() !== '' ? v.trim() : undefined));

/** A yes/no setting (`true`, `1`, `yes` / `false`, `0`, `no`); empty counts as unset, so a `.default()` applies. */
export const ZYesNoSchema = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .optional()
    .transform((v) => (v === undefined ? undefined : v === 'true' || v === '1' || v === 'yes')),
);

/** One node of a Redis Cluster, as REDIS_CLUSTER_NODES lists it. */
export interface RedisNode {
  host: string;
  port: number;
}

/** Common infrastructure settings of gateway and worker. */
export const ZInfraEnvSchema = z.object({
  DATABASE_URL: z.string().url().default('postgres://postgres@127.0.0.1:5432/duet'),
  REDIS_URL: z.string().url().default('redis://127.0.0.1:6379'),
  /**
   * A Redis Cluster's nodes (`host:port`, comma separated; a few are enough, the rest are found).
   * Set, Duet runs on the cluster: REDIS_URL then gives only the user, password and `rediss:`.
   */
  REDIS_CLUSTER_NODES: ZOptionalTextSchema.transform((v, ctx) => {
    if (v === undefined) return [];
    const nodes = v.split(',').map((s) => s.trim()).filter(Boolean).map((entry) => {
      const match = /^([^\s:]+|\[[0-9a-fA-F:]+\]):(\d{1,5})$/.exec(entry);
      const port = Number(match?.[2]);
      if (!match || port < 1 || port > 65535) {
        ctx.addIssue({ code: 'custom', message: `"${entry}" is not host:port` });
        return null;
      }
      return { host: match[1]!.replace(/^\[|\]$/g, ''), port };
    });
    return nodes.filter((n): n is RedisNode => n !== null);
  }),
  /** Prefix of every Redis key and BullMQ queue, so several Duets (or test runs) can share one Redis. */
  REDIS_PREFIX: z.string().regex(/^[a-zA-Z0-9_-]+$/).default('duet'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * PostgreSQL connections this process may hold. A fixed budget, never derived from how many
   * battles run at once: PostgreSQL serves every process from one connection limit.
   */
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  /**
   * How long one query may go unanswered before it fails and its connection is closed (0: no
   * bound). Without it, the queries on connections to a database host that died or moved wait
   * for the kernel to give up (about 15 minutes for a query the host never acknowledged), or for
   * good (one it had received), each holding a slot of the pool.
   */
  DB_QUERY_TIMEOUT_MS: z.coerce.number().int().min(0).max(3_600_000).default(30_000),
});

/** Parses an environment with a schema, failing with every bad key listed. */
export function parseEnv<S extends z.ZodType>(schema: S, env: Record<string, string | undefined>): z.infer<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const lines = result.error.issues.map((i) => `  ${i.path.join('.') || '(root)'}: ${i.message}`);
  throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
}
