/**
 * Private Redis and PostgreSQL servers for fault tests: started on free ports, stopped and
 * restarted at will, removed afterwards. The machine's shared services are never touched. Over 300
 * lines on purpose: both servers' start, stop, restart and removal, side by side.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import pg from 'pg';
import { waitFor } from './wait.ts';

const run = promisify(execFile);

/** A TCP port nobody listens on right now. */
export async function freePort(): Promise<number> {
  const port = await listenOnce(0);
  if (port === null) throw new Error('no free port on 127.0.0.1');
  return port;
}

/** Listens on the port (0: any free one) on 127.0.0.1 and closes again: the port it got, or null if it was taken. */
async function listenOnce(port: number): Promise<number | null> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(null));
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      const got = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(got));
    });
  });
}

/**
 * A free port for a cluster node: Redis refuses one above 55535 in cluster mode (its cluster bus
 * listens 10,000 higher), and the bus's port must be free too.
 */
async function freeClusterPort(): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (port <= 55_535 && (await listenOnce(port + 10_000)) !== null) return port;
  }
}

export interface PrivateRedis {
  url: string;
  port: number;
  /** Its working folder (where it would save, and its log). */
  dir: string;
  /** Shuts it down without saving: everything in it is gone. */
  stop: () => Promise<void>;
  /** Starts it again, empty. */
  start: () => Promise<void>;
  /** Stops it and removes its folder. */
  remove: () => Promise<void>;
}

/** A redis-server of its own, keeping nothing on disk. */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'duet-redis-'));
  const url = `redis://127.0.0.1:${port}`;
  const answers = async () => {
    const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on('error', () => undefined);
    try {
      await probe.connect();
      return (await probe.ping()) === 'PONG';
    } catch {
      return false;
    } finally {
      probe.disconnect();
    }
  };
  const start = async () => {
    await run('redis-server', [
      '--port', String(port), '--bind', '127.0.0.1', '--daemonize', 'yes', '--save', '', '--appendonly', 'no',
      '--dir', dir, '--maxmemory-policy', 'noeviction', '--logfile', path.join(dir, 'redis.log'),
    ]);
    await waitFor(answers, { what: `redis on ${port}` });
  };
  const stop = async () => {
    await run('redis-cli', ['-p', String(port), 'shutdown', 'nosave']).catch(() => undefined);
    await waitFor(async () => !(await answers()), { what: `redis on ${port} to stop` });
  };
  await start();
  return {
    url,
    port,
    dir,
    start,
    stop,
    remove: async () => {
      await stop().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface PrivatePostgres {
  /** The URL of `database` on this server. */
  url: (database: string) => string;
  port: number;
  /** Stops the server (fast shutdown: connections are cut). */
  stop: () => Promise<void>;
  start: () => Promise<void>;
  /** Stops and removes the cluster. */
  remove: () => Promise<void>;
}

/** A PostgreSQL 15 cluster of its own (`pg_createcluster`), trust auth, on a free port. */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const port = await freePort();
  const name = `duet_fault_${port}`;
  await run('pg_createcluster', ['15', name, '--port', String(port), '--', '--auth-host=trust', '--auth-local=trust']);
  const url = (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  const answers = async () => {
    const client = new pg.Client({ connectionString: url('postgres'), connectionTimeoutMillis: 1_000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  };
  const start = async () => {
    await run('pg_ctlcluster', ['15', name, 'start']);
    await waitFor(answers, { what: `postgres on ${port}`, timeoutMs: 30_000 });
  };
  const stop = async () => {
    await run('pg_ctlcluster', ['15', name, 'stop', '-m', 'fast']);
  };
  await start();
  return {
    url,
    port,
    start,
    stop,
    remove: async () => {
      await run('pg_dropcluster', ['15', name, '--stop']).catch(() => undefined);
    },
  };
}

export interface PrivateRedisCluster {
  /** Its masters, as REDIS_CLUSTER_NODES lists them (their proxies, when behind proxies). */
  nodes: { host: string; port: number }[];
  /** With `behindProxies`: one per master, in front of it, the address it tells clients. */
  proxies: TcpProxy[];
  /**
   * Shuts one master down without saving and starts it again: it comes back with its slots, empty.
   * `port` is the master's own (not its proxy's, when behind proxies).
   */
  restart: (port: number, downMs?: number) => Promise<void>;
  /** Shuts every node down and removes their folder. */
  remove: () => Promise<void>;
}

/**
 * A Redis Cluster of its own: `masters` redis-servers in cluster mode on free ports, keeping
 * nothing on disk but their cluster config, joined by `redis-cli --cluster create` with no
 * replicas. Resolves once every node says `cluster_state:ok`. `behindProxies`: each master
 * behind a TCP proxy of its own, whose address it announces to clients (as on a managed service,
 * where a stable address can move from one host to another); the nodes talk to each other directly.
 */
export async function startPrivateRedisCluster(masters = 3, opts: { behindProxies?: boolean } = {}): Promise<PrivateRedisCluster> {
  const dir = mkdtempSync(path.join(tmpdir(), 'duet-redis-cluster-'));
  const ports: number[] = [];
  for (let i = 0; i < masters; i += 1) ports.push(await freeClusterPort());
  const proxies = opts.behindProxies ? await Promise.all(ports.map((port) => startTcpProxy(port))) : [];
  const announced = (port: number) => {
    const proxy = proxies[ports.indexOf(port)];
    return proxy ? ['--cluster-announce-ip', '127.0.0.1', '--cluster-announce-port', String(proxy.port), '--cluster-announce-bus-port', String(port + 10_000)] : [];
  };
  const cli = (port: number, ...args: string[]) => run('redis-cli', ['-p', String(port), ...args]);
  const remove = async () => {
    await Promise.all(ports.map((port) => cli(port, 'shutdown', 'nosave').catch(() => undefined)));
    await Promise.all(proxies.map((proxy) => proxy.close()));
    rmSync(dir, { recursive: true, force: true });
  };
  const answers = async (port: number) => (await cli(port, 'ping').catch(() => null))?.stdout.trim() === 'PONG';
  // The cluster config (nodes-<port>.conf) is written whatever --save says: a restarted node keeps its id and slots.
  const start = async (port: number) => {
    await run('redis-server', [
      '--port', String(port), '--bind', '127.0.0.1', '--daemonize', 'yes', '--save', '', '--appendonly', 'no',
      '--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`, '--cluster-node-timeout', '2000',
      '--dir', dir, '--maxmemory-policy', 'noeviction', '--logfile', path.join(dir, `redis-${port}.log`), ...announced(port),
    ]);
    await waitFor(() => answers(port), { what: `redis on ${port}` });
  };
  const healthy = async () => {
    for (const port of ports) {
      await waitFor(async () => (await cli(port, 'cluster', 'info').catch(() => null))?.stdout.includes('cluster_state:ok'), {
        what: `cluster state ok on ${port}`,
      });
    }
  };
  try {
    for (const port of ports) await start(port);
    await run('redis-cli', ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '0', '--cluster-yes']);
    await healthy();
  } catch (err) {
    await remove();
    throw err;
  }
  return {
    nodes: ports.map((port, i) => ({ host: '127.0.0.1', port: proxies[i]?.port ?? port })),
    proxies,
    restart: async (port, downMs = 500) => {
      await cli(port, 'shutdown', 'nosave').catch(() => undefined);
      await waitFor(async () => !(await answers(port)), { what: `redis on ${port} to stop` });
      await new Promise((resolve) => setTimeout(resolve, downMs));
      await start(port);
      await healthy();
    },
    remove,
  };
}

export interface TcpProxy {
  port: number;
  /** Where new connections go from now on; open ones stay where they are (as after a failover). */
  retarget: (port: number) => void;
  /**
   * The server behind every open connection is gone without a word, as when a host dies or a
   * failover moves the address: the server side is closed (the server ends those sessions), the
   * client side stays open and never hears again. New connections go through as before.
   */
  strand: () => void;
  /**
   * While on, new connections are taken and never answered (a host stuck mid-failover, a pooler
   * whose server is gone): what they send is read and dropped. Off: new connections go through
   * again; the ones taken meanwhile stay unanswered.
   */
  hold: (on: boolean) => void;
  close: () => Promise<void>;
}

/** A TCP proxy on 127.0.0.1: the stable address a managed service moves from one server to another. */
export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  let target = targetPort;
  const pairs = new Set<{ client: Socket; upstream: Socket }>();
  const stranded = new Set<Socket>();
  let holding = false;
  const server = createServer((client) => {
    if (holding) {
      client.on('error', () => undefined);
      client.on('data', () => undefined);
      stranded.add(client);
      return;
    }
    const upstream = connect(target, '127.0.0.1');
    const pair = { client, upstream };
    pairs.add(pair);
    for (const socket of [client, upstream]) {
      socket.on('error', () => undefined);
      socket.on('close', () => {
        if (!pairs.delete(pair)) return;
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
  });
  return {
    port,
    retarget: (next) => {
      target = next;
    },
    strand: () => {
      for (const pair of [...pairs]) {
        pairs.delete(pair);
        pair.client.unpipe(pair.upstream);
        pair.upstream.unpipe(pair.client);
        pair.upstream.destroy();
        // Whatever the client sends is read and dropped, so it never sees a full window or a reset.
        pair.client.on('data', () => undefined);
        stranded.add(pair.client);
      }
    },
    hold: (on) => {
      holding = on;
    },
    close: async () => {
      for (const { client, upstream } of pairs) {
        client.destroy();
        upstream.destroy();
      }
      for (const socket of stranded) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
