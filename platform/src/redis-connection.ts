/**
 * The one way gateway and worker open Redis: one server, or a Redis Cluster when
 * REDIS_CLUSTER_NODES is set. Not exported from the package's index: the browser bundle
 * imports that, and must not pull in ioredis.
 */
import { once } from 'node:events';
import { Cluster, Redis, ReplyError } from 'ioredis';
import type { RedisOptions } from 'ioredis';
import type { RedisNode } from './env.ts';

/** Where Redis is: one server at `url`, or the cluster of `clusterNodes` (then `url` gives only user, password and TLS). */
export interface RedisTarget {
  url: string;
  clusterNodes: RedisNode[];
}

/** A connection to one Redis or to a Redis Cluster; both take the same commands. */
export type RedisClient = Redis | Cluster;

export interface RedisConnectionOptions {
  /**
   * Requests' connections: while Redis is unreachable commands fail at once (and any command
   * fails after `commandTimeoutMs`), so the caller answers or moves on instead of hanging.
   * Otherwise as BullMQ and subscribers want it (`maxRetriesPerRequest: null`: commands wait
   * for a reconnect).
   */
  failFast?: boolean;
  commandTimeoutMs?: number;
  /** Commands issued in the same tick go out in one write. */
  autoPipelining?: boolean;
  /** On a cluster, a subscriber of sharded channels (SSUBSCRIBE): one connection per master. */
  shardedSubscriber?: boolean;
}

/** Settles once a cluster's sharded subscribers know the slots (subscribing before that fails). */
const subscribersReady = new WeakMap<Cluster, Promise<unknown>>();

/**
 * A write refused with READONLY: the connection is on a replica, typically the old primary after a
 * failover (a managed Redis moves its address to the new primary; open connections stay where they
 * were). Reconnecting reaches the primary. 1: the refused command fails (it did not run: a replica
 * refuses a write, or a script at its first write, before doing it) and its caller's own retry
 * goes to the new primary; resending it (2) would loop for good while the address still points
 * at a replica. Redis 6 reports a script's refusal as `ERR Error running script … -READONLY …`.
 * One Redis only: a cluster's nodes answer MOVED, and ioredis's cluster handles that itself.
 */
const reconnectOnReadOnly = (err: Error): 1 | false => (/(^|-)READONLY\b/.test(err.message) ? 1 : false);

/**
 * A connection that has a command under way and receives nothing for this long is taken for dead
 * and opened again (ioredis's `socketTimeout`). When a Redis host dies, or a failover moves the
 * service's address, the connections open to it hear nothing more, not even a reset: without this,
 * a fail-fast connection answers every command with a timeout and a blocking one waits for good,
 * until TCP keepalive gives up (two hours by default). Longer than any command Duet waits on: the
 * longest is BullMQ's blocking read of the next job, at most 10 s. BullMQ's own connections are
 * copies of Duet's and inherit it.
 */
export const SOCKET_TIMEOUT_MS = 15_000;

/**
 * How often an open connection with nothing under way sends a PING, so that `SOCKET_TIMEOUT_MS`
 * finds it dead too: a subscriber only ever receives, and an idle connection is otherwise found
 * only by the next command that needs it.
 */
export const HEARTBEAT_MS = 5_000;

/**
 * Pings a connection every `HEARTBEAT_MS` while it is ready, so a dead one is found by
 * `SOCKET_TIMEOUT_MS`. Also clears ioredis's socket timer when a connection closes for another
 * reason: ioredis keeps it, and it would then cut the connection opened next (and, while it is
 * pending, arms no timer for the new one's commands). Copies made with `duplicate()` (BullMQ makes
 * its workers' and queues' connections so) are watched the same way.
 */
function watchForSilence(redis: Redis): void {
  const duplicate = redis.duplicate.bind(redis);
  redis.duplicate = (override) => {
    const copy = duplicate(override);
    watchForSilence(copy);
    return copy;
  };
  let heartbeat: NodeJS.Timeout | undefined;
  const stop = () => {
    clearInterval(heartbeat);
    heartbeat = undefined;
  };
  const beat = () => {
    if (redis.status === 'ready') redis.ping().catch(() => undefined);
    // Ended with its listeners dropped by its owner first (a cluster's subscriber replaced by another).
    else if (redis.status === 'end') stop();
  };
  const start = () => {
    heartbeat ??= setInterval(beat, HEARTBEAT_MS);
    heartbeat.unref();
  };
  start();
  redis.on('close', () => {
    const timers = redis as unknown as { socketTimeoutTimer?: NodeJS.Timeout };
    clearTimeout(timers.socketTimeoutTimer);
    timers.socketTimeoutTimer = undefined;
  });
  redis.on('end', stop);
  // A connection that ended can be connected again by its owner (ioredis's cluster does so with its subscribers).
  redis.on('ready', start);
}

export function createRedisConnection(target: RedisTarget, name: string, opts: RedisConnectionOptions = {}): RedisClient {
  const perCommand: RedisOptions = opts.failFast
    ? { maxRetriesPerRequest: 1, commandTimeout: opts.commandTimeoutMs ?? 1_000, socketTimeout: SOCKET_TIMEOUT_MS }
    : { maxRetriesPerRequest: null, socketTimeout: SOCKET_TIMEOUT_MS };
  const pipelining = opts.autoPipelining ? { enableAutoPipelining: true } : {};
  if (target.clusterNodes.length === 0) {
    const redis = new Redis(target.url, {
      connectionName: name,
      ...perCommand,
      reconnectOnError: reconnectOnReadOnly,
      ...(opts.failFast ? { enableOfflineQueue: false } : {}),
      ...pipelining,
    });
    watchForSilence(redis);
    return redis;
  }
  const url = new URL(target.url);
  const cluster = new Cluster(target.clusterNodes, {
    ...(opts.failFast ? { enableOfflineQueue: false } : {}),
    ...pipelining,
    shardedSubscribers: opts.shardedSubscriber ?? false,
    redisOptions: {
      connectionName: name,
      ...perCommand,
      ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
      ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
      ...(url.protocol === 'rediss:' ? { tls: {} } : {}),
    },
  });
  watchCluster(cluster);
  if (opts.shardedSubscriber) subscribersReady.set(cluster, new Promise((resolve) => cluster.once('subscribersReady', resolve)));
  return cluster;
}

/**
 * A cluster's connections are watched as one Redis's are (a heartbeat, so a silent one is found by
 * its socket time-out and opened again), and so are those of its copies (BullMQ's): its connections
 * to the masters, opened and reopened by ioredis as nodes come and go, and its subscribers.
 */
function watchCluster(cluster: Cluster): void {
  cluster.on('+node', (node: Redis) => watchForSilence(node));
  const sweep = () => watchClusterSubscribers(cluster);
  const sweeping = setInterval(sweep, HEARTBEAT_MS);
  sweeping.unref();
  cluster.on('subscribersReady', sweep);
  cluster.once('end', () => clearInterval(sweeping));
  const duplicate = cluster.duplicate.bind(cluster);
  cluster.duplicate = (...args) => {
    const copy = duplicate(...args);
    watchCluster(copy);
    return copy;
  };
}

/** A subscriber connection of ioredis's cluster: not in its public API (5.9.2). */
interface ClusterSubscriberInternals {
  getInstance(): Redis | null;
}

/** Where ioredis keeps a cluster's subscribers: `subscriber` (SUBSCRIBE), `shardedSubscribers` (SSUBSCRIBE, one per master). */
interface ClusterInternals {
  subscriber?: ClusterSubscriberInternals;
  shardedSubscribers?: { shardedSubscribers?: Map<string, ClusterSubscriberInternals> };
}

const watchedSubscribers = new WeakSet<Redis>();

/**
 * ioredis opens a cluster's subscribers (one connection for SUBSCRIBE, and with sharded
 * subscribers one per master) itself, without the socket time-out Duet gives its own connections
 * and without a heartbeat, and makes another whenever one ends. When a master's host vanished
 * under them they waited for good: no live event of its battles reached a gateway again, and no
 * cancel a worker. Each one gets both when it is first seen: when ioredis says its sharded
 * subscribers are ready, and every `HEARTBEAT_MS`. One that then hears nothing ends, and ioredis
 * opens another and subscribes it again.
 */
function watchClusterSubscribers(cluster: Cluster): void {
  const internals = cluster as unknown as ClusterInternals;
  const subscribers = [internals.subscriber, ...(internals.shardedSubscribers?.shardedSubscribers?.values() ?? [])];
  for (const subscriber of subscribers) {
    const redis = subscriber?.getInstance();
    if (!redis || watchedSubscribers.has(redis)) continue;
    watchedSubscribers.add(redis);
    redis.options.socketTimeout = SOCKET_TIMEOUT_MS;
    watchForSilence(redis);
  }
}

/** Whether the connection is to a Redis Cluster. */
export const isCluster = (redis: RedisClient): redis is Cluster => redis.isCluster;

/** The name the connection was opened with (for logs). */
export const connectionNameOf = (redis: RedisClient): string | undefined =>
  isCluster(redis) ? redis.options.redisOptions?.connectionName : redis.options.connectionName;

/**
 * Whether Redis takes writes on this connection, for readiness: PING, and on one Redis its ROLE,
 * which must not be a replica's (a connection left on the old primary after a failover answers
 * PING but refuses every write). Such a connection is sent to reconnect (through the service's
 * address, to the new primary) before this throws: a process nobody sends traffic to while it is
 * not ready would otherwise never write, never move, and never be ready again. Where ROLE is
 * refused (some managed services and proxies), PING alone decides.
 */
export async function redisWritable(redis: RedisClient): Promise<void> {
  if (isCluster(redis)) {
    await redis.ping();
    return;
  }
  const role = await redis.call('ROLE').catch((err: unknown) => {
    if (err instanceof ReplyError) return null;
    throw err;
  });
  if (role === null) {
    await redis.ping();
    return;
  }
  const kind = Array.isArray(role) ? String(role[0]) : String(role);
  if (kind === 'slave' || kind === 'sentinel') {
    redis.disconnect(true);
    throw new Error(`Redis answers as a ${kind}, not the primary: reconnecting`);
  }
}

/** What `waitForRedis` logs through (a pino logger). */
export interface StartLogger {
  warn: (obj: object, msg: string) => void;
  info: (msg: string) => void;
}

/**
 * Waits until every one of a process's connections is ready (`redisReady`), saying once that it
 * waits for Redis and once that Redis answered: a gateway or worker started during an outage waits
 * for it, and its supervisor's start-up probe decides how long that may take.
 */
export async function waitForRedis(connections: readonly RedisClient[], logger: StartLogger): Promise<void> {
  let waited = false;
  const onFirstError = (err: Error) => {
    if (waited) return;
    waited = true;
    logger.warn({ err: err.message }, 'Redis does not answer: waiting for it to start');
  };
  await Promise.all(connections.map((redis) => redisReady(redis, { onFirstError })));
  if (waited) logger.info('Redis answers: starting');
}

/**
 * Waits until the connection is ready (a fail-fast connection refuses commands before that),
 * through failed attempts: ioredis keeps trying, so a process started while Redis is away waits for
 * it and starts when it is back, instead of exiting into a restart loop. `onFirstError` is told of
 * the first failed attempt (to say what the process waits for). `failOnError`: give up at the
 * first failed attempt instead (a job's process, which its queue retries).
 */
export async function redisReady(redis: RedisClient, opts: { failOnError?: boolean; onFirstError?: (err: Error) => void } = {}): Promise<void> {
  if (redis.status !== 'ready') {
    if (opts.failOnError) await once(redis, 'ready');
    else {
      // A listener for the whole wait: an error with none would end the process.
      let first = true;
      const told = (err: Error) => {
        if (first) opts.onFirstError?.(err);
        first = false;
      };
      redis.on('error', told);
      await new Promise<void>((resolve) => redis.once('ready', () => resolve()));
      redis.off('error', told);
    }
  }
  if (isCluster(redis)) await subscribersReady.get(redis);
}
