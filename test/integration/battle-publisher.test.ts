import { randomUUID } from 'node:crypto';
import { parseStreamEntries, redisKeys } from '@duet/contracts';
import type { BattleEvent } from '@duet/contracts';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedis, redisReady } from '../../worker/src/infra/redis.ts';
import type { RedisClient } from '../../worker/src/infra/redis.ts';
import { createBattlePublisher } from '../../worker/src/live/battle-publisher.ts';
import { TEST_REDIS_URL } from '../helpers/services.ts';
import { waitFor } from '../helpers/wait.ts';

describe('battle publisher', () => {
  const prefix = `test-${randomUUID().slice(0, 8)}`;
  const keys = redisKeys(prefix);
  let live: RedisClient;
  let plain: Redis;
  let monitor: Awaited<ReturnType<Redis['monitor']>>;
  /** Every command Redis ran on the test's keys, as MONITOR shows them. */
  const seen: string[][] = [];

  beforeAll(async () => {
    live = createRedis({ url: TEST_REDIS_URL, clusterNodes: [] }, 'test-publisher', { failFast: true });
    await redisReady(live);
    plain = new Redis(TEST_REDIS_URL);
    monitor = await new Redis(TEST_REDIS_URL).monitor();
    monitor.on('monitor', (_time: string, args: string[]) => {
      if (args.some((a) => a.startsWith(`${prefix}:`))) seen.push(args);
    });
  });

  afterAll(async () => {
    monitor.disconnect();
    const stale = await plain.keys(`${prefix}:*`);
    if (stale.length) await plain.del(...stale);
    plain.disconnect();
    live.disconnect();
  });

  it("sends each event as one Redis command, its JSON once, into the battle's stream and onto its live channel", async () => {
    const publisher = createBattlePublisher(live, keys, 600);
    // The first event after a Redis start also loads the script (EVALSHA refused, then EVAL).
    await publisher.publish({ type: 'progress', battleId: randomUUID(), side: 'a', progress: 1 });
    const battleId = randomUUID();
    const sub = new Redis(TEST_REDIS_URL);
    const heard: string[] = [];
    sub.on('message', (_channel: string, message: string) => heard.push(message));
    await sub.subscribe(keys.battleLive(battleId));
    const event: BattleEvent = { type: 'delta', battleId, side: 'a', seq: 1, text: 'Hello', progress: 3 };
    await publisher.publish(event);

    await waitFor(() => heard.length === 1 || undefined, { timeoutMs: 5_000 });
    expect(JSON.parse(heard[0]!)).toEqual([event]);
    expect(parseStreamEntries(await plain.xrange(keys.battleStream(battleId), '-', '+'))).toEqual([event]);
    expect(await plain.ttl(keys.battleStream(battleId))).toBeGreaterThan(0);
    await waitFor(() => seen.some((args) => args.some((a) => a.includes(battleId))) || undefined, { timeoutMs: 5_000 });
    // What the publisher's own connection sent: the script's inner calls show too, but inside a
    // script (MONITOR names them `lua`); the client sent one command.
    const fromClient = seen.filter((args) => args.some((a) => a.includes(battleId)) && /^eval/i.test(args[0] ?? ''));
    expect(fromClient).toHaveLength(1);
    expect(fromClient[0]!.filter((a) => a.includes('"Hello"'))).toHaveLength(1);
    sub.disconnect();
  });

  it("publishes a battle's events of one turn as one message, in order, each its own entry in the stream", async () => {
    const publisher = createBattlePublisher(live, keys, 600);
    const battleId = randomUUID();
    const other = randomUUID();
    const sub = new Redis(TEST_REDIS_URL);
    const heard: string[] = [];
    sub.on('message', (_channel: string, message: string) => heard.push(message));
    await sub.subscribe(keys.battleLive(battleId), keys.battleLive(other));
    const events: BattleEvent[] = [
      { type: 'delta', battleId, side: 'a', seq: 1, text: 'One' },
      { type: 'delta', battleId: other, side: 'a', seq: 1, text: 'Elsewhere' },
      { type: 'delta', battleId, side: 'b', seq: 1, text: 'Two' },
      { type: 'delta', battleId, side: 'a', seq: 2, text: ', three' },
    ];
    await Promise.all(events.map((e) => publisher.publish(e)));
    await waitFor(() => heard.length === 2 || undefined, { timeoutMs: 5_000 });
    const mine = events.filter((e) => e.battleId === battleId);
    expect(heard.map((m) => JSON.parse(m))).toEqual([mine, [events[1]]]);
    expect(parseStreamEntries(await plain.xrange(keys.battleStream(battleId), '-', '+'))).toEqual(mine);
    expect(await plain.ttl(keys.battleStream(battleId))).toBeGreaterThan(0);
    // A turn whose events ask for no time to live leaves it as it was.
    await plain.persist(keys.battleStream(battleId));
    await publisher.publish({ type: 'delta', battleId, side: 'b', seq: 2, text: ' four' });
    expect(await plain.ttl(keys.battleStream(battleId))).toBe(-1);
    sub.disconnect();
  });

  it('sends the events of several battles published in the same turn in one command', async () => {
    const publisher = createBattlePublisher(live, keys, 600);
    const battles = [randomUUID(), randomUUID(), randomUUID()];
    await Promise.all(battles.map((battleId) => publisher.publish({ type: 'delta', battleId, side: 'a', seq: 2, text: 'x' })));
    const mentions = (args: string[]) => battles.filter((id) => args.some((a) => a.includes(id))).length;
    await waitFor(() => seen.some((args) => mentions(args) > 0) || undefined, { timeoutMs: 5_000 });
    const commands = seen.filter((args) => /^eval/i.test(args[0] ?? '') && mentions(args) > 0);
    expect(commands).toHaveLength(1);
    expect(mentions(commands[0]!)).toBe(3);
  });

  it('keeps each battle\'s events in order when many battles publish in the same turn', async () => {
    const publisher = createBattlePublisher(live, keys, 600);
    const battles = Array.from({ length: 20 }, () => randomUUID());
    const sends: Array<Promise<void>> = [];
    for (let seq = 1; seq <= 5; seq++) {
      for (const battleId of battles) sends.push(publisher.publish({ type: 'delta', battleId, side: 'b', seq, text: `${seq} ` }));
    }
    await Promise.all(sends);
    for (const battleId of battles) {
      const events = parseStreamEntries(await plain.xrange(keys.battleStream(battleId), '-', '+'));
      expect(events.map((e) => (e.type === 'delta' ? e.seq : 0))).toEqual([1, 2, 3, 4, 5]);
    }
  });
});
