/**
 * Faults a gateway meets on the public internet and on a shared Redis that must not end it or
 * leave part of it broken until a restart: rooms forged onto its sockets, its live link dropped,
 * a script Redis would not load at start, a publish to a closed connection, an error on its
 * listening server.
 */
import { createServer } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { redisKeys } from '@duet/contracts';
import { listen } from '@duet/platform/listen';
import type { CreateBattleResponse } from '@duet/contracts';
import { Redis } from 'ioredis';
import pino from 'pino';
import { Server } from 'socket.io';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { socketIoAdapter } from '../../server/src/realtime/socket.ts';
import { postJson } from '../helpers/api.ts';
import { BattleViewer, connectSocket } from '../helpers/battle-viewer.ts';
import { startGatewayProcess } from '../helpers/gateway-process.ts';
import type { PrivateRedis } from '../helpers/private-services.ts';
import { freePort, startPrivateRedis } from '../helpers/private-services.ts';
import { TEST_REDIS_URL } from '../helpers/services.ts';
import { waitFor } from '../helpers/wait.ts';
import { spawnWorkerProcess } from '../helpers/worker-process.ts';

describe('a gateway on a Redis of its own', () => {
  let redis: PrivateRedis;
  let admin: Redis;

  beforeAll(async () => {
    redis = await startPrivateRedis();
    admin = new Redis(redis.url);
  }, 30_000);

  afterAll(async () => {
    admin?.disconnect();
    await redis?.remove();
  });

  it('keeps telling places in line, counting rooms and asking viewers to resync after rooms that are not strings were forged onto its sockets', async () => {
    const metricsPort = await freePort();
    const gw = await startGatewayProcess({ env: { REDIS_URL: redis.url, QUEUE_WATCH_INTERVAL_MS: '200', METRICS_PORT: String(metricsPort) } });
    const publisher = new Redis(redis.url);
    const listener = new Redis(redis.url);
    try {
      // No worker: the battle waits in the queue and its viewer is told its place about every 200 ms.
      const res = await postJson<CreateBattleResponse>(`${gw.url}/api/battles`, { tool: 'anything-question', text: 'Wait for me', lang: 'en' });
      expect(res.status).toBe(202);
      const viewer = new BattleViewer(await connectSocket(gw.url), res.body.battleId);
      let places = 0;
      viewer.socket.on('battle:queued', (place) => {
        if (place.battleId === res.body.battleId && place.position === 1) places += 1;
      });
      await viewer.join();
      await waitFor(() => places > 0, { what: 'a first place in line' });

      // Anyone who can publish to Redis can make every socket join rooms that are not strings.
      const adapterKey = redisKeys(gw.prefix).socketIoChannel;
      let answered = false;
      listener.on('message', (_channel: string, message: string) => {
        if (message.includes('"requestId":"after-forgery"')) answered = true;
      });
      await listener.subscribe(`${adapterKey}-response#/#`);
      // More of them than a socket may follow rooms (32): they must not count against it.
      const notStrings = [...Array.from({ length: 40 }, (_, i) => i), { battle: 1 }, null, ['battle:x'], true];
      const forged = { uid: 'forger', type: 2, opts: { rooms: [], except: [] }, rooms: notStrings };
      await publisher.publish(`${adapterKey}-request#/#`, JSON.stringify(forged));
      await publisher.publish(`${adapterKey}-request#/#`, JSON.stringify({ type: 1, requestId: 'after-forgery', uid: 'forger' }));
      await waitFor(() => answered, { what: 'the gateway to read the forged request' });

      expect(await viewer.socket.timeout(5_000).emitWithAck('tool:watch', { tool: 'math-solve' })).toEqual({ ok: true, data: { watching: 'math-solve' } });
      const before = places;
      await waitFor(() => places >= before + 2 || gw.exit() !== null, { what: 'places in line after the forgery' });
      expect(gw.exit(), gw.output().slice(-3000)).toBeNull();
      const metrics = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(metrics.status).toBe(200);
      const text = await metrics.text();
      expect(text).toMatch(/^duet_socketio_rooms\{kind="battle"\} 1$/m);
      expect(text).toMatch(/^duet_socketio_rooms\{kind="tool"\} 1$/m);
      expect(text).toMatch(/^duet_socketio_connections 1$/m);

      // The live events link drops and comes back: the viewer is asked to resync, and joins again.
      await admin.client('KILL', 'TYPE', 'pubsub');
      await waitFor(() => viewer.resyncs > 0 || gw.exit() !== null, { what: 'a resync after the live link came back' });
      expect(gw.exit(), gw.output().slice(-3000)).toBeNull();
      // The gateway writes its log asynchronously: the line may come after the viewer's resync.
      await waitFor(() => gw.output().includes('live events link restored; viewers asked to resync'), { what: 'the log line of the restored link' });
      await waitFor(() => viewer.joins >= 2 && viewer.snapshot !== null, { what: 'the viewer to join again' });
      expect(viewer.snapshot).toMatchObject({ battleId: res.body.battleId, finished: false, sides: { a: { state: 'waiting' }, b: { state: 'waiting' } } });
      viewer.socket.disconnect();
    } finally {
      publisher.disconnect();
      listener.disconnect();
      await gw.stop();
    }
  }, 60_000);

  it('refuses to start a gateway or a worker whose queues could not reach Redis, instead of serving with queues that fail for good', async () => {
    const gw = await startGatewayProcess({ env: { REDIS_URL: redis.url } });
    // BullMQ asks Redis for its version (INFO) once per queue; that failing is the start's blip.
    await admin.call('ACL', 'SETUSER', 'default', '-info');
    try {
      await expect(startGatewayProcess({ joining: gw, env: { REDIS_URL: redis.url }, startTimeoutMs: 20_000 })).rejects.toThrow(/gateway exited early \(1\)[\s\S]*"level":60[^\n]*NOPERM this user has no permissions to run the 'info' command/);
      const worker = spawnWorkerProcess(gw.env);
      const ended = await waitFor(() => (worker.child.exitCode ?? undefined), { what: 'the worker to stop', timeoutMs: 20_000 });
      expect(ended).toBe(1);
      expect(worker.output()).toMatch(/"level":60[^\n]*NOPERM this user has no permissions to run the 'info' command/);
      await admin.call('ACL', 'SETUSER', 'default', '+info');
      // The gateway that started earlier never needed it again: battles are still taken.
      const res = await postJson<CreateBattleResponse>(`${gw.url}/api/battles`, { tool: 'anything-question', text: 'Still here', lang: 'en' });
      expect(res.status).toBe(202);
    } finally {
      await admin.call('ACL', 'SETUSER', 'default', '+info');
      await gw.stop();
    }
  }, 60_000);

  it('rate-limits again once Redis takes the limiter’s scripts, though it refused them when the gateway started', async () => {
    // SCRIPT LOAD refused (a blip at start has the same effect on the store): the limiter must
    // load its scripts later, not fail every request until a restart.
    await admin.call('ACL', 'SETUSER', 'default', '-script|load');
    const gw = await startGatewayProcess({ env: { REDIS_URL: redis.url, RATE_LIMIT_BATTLES_PER_MINUTE: '1000' } });
    try {
      const post = () => fetch(`${gw.url}/api/battles`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      const refused = await post();
      expect(refused.status).toBeGreaterThanOrEqual(500);
      // The child's log reaches this process through a pipe, possibly after the response.
      await waitFor(() => gw.output().includes('Redis refused the rate limiter’s script') || undefined, { what: 'the limiter’s refusal in the log', timeoutMs: 10_000 });
      await admin.call('ACL', 'SETUSER', 'default', '+script|load');
      // Counted by the limiter (its headers), then refused as invalid: the limiter works again.
      const counted = await post();
      expect(counted.status).toBe(400);
      expect(counted.headers.get('ratelimit-policy')).toMatch(/q=1000/);
      expect(counted.headers.get('ratelimit')).toMatch(/r=99[89]/);
      expect(gw.exit()).toBeNull();
    } finally {
      await admin.call('ACL', 'SETUSER', 'default', '+script|load');
      await gw.stop();
    }
  }, 60_000);
});

it('logs a broadcast it could not publish to the other gateways instead of leaving the rejection unhandled', async () => {
  const pub = new Redis(TEST_REDIS_URL);
  const sub = new Redis(TEST_REDIS_URL);
  const logged: string[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void logged.push(JSON.parse(line).msg as string) });
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => void unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  const httpServer = createServer();
  const io = new Server(httpServer, { adapter: socketIoAdapter({ adapterPub: pub, adapterSub: sub, keys: redisKeys(`test-publish-${process.pid}`), logger }) });
  try {
    // The gateway closing its connections while a last win-rates update is on its way.
    await pub.quit();
    io.to('tool:quiz-solving').emit('stats:update', { tool: 'quiz-solving', winRates: [] });
    await waitFor(() => logged.includes('could not publish to the other gateways') || unhandled.length > 0, { what: 'the failed publish' });
    await sleep(50);
    expect(unhandled).toEqual([]);
    expect(logged).toContain('could not publish to the other gateways');
  } finally {
    process.off('unhandledRejection', onUnhandled);
    await io.close();
    sub.disconnect();
  }
});

it('logs an error its listening server raises and goes on serving', async () => {
  // Node raises a connection it could not accept (ENOBUFS, ENOMEM; libuv itself absorbs EMFILE) as
  // an 'error' on the server: with no listener, that would be an uncaught exception.
  const logged: Array<{ msg: string; err?: { code?: string } }> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void logged.push(JSON.parse(line)) });
  const server = createServer((_req, res) => res.end('ok'));
  const listening = await listen(server, 0, '127.0.0.1', logger);
  try {
    expect(() => server.emit('error', Object.assign(new Error('accept ENOBUFS'), { code: 'ENOBUFS', syscall: 'accept' }))).not.toThrow();
    expect(logged).toEqual([expect.objectContaining({ msg: 'the server could not take a connection', err: expect.objectContaining({ code: 'ENOBUFS' }) })]);
    expect(await (await fetch(listening.url)).text()).toBe('ok');
  } finally {
    await listening.close();
  }
});

it('refuses to start on a port another process holds, saying so', async () => {
  const taken = createServer();
  const logger = pino({ level: 'silent' });
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const { port } = taken.address() as { port: number };
  try {
    await expect(listen(createServer(), port, '127.0.0.1', logger)).rejects.toMatchObject({ code: 'EADDRINUSE' });
  } finally {
    await new Promise((resolve) => taken.close(resolve));
  }
});
