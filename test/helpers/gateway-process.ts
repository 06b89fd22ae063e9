import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { TEST_REDIS_URL } from './services.ts';
import type { TestDatabase } from './test-db.ts';
import { createTestDatabase } from './test-db.ts';
import { freePort } from './private-services.ts';
import { collectOutput } from './process-output.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface GatewayProcess {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  port: number;
  /** The settings it runs with, as environment variables. */
  env: Record<string, string>;
  prefix: string;
  db: TestDatabase;
  /** A plain Redis connection for assertions. */
  redis: Redis;
  child: ChildProcess;
  /** Everything it logged so far. */
  output: () => string;
  /** How it ended; null while it runs. */
  exit: () => { code: number | null; signal: NodeJS.Signals | null } | null;
  /** Stops it with SIGTERM (if it still runs), then removes its database and Redis keys. */
  stop: () => Promise<void>;
}

export interface GatewayProcessOptions {
  /** Settings as environment variables, over the test defaults. */
  env?: Record<string, string>;
  /** The checkout whose `server/src/main.ts` runs (default: this one), e.g. to compare before and after a change. */
  root?: string | undefined;
  /** Longest wait for the 'gateway listening' line. */
  startTimeoutMs?: number;
  /**
   * Another gateway of the same deployment: this one shares its database and Redis prefix (its
   * settings too, but its own port). Only the first one removes them when it stops.
   */
  joining?: GatewayProcess;
  /** Arguments for `node` before the script (e.g. `--cpu-prof`); default: `DUET_NODE_ARGS`, split on spaces. */
  nodeArgs?: string[];
  /** Given what the process has logged so far, as soon as it is spawned: to follow it before it is ready. */
  onSpawn?: (output: () => string) => void;
}

/**
 * `node` arguments for spawned gateways and workers, from `DUET_NODE_ARGS` (e.g.
 * `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile a benchmark): Node refuses `--cpu-prof` in
 * `NODE_OPTIONS`, so this is the way to pass it to processes started several layers down.
 */
export const nodeArgsFromEnv = (): string[] => (process.env.DUET_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);


/**
 * Runs `server/src/main.ts` as its own process, exactly as `npm start` does, with its own database
 * and Redis prefix, HTTP rate limits off unless `env` sets them. Resolves once it logs
 * 'gateway listening'.
 */
export async function startGatewayProcess(opts: GatewayProcessOptions = {}): Promise<GatewayProcess> {
  const owner = !opts.joining;
  const db = opts.joining?.db ?? (await createTestDatabase());
  const prefix = opts.joining?.prefix ?? `test-${randomUUID().slice(0, 8)}`;
  const port = await freePort();
  const env: Record<string, string> = {
    ...opts.joining?.env,
    DATABASE_URL: db.url,
    REDIS_URL: TEST_REDIS_URL,
    REDIS_PREFIX: prefix,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    MIGRATE_ON_START: 'true',
    CLIENT_DIST: '',
    RATE_LIMIT_BATTLES_PER_MINUTE: '0',
    RATE_LIMIT_VOTES_PER_MINUTE: '0',
    RATE_LIMIT_CANCELS_PER_MINUTE: '0',
    RATE_LIMIT_ACCOUNTS_PER_MINUTE: '0',
    RATE_LIMIT_EXPORTS_PER_MINUTE: '0',
    RATE_LIMIT_ADMIN_WRITES_PER_MINUTE: '0',
    QUOTA_ANON_PER_DAY: '0',
    QUOTA_USER_PER_DAY: '0',
    BOT_CHALLENGE: 'off',
    BREAKER: 'off',
    // Free ports for the metrics listeners (a worker started with these settings too).
    METRICS_PORT: '0',
    WORKER_HTTP_PORT: '0',
    ...opts.env,
  };
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? nodeArgsFromEnv()), '--import', 'tsx', 'server/src/main.ts'], {
    cwd: opts.root ?? ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = collectOutput(child, 'gateway listening');
  opts.onSpawn?.(out.text);
  let ended: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      ended = { code, signal };
      resolve();
    }),
  );
  const ready = new Promise<void>((resolve, reject) => {
    void out.seen.then(resolve);
    child.once('exit', (code, signal) => reject(new Error(`gateway exited early (${code ?? signal}):\n${out.text()}`)));
  });
  const redis = new Redis(TEST_REDIS_URL);
  const cleanUp = async () => {
    if (!owner) return void redis.disconnect();
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
    await db.drop();
  };
  const timeoutMs = opts.startTimeoutMs ?? 30_000;
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      ready,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`gateway did not start within ${timeoutMs} ms:\n${out.text()}`)), timeoutMs);
      }),
    ]);
  } catch (err) {
    if (ended === null) child.kill('SIGKILL');
    await exited;
    await cleanUp();
    throw err;
  } finally {
    clearTimeout(timer);
  }
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    env,
    prefix,
    db,
    redis,
    child,
    output: out.text,
    exit: () => ended,
    stop: async () => {
      if (ended === null) child.kill('SIGTERM');
      await exited;
      await cleanUp();
    },
  };
}
