// Over 300 lines on purpose: the deployment's one story, in order, on one running stack.
// Stays under it if it can.
//
// The Compose stack started for real, as operators run it: nginx in front of 2 gateways and 2
// workers, Redis and PostgreSQL in containers, the one-shot migration. Everything reaches it
// through nginx on the published port, except where a test needs one gateway in particular
// (a watcher on "the other gateway", the gateway a viewer's socket is on): those go to the
// gateway container's address on the proxy's network, as nginx does.
import type { CreateBattleResponse, HistoryResponse, StatsUpdate } from '@duet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, paneState } from '../e2e/browser.ts';
import { getJson, postJson } from '../helpers/api.ts';
import { BattleViewer, connectSocket, FailoverViewer } from '../helpers/battle-viewer.ts';
import { waitFor } from '../helpers/wait.ts';
import { COMPOSE_VERSION, docker, Stack } from './compose.ts';

/** Settings of every gateway and worker: no limit gets in the way of one test client asking many questions. */
const SETTINGS = {
  RATE_LIMIT_BATTLES_PER_MINUTE: '0',
  QUOTA_ANON_PER_DAY: '0',
  QUOTA_USER_PER_DAY: '0',
  SOCKET_JOINS_PER_SECOND: '100',
  WORKER_CONCURRENCY: '2',
  LEADERBOARD_INTERVAL_MS: '1000',
  LOG_LEVEL: 'warn',
};
const METRICS_PORT = 9465;

let stack: Stack;
beforeAll(async () => {
  console.log(`deployment: Compose ${COMPOSE_VERSION}`);
  stack = await Stack.create(SETTINGS);
  const started = Date.now();
  await stack.up();
  console.log(`deployment: up and healthy in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}, 300_000);

afterAll(async () => {
  if (!stack) return;
  await stack.down({ volumes: true });
  expect(await stack.leftovers()).toEqual([]);
}, 120_000);

const ask = (text: string, tool = 'quiz-solving') => postJson<CreateBattleResponse>(`${stack.url}/api/battles`, { tool, text, lang: 'en' });

/** Socket.IO connections a gateway container holds, read from its metrics. */
async function socketsOn(container: string): Promise<number> {
  const res = await fetch(`http://${await stack.address(container)}:${METRICS_PORT}/metrics`);
  const line = (await res.text()).split('\n').find((l) => l.startsWith('duet_socketio_connections'));
  return Number(line?.split(/\s+/).at(-1) ?? Number.NaN);
}

describe('the Compose stack', () => {
  it('runs 2 gateways and 2 workers behind nginx, each reported healthy', async () => {
    for (const service of ['gateway', 'worker', 'proxy', 'redis', 'postgres']) {
      const ids = await stack.containers(service);
      expect(ids.length, service).toBe(service === 'gateway' || service === 'worker' ? 2 : 1);
      for (const id of ids) expect(await docker('inspect', '-f', '{{ .State.Health.Status }}', id), `${service} ${id}`).toBe('healthy');
    }
    const meta = await getJson<{ demoModels: boolean }>(`${stack.url}/api/meta`);
    expect(meta.status).toBe(200);
    expect(meta.body.demoModels).toBe(true);
  });

  it('lets a real browser ask a question on a tool page through nginx and watch both answers', async () => {
    const browser = await launchBrowser();
    try {
      const { page } = await newPage(browser, { baseURL: stack.url });
      await page.goto('/quiz-solving-duet');
      await page.getByRole('textbox').first().fill('What is the capital of France?');
      await page.getByTestId('submit').click();
      await waitFor(async () => (await paneState(page, 'a')) === 'streaming' || (await paneState(page, 'b')) === 'streaming', { what: 'an answer streaming', timeoutMs: 30_000 });
      await waitFor(async () => (await paneState(page, 'a')) === 'done' && (await paneState(page, 'b')) === 'done', { what: 'both answers', timeoutMs: 60_000 });
      for (const side of ['a', 'b'] as const) expect((await page.getByTestId(`answer-${side}`).innerText()).trim().length).toBeGreaterThan(20);
    } finally {
      await browser.close();
    }
  }, 120_000);

  it("lets an independent Socket.IO client watch and vote, and tells a watcher on the other gateway", async () => {
    const [one, two] = await stack.containers('gateway');
    const watcher = await connectSocket(`http://${await stack.address(two!)}:8080`);
    const viewerSocket = await connectSocket(`http://${await stack.address(one!)}:8080`);
    try {
      const updates: StatsUpdate[] = [];
      watcher.on('stats:update', (u) => updates.push(u));
      expect(await watcher.emitWithAck('tool:watch', { tool: 'quiz-solving' })).toMatchObject({ ok: true });
      const created = await ask('Which planet is largest?');
      expect(created.status).toBe(202);
      const viewer = new BattleViewer(viewerSocket, created.body.battleId);
      await viewer.join();
      await viewer.finished(60_000);
      const vote = await postJson(`${stack.url}/api/battles/${created.body.battleId}/vote`, { winner: 'a', voteToken: created.body.voteToken });
      expect(vote.status).toBe(200);
      const update = await waitFor(() => updates.find((u) => u.tool === 'quiz-solving' && u.winRates.some((r) => r.battles > 0)), { what: 'stats:update on the other gateway', timeoutMs: 20_000 });
      expect(update.winRates.reduce((n, r) => n + r.battles, 0)).toBeGreaterThanOrEqual(1);
    } finally {
      watcher.disconnect();
      viewerSocket.disconnect();
    }
  }, 120_000);

  it('moves a viewer whose gateway is killed mid-stream to the other one through nginx, with no gap and no repeat', async () => {
    const created = await ask('Explain photosynthesis step by step, in detail.');
    const follower = new FailoverViewer(created.body.battleId);
    const first = await connectSocket(stack.url);
    await follower.follow(first);
    await waitFor(() => (follower.snapshot?.sides.a.text.length ?? 0) > 0 || (follower.snapshot?.sides.b.text.length ?? 0) > 0, { what: 'the answers streaming', timeoutMs: 30_000 });
    expect(follower.finished).toBe(false);
    const gateways = await stack.containers('gateway');
    const counts = await Promise.all(gateways.map(socketsOn));
    const serving = gateways[counts.indexOf(1)];
    expect(counts.sort()).toEqual([0, 1]);

    await docker('kill', serving!);
    await waitFor(() => !first.connected || undefined, { what: 'the socket to drop', timeoutMs: 15_000 });
    expect(follower.finished).toBe(false);
    // The browser reconnects through the same address; nginx sends it to the gateway alive.
    const second = await waitFor(() => connectSocket(stack.url).catch(() => undefined), { what: 'a new socket through nginx', timeoutMs: 30_000 });
    try {
      await follower.follow(second);
      await waitFor(() => follower.finished || undefined, { what: 'the battle to end', timeoutMs: 90_000 });
      const final = follower.snapshot!;
      for (const side of ['a', 'b'] as const) {
        const answer = final.sides[side].text;
        expect(answer.length).toBeGreaterThan(20);
        const shown = follower.shown[side];
        for (const [i, text] of shown.entries()) {
          expect(answer.startsWith(text)).toBe(true);
          if (i > 0) expect(text.length).toBeGreaterThan(shown[i - 1]!.length);
        }
      }
    } finally {
      second.disconnect();
      first.disconnect();
    }
    // Compose brings the killed gateway back (restart: unless-stopped) or keeps serving with one.
    await stack.compose('up', '-d', '--no-build', '--no-recreate', 'gateway');
    await waitFor(async () => (await stack.containers('gateway')).length === 2 || undefined, { what: 'two gateways again', timeoutMs: 60_000 });
  }, 180_000);

  /** Asks `n` questions at once and follows each; the most battles that were streaming at one moment, and how long all took. */
  async function drain(n: number): Promise<{ peak: number; ms: number }> {
    const started = Date.now();
    const created = await Promise.all(Array.from({ length: n }, (_, i) => ask(`Question ${i} of a crowd: name a prime number.`)));
    const socket = await connectSocket(stack.url);
    try {
      const spans = await Promise.all(
        created.map(async (c) => {
          const viewer = new BattleViewer(socket, c.body.battleId);
          await viewer.join();
          await waitFor(() => viewer.events.some((e) => e.type === 'delta') || viewer.snapshot?.finished || undefined, { what: 'a battle to start', timeoutMs: 180_000 });
          const from = Date.now();
          await viewer.finished(180_000);
          return [from, Date.now()] as const;
        }),
      );
      const peak = Math.max(...spans.map(([from]) => spans.filter(([f, t]) => f <= from && from < t).length));
      return { peak, ms: Date.now() - started };
    } finally {
      socket.disconnect();
    }
  }

  it('runs more battles at once after `--scale worker=4`, so the queue drains faster', async () => {
    // Each worker takes WORKER_CONCURRENCY (2) battles at a time.
    const two = await drain(16);
    expect(two.peak).toBeLessThanOrEqual(4);
    await stack.compose('up', '-d', '--no-build', '--no-recreate', '--scale', 'worker=4', 'worker');
    const workers = await stack.containers('worker');
    expect(workers).toHaveLength(4);
    for (const id of workers) await waitFor(async () => (await docker('inspect', '-f', '{{ .State.Health.Status }}', id)) === 'healthy' || undefined, { what: `worker ${id} healthy`, timeoutMs: 90_000 });
    const four = await drain(16);
    console.log(`deployment: 16 battles drained in ${two.ms} ms with 2 workers (at most ${two.peak} at once), ${four.ms} ms with 4 (at most ${four.peak})`);
    expect(four.peak).toBeGreaterThan(4);
    expect(four.ms).toBeLessThan(two.ms);
  }, 600_000);

  it('keeps history and votes across `down` and `up` with the volumes kept', async () => {
    const created = await ask('Remember me after a restart?');
    const viewerSocket = await connectSocket(stack.url);
    try {
      const viewer = new BattleViewer(viewerSocket, created.body.battleId);
      await viewer.join();
      await viewer.finished(60_000);
    } finally {
      viewerSocket.disconnect();
    }
    expect((await postJson(`${stack.url}/api/battles/${created.body.battleId}/vote`, { winner: 'b', voteToken: created.body.voteToken })).status).toBe(200);
    const before = await getJson<HistoryResponse>(`${stack.url}/api/tools/quiz-solving/history?limit=50`);
    expect(before.body.list.some((b) => b.id === created.body.battleId)).toBe(true);

    await stack.down({ volumes: false });
    expect((await stack.containers('gateway')).length).toBe(0);
    await stack.up();
    const after = await getJson<HistoryResponse>(`${stack.url}/api/tools/quiz-solving/history?limit=50`);
    expect(after.status).toBe(200);
    expect(after.body.list.map((b) => b.id)).toEqual(before.body.list.map((b) => b.id));
    expect(after.body.winRates).toEqual(before.body.winRates);
  }, 400_000);
});
