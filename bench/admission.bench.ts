/**
 * What a paid campaign's admission costs a question, and what the challenge costs a visitor.
 *
 * 1. `POST /api/battles` at `--rate` posts a second (open loop, 1,000 addresses) against two gateway
 *    processes of the same checkout, alternately, round after round: one with all of it on (the
 *    proof-of-work challenge verified and spent once, the visitor's daily quota counted, a day's
 *    budget to reserve against, the models' breaker read) and one with all of it off
 *    (`BOT_CHALLENGE=off`, no quota, no budget, `BREAKER=off`). The anchor is the second. The
 *    ledger's reservation runs for every battle in both (a budget set during the day must count the
 *    battles already under way), so its Redis script is also timed alone, from this process.
 *    The gateway with challenges on issues them at the lowest difficulty: checking a solution is two
 *    HMACs whatever the difficulty, and the load process must solve thousands before it starts.
 *    No worker runs: the battles stay queued (`QUEUE_MAX_WAITING=0`).
 * 2. The challenge as the page solves it, in Debian's Chromium: the tool page fetches a challenge
 *    at the default difficulty and solves it in Web Workers; the solve's User Timing entry
 *    (`duet:challenge-solve`) is read, page load after page load, with the browser's CPU slowed
 *    down 4× as a phone's stand-in and not slowed down as the anchor.
 *
 * `--build` rebuilds the client first (otherwise only when client/dist is missing).
 *
 *   npm run bench -- admission [--rate 200] [--seconds 10] [--rounds 4] [--solves 20] [--build] [--quick]
 */
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { redisKeys } from '@duet/contracts';
import { budgetDay, createBudgetLedger } from '@duet/platform/budget-ledger';
import { Redis } from 'ioredis';
import type { Page } from 'playwright-core';
import { launchBrowser } from '../test/e2e/browser.ts';
import { startGatewayProcess } from '../test/helpers/gateway-process.ts';
import type { GatewayProcess } from '../test/helpers/gateway-process.ts';
import { TEST_REDIS_URL } from '../test/helpers/services.ts';
import { ensureClientBuilt } from './landing-bundle.ts';
import { runChild } from './lib/child.ts';
import { createCpuCgroup, processWith } from './lib/cpu-cgroup.ts';
import { machineLine, pct, round } from './lib/stats.ts';

const { values } = parseArgs({
  options: {
    rate: { type: 'string', default: '200' },
    seconds: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '4' },
    solves: { type: 'string', default: '20' },
    build: { type: 'boolean', default: false },
    quick: { type: 'boolean', default: false },
  },
});
const RATE = values.quick ? 50 : Number(values.rate);
const SECONDS = values.quick ? 2 : Number(values.seconds);
const ROUNDS = values.quick ? 1 : Number(values.rounds);
const SOLVES = values.quick ? 2 : Number(values.solves);
const ROOT = fileURLToPath(new URL('..', import.meta.url));

// Both gateways: the seed models at their list prices (no provider is ever called), every address
// its own, no per-minute limit, no queue bound.
const COMMON = {
  OPENAI_API_KEY: 'bench-key',
  ANTHROPIC_API_KEY: 'bench-key',
  TRUST_PROXY: 'loopback',
  QUEUE_MAX_WAITING: '0',
  RATE_LIMIT_BATTLES_PER_MINUTE: '0',
};
const ON = {
  ...COMMON,
  BOT_CHALLENGE: 'pow',
  BOT_CHALLENGE_COST: '1',
  BOT_CHALLENGE_DIFFICULTY: '2',
  BOT_CHALLENGE_HOT_PER_MINUTE: '0',
  QUOTA_ANON_PER_DAY: '1000000',
  QUOTA_USER_PER_DAY: '1000000',
  BUDGET_USD_PER_DAY: '1000000',
  BREAKER: 'on',
};
const OFF = { ...COMMON, BOT_CHALLENGE: 'off', QUOTA_ANON_PER_DAY: '0', QUOTA_USER_PER_DAY: '0', BUDGET_USD_PER_DAY: '0', BREAKER: 'off' };

interface LoadResult {
  postMs: number[];
  statuses: Record<string, number>;
  lateMs: number;
}

async function admission() {
  const gateways: Record<'on' | 'off', GatewayProcess> = {
    on: await startGatewayProcess({ env: ON }),
    off: await startGatewayProcess({ env: OFF }),
  };
  const posts: Record<'on' | 'off', number[]> = { on: [], off: [] };
  const statuses: Record<'on' | 'off', Record<string, number>> = { on: {}, off: {} };
  const rounds: Record<'on' | 'off', number[]> = { on: [], off: [] };
  let lateMs = 0;
  const load = (which: 'on' | 'off', seconds: number) =>
    runChild<LoadResult>('bench/lib/admission-load.ts', { GATEWAY_URL: gateways[which].url, RATE: String(RATE), SECONDS: String(seconds), CHALLENGES: which === 'on' ? '1' : '0' }).result;
  try {
    // Unmeasured first: both gateways warmed up (JIT, pools, connections) before either is timed.
    for (const which of ['off', 'on'] as const) await load(which, values.quick ? 1 : 3);
    for (let turn = 0; turn < ROUNDS; turn++) {
      // Each round in the other order: neither gateway always runs first.
      for (const which of turn % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
        const r = await load(which, SECONDS);
        posts[which].push(...r.postMs);
        rounds[which].push(round(pct(r.postMs, 99), 1));
        for (const [status, n] of Object.entries(r.statuses)) statuses[which][status] = (statuses[which][status] ?? 0) + n;
        lateMs = Math.max(lateMs, r.lateMs);
      }
    }
  } finally {
    await Promise.all([gateways.on.stop(), gateways.off.stop()]);
  }
  const figures = (xs: number[]) => ({ posts: xs.length, p50Ms: round(pct(xs, 50), 2), p99Ms: round(pct(xs, 99), 2) });
  return {
    on: { ...figures(posts.on), roundsP99Ms: rounds.on, statuses: statuses.on },
    off: { ...figures(posts.off), roundsP99Ms: rounds.off, statuses: statuses.off },
    lateMs: round(lateMs, 1),
  };
}

/** The ledger's reservation alone: one Redis script a battle, reserved then closed, one after another. */
async function reservation(count: number) {
  const redis = new Redis(TEST_REDIS_URL, { lazyConnect: false });
  const keys = redisKeys(`bench-${randomUUID().slice(0, 8)}`);
  const ledger = createBudgetLedger(redis, keys, async () => ({}));
  const day = budgetDay(new Date(), 'UTC');
  const side = (model: string) => ({ model, amountMicroUsd: 40_000, modelLimitMicroUsd: 0 });
  const ms: number[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const id = randomUUID();
      const t0 = performance.now();
      await ledger.reserve(day, id, 1_000_000_000_000, { a: side('gpt'), b: side('claude') });
      ms.push(performance.now() - t0);
      await ledger.close(day, id, {});
    }
    await redis.del(keys.budgetTotals(day), keys.budgetOpen(day));
  } finally {
    redis.disconnect();
  }
  return { reserves: count, p50Ms: round(pct(ms, 50), 3), p99Ms: round(pct(ms, 99), 3) };
}

/**
 * The challenge as the tool page solves it: its User Timing entry, page load after page load, with
 * the browser's CPU slowed down 4× and not at all, alternately. DevTools' CPU throttling reaches
 * neither Web Workers ("only supported for pages") nor WebCrypto's threads, where the solve runs:
 * the whole browser runs in a CPU cgroup instead, allowed a quarter of each core's time. Without
 * access to cgroups it falls back to DevTools' throttling of the page, and says so.
 */
async function solves(count: number) {
  const gateway = await startGatewayProcess({ env: { CLIENT_DIST: ensureClientBuilt(ROOT, values.build), OPENAI_API_KEY: 'bench-key', ANTHROPIC_API_KEY: 'bench-key', BOT_CHALLENGE: 'pow' } });
  const marker = `--duet-bench=${randomUUID()}`;
  const browser = await launchBrowser([marker]);
  const cgroup = createCpuCgroup();
  const browserPid = processWith(marker);
  const results: Record<'1x' | '4x', number[]> = { '1x': [], '4x': [] };
  try {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    for (let i = 0; i < count; i++) {
      for (const rate of [1, 4] as const) {
        const page = await context.newPage();
        if (cgroup && browserPid) {
          cgroup.adopt(browserPid);
          cgroup.slowDown(rate);
        } else {
          await (await context.newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate });
        }
        await page.goto(`${gateway.url}/anything-question-duet`);
        results[`${rate}x`].push(await solveMs(page));
        await page.close();
      }
    }
    await context.close();
  } finally {
    await browser.close();
    cgroup?.remove();
    await gateway.stop();
  }
  const figures = (xs: number[]) => ({ solves: xs.length, p50Ms: Math.round(pct(xs, 50)), p95Ms: Math.round(pct(xs, 95)) });
  return { slowedBy: cgroup && browserPid ? 'cgroup' : 'devtools (page only)', throttled4x: figures(results['4x']), unthrottled: figures(results['1x']) };
}

/** Waits for the page's first challenge solve and answers its duration. */
async function solveMs(page: Page): Promise<number> {
  const handle = await page.waitForFunction(() => performance.getEntriesByName('duet:challenge-solve')[0]?.duration, undefined, { timeout: 120_000 });
  return Number(await handle.jsonValue());
}

console.log(await machineLine());
const [posted, reserved, solved] = [await admission(), await reservation(values.quick ? 200 : 5_000), await solves(SOLVES)];
const added = { p50Ms: round(posted.on.p50Ms - posted.off.p50Ms, 2), p99Ms: round(posted.on.p99Ms - posted.off.p99Ms, 2) };
console.log(`\nPOST /api/battles at ${RATE}/s for ${SECONDS} s, ${ROUNDS} round(s) each, alternating (sender at most ${posted.lateMs} ms behind schedule)`);
console.log('gateway                                  posts    p50 ms   p99 ms   statuses');
console.log(`all on (challenge, quota, budget, breaker) ${String(posted.on.posts).padStart(6)} ${String(posted.on.p50Ms).padStart(8)} ${String(posted.on.p99Ms).padStart(8)}   ${JSON.stringify(posted.on.statuses)}`);
console.log(`anchor: all off                            ${String(posted.off.posts).padStart(6)} ${String(posted.off.p50Ms).padStart(8)} ${String(posted.off.p99Ms).padStart(8)}   ${JSON.stringify(posted.off.statuses)}`);
console.log(`added                                             ${String(added.p50Ms).padStart(8)} ${String(added.p99Ms).padStart(8)}   (target: p99 at most 2 ms)`);
console.log(`p99 per round: all on ${posted.on.roundsP99Ms.join(' / ')} ms; all off ${posted.off.roundsP99Ms.join(' / ')} ms`);
console.log(`the ledger's reservation alone (in both): p50 ${reserved.p50Ms} ms, p99 ${reserved.p99Ms} ms over ${reserved.reserves}`);
console.log(`\nchallenge solve in Chromium at the default difficulty, ${SOLVES} page loads each`);
console.log(`CPU slowed down 4× (${solved.slowedBy}): median ${solved.throttled4x.p50Ms} ms, p95 ${solved.throttled4x.p95Ms} ms`);
console.log(`anchor, unthrottled: median ${solved.unthrottled.p50Ms} ms, p95 ${solved.unthrottled.p95Ms} ms`);
console.log(JSON.stringify({ rate: RATE, seconds: SECONDS, rounds: ROUNDS, admission: { ...posted, added }, reservation: reserved, solve: solved }));
