import { createRedisConnection, SOCKET_TIMEOUT_MS } from '@duet/platform/redis-connection';
import type { Redis } from 'ioredis';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrivateRedis } from '../helpers/private-services.ts';
import { startPrivateRedis } from '../helpers/private-services.ts';
import { waitFor } from '../helpers/wait.ts';

/**
 * BullMQ opens its workers' and queues' connections as copies (`duplicate()`) of the one Duet
 * hands it. A copy must survive a Redis restart as Duet's own connections do: ioredis keeps the
 * socket timer of a connection that closed with a command under way, and that timer, firing later,
 * would cut the healthy connection opened in its place.
 */
describe('a copy of a Duet Redis connection, across a Redis restart', () => {
  let redis: PrivateRedis;
  let conn: Redis;
  let copy: Redis;
  beforeAll(async () => {
    redis = await startPrivateRedis();
    conn = createRedisConnection({ url: redis.url, clusterNodes: [] }, 'duet-test') as Redis;
    copy = conn.duplicate();
    for (const c of [conn, copy]) c.on('error', () => undefined);
  });
  afterAll(async () => {
    copy?.disconnect();
    conn?.disconnect();
    await redis?.remove();
  });

  it('keeps the connection it opened after the restart: the old connection’s socket timer does not cut it', async () => {
    const timeouts: string[] = [];
    copy.on('error', (err: Error) => {
      if (/Socket timeout/.test(err.message)) timeouts.push(err.message);
    });
    await copy.ping();
    // A blocking read under way (as BullMQ's wait for the next job) when Redis goes away.
    const blocked = copy.blpop('duet-test:nothing', 2).catch(() => undefined);
    await sleep(100);
    await redis.stop();
    await redis.start();
    await waitFor(async () => copy.status === 'ready' && (await copy.ping()) === 'PONG', { what: 'the copy back on the restarted Redis' });
    await blocked;
    const id = await copy.client('ID');
    // Past the old timer's deadline: the same connection, healthy all along, is still open.
    await sleep(SOCKET_TIMEOUT_MS + 1_000);
    expect(await copy.client('ID')).toBe(id);
    expect(timeouts).toEqual([]);
  }, 40_000);
});
