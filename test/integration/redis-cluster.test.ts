import { redisKeys } from '@duet/contracts';
import type { CreateBattleResponse, ErrorResponse, Leaderboard, VoteResponse, WinRate } from '@duet/contracts';
import type { Cluster } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../server/src/app.ts';
import { startGateway } from '../../server/src/app.ts';
import { loadGatewayConfig } from '../../server/src/config.ts';
import type { FakeLlmServer } from '../fakes/fake-llm-server.ts';
import { fakeRosterEnv, startFakeLlmServer } from '../fakes/fake-llm-server.ts';
import { getJson, postJson } from '../helpers/api.ts';
import { sampleValue, scrape } from '../helpers/prometheus.ts';
import type { DuetSocket } from '../helpers/battle-viewer.ts';
import { BattleViewer, connectSocket } from '../helpers/battle-viewer.ts';
import type { TestDuet } from '../helpers/duet.ts';
import { startTestDuet } from '../helpers/duet.ts';
import type { PrivateRedisCluster } from '../helpers/private-services.ts';
import { startPrivateRedisCluster } from '../helpers/private-services.ts';
import { waitFor } from '../helpers/wait.ts';

const ASK = { tool: 'anything-question', text: 'Why is the sky blue?', lang: 'en' };

/** The master that holds a key (`host:port`), asking each one directly (the others answer MOVED). */
async function ownerOf(cluster: Cluster, key: string): Promise<string> {
  for (const node of cluster.nodes('master')) {
    if ((await node.exists(key).catch(() => 0)) === 1) return `${node.options.host}:${node.options.port}`;
  }
  throw new Error(`no master holds ${key}`);
}

describe('Duet on a three-master Redis Cluster', () => {
  let cluster: PrivateRedisCluster;
  let fake: FakeLlmServer;
  let duet: TestDuet;
  /** A second gateway on the same cluster: viewers and watchers there, battles and votes through the first. */
  let second: Gateway;
  const sockets: DuetSocket[] = [];

  beforeAll(async () => {
    cluster = await startPrivateRedisCluster(3);
    fake = await startFakeLlmServer();
    fake.setDefault({ text: 'Rayleigh scattering sends the short blue wavelengths all over the sky.', tokensPerSecond: 300 });
    duet = await startTestDuet({
      redisCluster: cluster.nodes,
      env: { ...fakeRosterEnv(fake), LEADERBOARD_INTERVAL_MS: '300', RATE_LIMIT_CANCELS_PER_MINUTE: '2', TRUST_PROXY: 'loopback' },
    });
    second = await startGateway(loadGatewayConfig(duet.env), pino({ level: 'silent' }));
  }, 60_000);
  afterAll(async () => {
    for (const s of sockets.splice(0)) s.disconnect();
    await second?.close();
    await duet?.close();
    await fake?.close();
    await cluster?.remove();
  });

  const socket = async (url: string) => {
    const s = await connectSocket(url);
    sockets.push(s);
    return s;
  };
  const create = async () => {
    const res = await postJson<CreateBattleResponse>(`${duet.url}/api/battles`, ASK);
    expect(res.status).toBe(202);
    return res.body;
  };
  const redis = () => duet.redis as Cluster;

  it('runs a battle watched live on another gateway, counts its vote and tells that gateway’s watchers', async () => {
    const watcher = await socket(second.url);
    expect(await watcher.emitWithAck('tool:watch', { tool: 'anything-question' })).toMatchObject({ ok: true });
    const updates: Array<{ tool: string; winRates: WinRate[] }> = [];
    watcher.on('stats:update', (u) => updates.push(u));

    const created = await create();
    const viewer = new BattleViewer(await socket(second.url), created.battleId);
    await viewer.join();
    const final = await viewer.finished();
    for (const side of ['a', 'b'] as const) {
      expect(final.sides[side].state).toBe('done');
      expect(final.sides[side].text).toBe('Rayleigh scattering sends the short blue wavelengths all over the sky.');
    }
    // Deltas came live, not only in the snapshot.
    expect(viewer.events.some((e) => e.type === 'delta')).toBe(true);

    const vote = await postJson<VoteResponse & ErrorResponse>(`${duet.url}/api/battles/${created.battleId}/vote`, {
      winner: 'a',
      voteToken: created.voteToken,
    });
    expect(vote.status).toBe(200);
    const update = await waitFor(() => updates[0], { what: 'stats:update on the second gateway' });
    expect(update.tool).toBe('anything-question');
    expect(update.winRates.find((w) => w.model === vote.body.sides.a.model)?.wins).toBe(1);

    // The leaderboard job (in its own process, on the cluster too) takes the vote in.
    const board = await waitFor(
      async () => {
        const res = await getJson<Leaderboard>(`${second.url}/api/leaderboard`);
        return res.status === 200 && res.body.votes === 1 && res.body;
      },
      { what: 'the leaderboard to count the vote', timeoutMs: 30_000 },
    );
    expect(board.models.map((m) => m.model).sort()).toEqual([vote.body.sides.a.model, vote.body.sides.b.model].sort());

    const { rows } = await duet.db.pool.query('SELECT count(*)::int AS n FROM answers WHERE battle_id = $1', [created.battleId]);
    expect(rows[0].n).toBe(2);

    // The queue figures read the hash-tagged queues, on gateway and worker alike; both are ready.
    for (const url of [second.metricsUrl, duet.worker!.httpUrl]) {
      // Absent when the queue cannot be read (a cross-slot script would fail).
      const samples = await scrape(url);
      expect(sampleValue(samples, 'duet_queue_jobs', { queue: 'battles', state: 'waiting' })).toBe(0);
      expect(sampleValue(samples, 'duet_queue_jobs', { queue: 'battles', state: 'failed' })).toBe(0);
      expect((await fetch(`${url}/readyz`)).status).toBe(200);
    }
  });

  it('keeps each battle’s stream and live channel on its own shard, spread over the masters', async () => {
    const keys = redisKeys(duet.prefix);
    const owners = new Set<string>();
    // Battle ids are random: a few battles land on more than one master.
    for (let i = 0; i < 12 && owners.size < 2; i += 1) {
      const created = await create();
      const viewer = new BattleViewer(await socket(second.url), created.battleId);
      await viewer.join();
      await viewer.finished();
      const owner = await ownerOf(redis(), keys.battleStream(created.battleId));
      // The viewer is still there: its gateway holds a sharded subscription to the battle's channel, on the battle's own master.
      const [host, port] = owner.split(':');
      const master = redis().nodes('master').find((n) => n.options.host === host && String(n.options.port) === port)!;
      const [, subscribers] = (await master.call('PUBSUB', 'SHARDNUMSUB', keys.battleLive(created.battleId))) as [string, number];
      expect(subscribers).toBe(1);
      owners.add(owner);
    }
    expect(owners.size).toBeGreaterThan(1);
    // Each queue's keys sit in one slot: the BullMQ prefix carries a hash tag.
    expect(await ownerOf(redis(), `{${duet.prefix}}:bull:battles:meta`)).toMatch(/^127\.0\.0\.1:\d+$/);
  });

  it('limits requests per client with counters kept on the cluster, whichever master holds them', async () => {
    // Each limit's scripts are on every master, so a counter on any of them runs without NOSCRIPT.
    const scripts = async () =>
      Promise.all(redis().nodes('master').map(async (node) => Number(/number_of_cached_scripts:(\d+)/.exec(await node.info('memory'))?.[1])));
    // The stores load their scripts as the gateways start, without holding the start for it.
    await waitFor(async () => (await scripts()).every((n) => n >= 2), { what: 'the rate-limit scripts on every master', timeoutMs: 5_000 });
    const cancel = (url: string, ip: string) =>
      fetch(`${url}/api/battles/00000000-0000-4000-8000-000000000000/cancel`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
        body: '{}',
      });
    // Clients whose counters land on different masters, each allowed two cancels a minute.
    const ips = Array.from({ length: 9 }, (_, i) => `203.0.113.${i + 1}`);
    for (const ip of ips) {
      // 400: no vote token; the limit let the request through.
      expect([ip, (await cancel(duet.url, ip)).status]).toEqual([ip, 400]);
      expect([ip, (await cancel(second.url, ip)).status]).toEqual([ip, 400]);
    }
    const owners = new Set(await Promise.all(ips.map((ip) => ownerOf(redis(), `${duet.prefix}:rl:cancels:${ip}`))));
    expect(owners.size).toBeGreaterThan(1);
    for (const ip of ips) {
      const third = await cancel(duet.url, ip);
      expect(third.status).toBe(429);
      expect(((await third.json()) as ErrorResponse).error.code).toBe('rate_limited');
    }
  });

  it('asks the viewers of a battle to resync when the link to its master drops, the master staying up', async () => {
    const answer = Array.from({ length: 60 }, (_, i) => `token${i}`).join(' ');
    fake.setDefault({ text: answer, tokensPerSecond: 30 });
    const created = await create();
    const viewer = new BattleViewer(await socket(second.url), created.battleId);
    await viewer.join();
    await viewer.streaming();
    const [host, port] = (await ownerOf(redis(), redisKeys(duet.prefix).battleStream(created.battleId))).split(':');
    const master = redis().nodes('master').find((n) => n.options.host === host && String(n.options.port) === port)!;
    // Every subscriber connection to that master is cut (the gateways' sharded subscribers among them).
    expect(Number(await master.call('CLIENT', 'KILL', 'TYPE', 'pubsub'))).toBeGreaterThan(0);
    await waitFor(() => viewer.resyncs > 0, { what: 'battle:resync from the gateway' });
    const final = await viewer.finished(30_000);
    expect(final.sides.a.text).toBe(answer);
    expect(final.sides.b.text).toBe(answer);
    expect(viewer.resyncs).toBeLessThanOrEqual(2);
  });

  it('asks the viewers of a battle to resync when its master restarts empty, and they end with the whole text', async () => {
    const answer = Array.from({ length: 80 }, (_, i) => `word${i}`).join(' ');
    fake.setDefault({ text: answer, tokensPerSecond: 40 });
    const keys = redisKeys(duet.prefix);
    const queueMaster = await ownerOf(redis(), `{${duet.prefix}}:bull:battles:meta`);
    // A battle on another master than the queues': this test is about the live streams.
    let viewer: BattleViewer | null = null;
    let master = '';
    for (let i = 0; i < 12 && !viewer; i += 1) {
      const created = await create();
      const candidate = new BattleViewer(await socket(second.url), created.battleId);
      await candidate.join();
      await candidate.streaming();
      const owner = await ownerOf(redis(), keys.battleStream(created.battleId));
      if (owner !== queueMaster) {
        viewer = candidate;
        master = owner;
      } else {
        await postJson(`${duet.url}/api/battles/${created.battleId}/cancel`, { voteToken: created.voteToken });
      }
    }
    if (!viewer) throw new Error('no battle landed away from the queues’ master');

    await cluster.restart(Number(master.split(':')[1]));
    await waitFor(() => viewer.resyncs > 0, { what: 'battle:resync from the gateway', timeoutMs: 20_000 });
    const final = await viewer.finished(30_000);
    expect(final.sides.a.text).toBe(answer);
    expect(final.sides.b.text).toBe(answer);
    // One resync once the master is back, not one per attempt to reach it while it was down.
    expect(viewer.resyncs).toBeLessThanOrEqual(2);
    expect(viewer.joins).toBeLessThanOrEqual(4);
  }, 90_000);
});
