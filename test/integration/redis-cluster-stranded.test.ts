/**
 * A Redis Cluster whose masters' hosts vanish under every open connection, as when a managed
 * service moves each master's address to another host: the old connections hear nothing more, not
 * even a reset, while new ones go through. Duet's connections to the masters, BullMQ's copies and
 * ioredis's own sharded subscribers must all find out and open again, or battles stop reaching
 * their viewers for good.
 */
import type { CreateBattleResponse } from '@duet/contracts';
import { createRedisConnection, redisReady } from '@duet/platform/redis-connection';
import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeLlmServer } from '../fakes/fake-llm-server.ts';
import { fakeRosterEnv, startFakeLlmServer } from '../fakes/fake-llm-server.ts';
import { postJson } from '../helpers/api.ts';
import type { DuetSocket } from '../helpers/battle-viewer.ts';
import { BattleViewer, connectSocket } from '../helpers/battle-viewer.ts';
import type { TestDuet } from '../helpers/duet.ts';
import { startTestDuet } from '../helpers/duet.ts';
import type { PrivateRedisCluster } from '../helpers/private-services.ts';
import { startPrivateRedisCluster } from '../helpers/private-services.ts';
import { waitFor } from '../helpers/wait.ts';

const ASK = { tool: 'anything-question', text: 'Why is the sky blue?', lang: 'en' };
const ANSWER = Array.from({ length: 30 }, (_, i) => `part${i}`).join(' ');

describe('Duet on a Redis Cluster whose masters vanish under open connections', () => {
  let cluster: PrivateRedisCluster;
  let fake: FakeLlmServer;
  let duet: TestDuet;
  const sockets: DuetSocket[] = [];

  beforeAll(async () => {
    cluster = await startPrivateRedisCluster(3, { behindProxies: true });
    fake = await startFakeLlmServer();
    fake.setDefault({ text: ANSWER, tokensPerSecond: 10 });
    duet = await startTestDuet({ redisCluster: cluster.nodes, env: fakeRosterEnv(fake) });
  }, 60_000);
  afterAll(async () => {
    for (const s of sockets.splice(0)) s.disconnect();
    await duet?.close();
    await fake?.close();
    await cluster?.remove();
  });

  /**
   * Starts a battle and joins it in a new viewer, trying again (each try given 5 s) until `deadline`:
   * while the gateway's connections are stranded a battle is refused or a join goes unanswered.
   */
  async function watchNewBattle(deadline: number): Promise<BattleViewer & { voteToken: string }> {
    let last: unknown = null;
    while (Date.now() < deadline) {
      const res = await postJson<CreateBattleResponse>(`${duet.url}/api/battles`, ASK).catch(() => null);
      if (res?.status === 202) {
        const socket = await connectSocket(duet.url);
        sockets.push(socket);
        const viewer = new BattleViewer(socket, res.body.battleId);
        const unanswered = new Promise<string>((r) => setTimeout(() => r('join unanswered for 5 s'), 5_000));
        const joined = await Promise.race([viewer.join().then(() => 'joined'), unanswered]).catch((err: unknown) => err);
        if (joined === 'joined') return Object.assign(viewer, { voteToken: res.body.voteToken });
        last = joined;
        socket.disconnect();
      } else last = res?.status ?? 'the request failed';
      await new Promise((r) => setTimeout(r, 1_000));
    }
    throw new Error(`no battle could be watched: ${String(last)}`);
  }

  it('streams battles live again once every open connection to every master has gone silent', async () => {
    const before = await watchNewBattle(Date.now() + 10_000);
    expect((await before.finished(30_000)).sides.a.text).toBe(ANSWER);
    const during = await watchNewBattle(Date.now() + 10_000);
    await during.streaming();

    for (const proxy of cluster.proxies) proxy.strand();

    const after = await watchNewBattle(Date.now() + 60_000);
    const final = await after.finished(60_000);
    expect(final.sides.a.text).toBe(ANSWER);
    expect(final.sides.b.text).toBe(ANSWER);
    // Live, not only in a snapshot taken after the end: the battle's channel reaches the gateway again.
    expect(after.events.filter((e) => e.type === 'delta').length).toBeGreaterThan(2);
    // The battle that was streaming when the connections went silent ends whole for its viewer.
    const ended = await during.finished(60_000);
    expect(ended.sides.a.text).toBe(ANSWER);
    expect(ended.sides.b.text).toBe(ANSWER);

    // A cancel stops its battle again: through the worker's cancel subscriber opened again, or, if
    // its message came before that, the cancel flag the worker looks at every few seconds.
    fake.setDefault({ text: `${ANSWER} ${ANSWER} ${ANSWER} ${ANSWER}`, tokensPerSecond: 5 });
    const long = await watchNewBattle(Date.now() + 10_000);
    await long.streaming();
    const cancel = await postJson(`${duet.url}/api/battles/${long.battleId}/cancel`, { voteToken: long.voteToken });
    expect(cancel.status).toBeLessThan(300);
    const cancelled = await long.finished(10_000);
    expect([cancelled.sides.a.stats?.finishReason, cancelled.sides.b.stats?.finishReason]).toEqual(['cancelled', 'cancelled']);
  }, 150_000);

  it('finds a cluster subscriber gone silent and subscribes again: messages published after arrive', async () => {
    const subscriber = createRedisConnection({ url: 'redis://127.0.0.1', clusterNodes: cluster.nodes }, 'duet-test-subscriber') as Cluster;
    // One publisher before the strand and one after: a connection open at the strand hears nothing more.
    const publishers = [new Cluster(cluster.nodes)];
    for (const c of [subscriber, ...publishers]) c.on('error', () => undefined);
    try {
      await redisReady(subscriber);
      await subscriber.subscribe('duet-test-channel');
      const received: string[] = [];
      subscriber.on('message', (_channel, message: string) => received.push(message));
      await publishers[0]!.publish('duet-test-channel', 'before');
      await waitFor(() => received.includes('before'), { what: 'the message published before' });

      for (const proxy of cluster.proxies) proxy.strand();
      const after = new Cluster(cluster.nodes);
      after.on('error', () => undefined);
      publishers.push(after);

      await waitFor(
        async () => {
          await after.publish('duet-test-channel', 'after');
          return received.includes('after');
        },
        { what: 'a message published after the strand', timeoutMs: 45_000, intervalMs: 1_000 },
      );
    } finally {
      for (const c of [subscriber, ...publishers]) c.disconnect();
    }
  }, 60_000);
});
