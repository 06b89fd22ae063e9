import pg from 'pg';

export type Db = pg.Pool;
export type DbClient = pg.PoolClient;

export interface PoolOptions {
  /** Connections the pool may hold (DB_POOL_SIZE): a fixed budget. */
  max: number;
  /** Shown in `pg_stat_activity`, so an operator sees which process holds which connections. */
  applicationName: string;
  /**
   * How long one query may go unanswered (DB_QUERY_TIMEOUT_MS); 0 for no bound. Its connection is
   * then closed, never reused. Opening a connection is bounded by the same time when
   * `connectTimeoutMs` is not set.
   */
  queryTimeoutMs: number;
  /** How long a query waits for a free connection, or for a new one to open, before it fails; 0 for no bound. */
  connectTimeoutMs?: number;
}

/** node-postgres's error when a query passed its `query_timeout`. */
const QUERY_TIMEOUT_MESSAGE = 'Query read timeout';

/** True for a query that went unanswered past its bound: its connection may still be running it, or be dead. */
export const isQueryTimeout = (err: unknown): boolean => err instanceof Error && err.message === QUERY_TIMEOUT_MESSAGE;

type QueryConfigLike = { submit?: unknown; query_timeout?: unknown };

/**
 * A client whose plain queries carry `query_timeout`, and whose opening is bounded by the same time
 * unless the pool bounds it itself (`connectTimeoutMs`). Without that, a server that takes the
 * connection and never answers its start-up (a host stuck mid-failover, a pooler whose server is
 * gone) would hold the pool's slot for good: the pool never gets it back, and once every slot is
 * held so, the process never reaches PostgreSQL again, even after the server is back.
 * Submittables (cursor streams) are left alone: node-postgres times a query until its callback,
 * which a cursor never calls, so the bound would cut every stream that outlasted it. (Duet's own
 * export reads pages of plain queries, each bounded.)
 */
function boundedClient(queryTimeoutMs: number): typeof pg.Client {
  class BoundedClient extends pg.Client {
    constructor(config?: pg.ClientConfig) {
      super({ ...config, connectionTimeoutMillis: config?.connectionTimeoutMillis || queryTimeoutMs });
    }
  }
  const query = pg.Client.prototype.query as (this: pg.Client, config: unknown, ...rest: unknown[]) => unknown;
  const bounded = function (this: pg.Client, config: unknown, ...rest: unknown[]): unknown {
    if (typeof config === 'string') return query.call(this, { text: config, query_timeout: queryTimeoutMs }, ...rest);
    const c = config as QueryConfigLike | null;
    if (c && typeof c === 'object' && typeof c.submit !== 'function' && c.query_timeout === undefined) {
      return query.call(this, { ...c, query_timeout: queryTimeoutMs }, ...rest);
    }
    return query.call(this, config, ...rest);
  };
  BoundedClient.prototype.query = bounded as typeof pg.Client.prototype.query;
  return BoundedClient;
}

/**
 * A PostgreSQL pool for a Duet process. A query unanswered for `queryTimeoutMs` fails and its
 * connection is closed: when a database host dies or a failover moves its address, the connections
 * open to it hear nothing more, not even a reset, and without the bound each query on them (and
 * the pool slot it holds) would wait for the kernel to give up (about 15 minutes for a query the
 * host never acknowledged), or for good. TCP keepalive finds such connections while they sit idle.
 */
export function createPool(databaseUrl: string, o: PoolOptions): Db {
  return new pg.Pool({
    connectionString: databaseUrl,
    max: o.max,
    application_name: o.applicationName,
    connectionTimeoutMillis: o.connectTimeoutMs ?? 0,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    ...(o.queryTimeoutMs > 0 ? { Client: boundedClient(o.queryTimeoutMs) } : {}),
  });
}

/**
 * Runs `fn` in one transaction: committed if it returns, rolled back if it throws. A connection
 * whose query went unanswered, or whose rollback failed, is closed instead of going back to the
 * pool, where the next caller would wait on it in turn.
 */
export async function withTransaction<T>(db: Db, fn: (client: DbClient) => Promise<T>): Promise<T> {
  const client = await db.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    broken = isQueryTimeout(err)
      ? (err as Error)
      : await client.query('ROLLBACK').then(
          () => undefined,
          (e: unknown) => (e instanceof Error ? e : new Error(String(e))),
        );
    throw err;
  } finally {
    client.release(broken);
  }
}
