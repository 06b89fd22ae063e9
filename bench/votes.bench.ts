/**
 * Votes and reads at campaign scale. Seeds a database with `--stored` votes (default 1,000,000:
 * battles with both answers and a counted vote, over the 13 tools), starts a gateway process,
 * and from load processes of their own:
 *
 * 1. votes through `POST /api/battles/:id/vote` on fresh finished battles, `--concurrency` at once
 *    for `--seconds`, next to the anchor from the same run: a bare `INSERT` loop into a table on
 *    the same PostgreSQL, the same concurrency over as many connections as the gateway's pool;
 * 2. reads, `--read-concurrency` at once for `--read-seconds` each: the history's first page (with
 *    win rates), a page deep in the history (with a cursor), and the specification's list, next to
 *    the anchor of a bare primary-key `SELECT`; then the same reads from a gateway process started
 *    with `HISTORY_CACHE_MB=0` on the same database (every page rendered for every read: what a
 *    read costs when a vote on its tool has just changed the page).
 *
 * For each it prints the rate, p50 and p99, and where the two cores went (gateway, load,
 * PostgreSQL, everything else). Rate limits are off; `--daily-cap` sets VOTE_DAILY_CAP (default 0,
 * as shipped).
 *
 * `--one-tool` puts every fresh battle on one tool (a campaign on one activity: every vote adds to
 * the same counters); `--before DIR` runs the same vote load and reads, in the same run, against the gateway
 * of another checkout of Duet (e.g. a worktree of an earlier commit), seeded alike.
 *
 * `--gateways N` runs N gateway processes on the same database and Redis, as behind a load balancer
 * (the load spreads its calls over them; the gateway CPU column is their sum).
 *
 *   npm run bench -- votes [--stored 1000000] [--concurrency 32] [--seconds 20] [--read-concurrency 8] [--read-seconds 10] [--daily-cap 0] [--one-tool] [--gateways 1] [--before DIR] [--quick]
 */
import { parseArgs } from 'node:util';
import { PRODUCT, TOOLS } from '@duet/contracts';
import pg from 'pg';
import { loadGatewayConfig } from '../server/src/config.ts';
import { startGatewayProcess } from '../test/helpers/gateway-process.ts';
import { withServerProcess } from './lib/child.ts';
import type { LoopResult } from './lib/closed-loop.ts';
import type { CpuSplit } from './lib/cpu-window.ts';
import { runMeasured } from './lib/cpu-window.ts';
import { machineLine, pct, round } from './lib/stats.ts';
import { seedVotes } from './lib/vote-seed.ts';

/** What `read-load.ts` prints. */
interface ReadResult extends LoopResult {
  bytesPerCall: number;
}

interface ReadMeasured {
  result: ReadResult;
  cpu: CpuSplit;
}

interface Measured {
  result: LoopResult;
  cpu: CpuSplit;
}

const { values } = parseArgs({
  options: {
    stored: { type: 'string', default: '1000000' },
    concurrency: { type: 'string', default: '32' },
    seconds: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '3' },
    'read-concurrency': { type: 'string', default: '1,8' },
    'read-seconds': { type: 'string', default: '10' },
    'daily-cap': { type: 'string', default: '0' },
    'log-level': { type: 'string', default: 'info' },
    'one-tool': { type: 'boolean', default: false },
    gateways: { type: 'string', default: '1' },
    before: { type: 'string' },
    quick: { type: 'boolean', default: false },
  },
});
const quick = values.quick;
const stored = quick ? 20_000 : Number(values.stored);
const concurrency = quick ? 8 : Number(values.concurrency);
const voteMs = (quick ? 2 : Number(values.seconds)) * 1000;
const warmupMs = (quick ? 1 : Number(values.warmup)) * 1000;
const readConcurrencies = quick ? [4] : values['read-concurrency'].split(',').map(Number);
const readMs = (quick ? 1 : Number(values['read-seconds'])) * 1000;
// More fresh battles than the fastest vote loop could use: running out would end the window early.
const fresh = Math.max(10_000, Math.ceil(((warmupMs + voteMs) / 1000) * 6_000));

const gatewayCount = Number(values.gateways);
if (!Number.isInteger(gatewayCount) || gatewayCount < 1) throw new Error(`--gateways: a whole number of at least 1, not "${values.gateways}"`);
const gatewayEnv = { LOG_LEVEL: values['log-level'], TRUST_PROXY: 'loopback', VOTE_DAILY_CAP: values['daily-cap'] };
const gateways = await startGateways();
const gateway = gateways.first;
const freshTools = values['one-tool'] ? [TOOLS[TOOLS.length - 1]!.slug] : undefined;
const pool = loadGatewayConfig(gateway.env).dbPoolSize;
const client = new pg.Client({ connectionString: gateway.db.url });
await client.connect();
try {
  console.log(`seeding ${stored.toLocaleString('en')} stored votes and ${fresh.toLocaleString('en')} fresh battles…`);
  await seedVotes(client, { stored, fresh, freshTools, onStep: (step, ms) => console.log(`  ${step}: ${(ms / 1000).toFixed(1)} s`) });
  await client.query('CREATE TABLE bench_insert_anchor (id bigserial PRIMARY KEY, battle_id uuid NOT NULL, winner text NOT NULL, created_at timestamptz NOT NULL DEFAULT now())');

  const sqlAnchor = (mode: 'insert' | 'select', c: number, ms: number) =>
    runMeasured<LoopResult>('bench/lib/sql-anchor.ts', loop({ MODE: mode, DATABASE_URL: gateway.db.url, POOL: String(pool), CONCURRENCY: String(c), STORED: String(stored) }, ms), 0);

  // Votes.
  const insertAnchor = await sqlAnchor('insert', concurrency, voteMs);
  const httpAnchor = await withHttpInsertAnchor(gateway.db.url, pool, voteLoad);
  const votes = await voteLoad(gateways.urls, gateways.pids);
  if (votes.result.exhausted) throw new Error('the vote load ran out of fresh battles: raise the number seeded');
  const check = await client.query<{ voted: number; counted: number; counters: number }>(
    `SELECT (SELECT count(*)::int FROM votes) - $1::int AS voted, (SELECT count(*)::int FROM votes WHERE counted) AS counted,
            (SELECT sum(battles)::int FROM model_stats) AS counters`,
    [stored],
  );
  const consistent = check.rows[0]!.counters === 2 * check.rows[0]!.counted;

  // Reads, with the stored votes (and the new ones) in place.
  const readAnchors: Measured[] = [];
  for (const c of readConcurrencies) readAnchors.push(await sqlAnchor('select', c, readMs));
  const ownReads = await readsOn(gateways.urls, gateways.pids, client);
  const uncached = await startGatewayProcess({ env: { ...gatewayEnv, HISTORY_CACHE_MB: '0' }, joining: gateway });
  const uncachedReads = await readsOn(uncached.url, [uncached.child.pid!], client).finally(() => uncached.stop());
  const readRounds = readConcurrencies.map((c, i) => ({ concurrency: c, anchor: readAnchors[i]!, runs: ownReads[i]!, uncached: uncachedReads[i]! }));
  // The other checkout last, on a database of its own seeded alike: its votes, then its reads.
  const before = values.before
    ? await onCheckout(values.before, async (url, pid, c) => ({ votes: await voteLoad(url, pid), reads: await readsOn(url, pid, c) }))
    : null;

  const fig = (r: LoopResult) => ({ perSecond: round(r.perSecond, 0), p50Ms: round(pct(r.latenciesMs, 50), 2), p99Ms: round(pct(r.latenciesMs, 99), 2), errors: Object.values(r.failures).reduce((n, k) => n + k, 0) });
  const figures = {
    stored,
    concurrency,
    voteSeconds: voteMs / 1000,
    readConcurrencies,
    readSeconds: readMs / 1000,
    dailyCap: Number(values['daily-cap']),
    pool,
    gateways: gatewayCount,
    insertAnchor: { ...fig(insertAnchor.result), cpu: insertAnchor.cpu },
    httpInsertAnchor: { ...fig(httpAnchor.result), cpu: httpAnchor.cpu },
    oneTool: values['one-tool'],
    votes: { ...fig(votes.result), cpu: votes.cpu, failures: votes.result.failures },
    votesBefore: before ? { checkout: values.before, ...fig(before.votes.result), cpu: before.votes.cpu, failures: before.votes.result.failures } : null,
    consistent,
    reads: readRounds.map((r) => ({
      concurrency: r.concurrency,
      selectAnchor: { ...fig(r.anchor.result), cpu: r.anchor.cpu },
      runs: r.runs.map(({ name, run }) => ({ name, ...fig(run.result), bytesPerRead: run.result.bytesPerCall, cpu: run.cpu, failures: run.result.failures })),
      uncached: r.uncached.map(({ name, run }) => ({ name, ...fig(run.result), cpu: run.cpu, failures: run.result.failures })),
    })),
    readsBefore: before
      ? readConcurrencies.map((c, i) => ({ concurrency: c, runs: before.reads[i]!.map(({ name, run }) => ({ name, ...fig(run.result), cpu: run.cpu, failures: run.result.failures })) }))
      : null,
  };

  const row = (name: string, f: ReturnType<typeof fig>, cpu: CpuSplit) =>
    `| ${name} | ${f.perSecond.toLocaleString('en')} | ${f.p50Ms} | ${f.p99Ms} | ${f.errors} | ${cpu.gateway} | ${cpu.load} | ${cpu.postgres} | ${cpu.other} |`;
  const head = '| per second | p50 ms | p99 ms | errors | gateway | load | PostgreSQL | other |\n|---|---|---|---|---|---|---|---|---|';
  console.log(`\n${await machineLine()} · ${stored.toLocaleString('en')} votes stored · ${gatewayCount} gateway process${gatewayCount === 1 ? '' : 'es'}, pool ${pool} each · daily cap ${figures.dailyCap || 'off'} · new votes on ${freshTools ? 'one tool' : 'all 13 tools'}`);
  console.log(`CPU columns: cores used over the measured window (2 = both cores busy).\n`);
  console.log(`| votes, ${concurrency} at once for ${voteMs / 1000} s ${head}`);
  console.log(row('anchor: bare `INSERT` loop, same PostgreSQL', figures.insertAnchor, insertAnchor.cpu));
  console.log(row('anchor: bare `node:http` server, one `INSERT` per POST', figures.httpInsertAnchor, httpAnchor.cpu));
  console.log(row('Duet: `POST /api/battles/:id/vote`', figures.votes, votes.cpu));
  if (before) console.log(row(`Duet before (${values.before}): the same load`, fig(before.votes.result), before.votes.cpu));
  console.log(`\nDuet/anchor: ${round((figures.votes.perSecond / Math.max(1, figures.insertAnchor.perSecond)) * 100, 0)} % of the anchor's rate; counters match the counted votes: ${consistent ? 'yes' : 'NO'}`);
  if (figures.votes.errors) console.log(`vote failures: ${JSON.stringify(votes.result.failures)}`);
  readRounds.forEach((r, i) => {
    console.log(`\n| reads, ${r.concurrency} at once for ${readMs / 1000} s each ${head}`);
    console.log(row('anchor: bare primary-key `SELECT`, same PostgreSQL', fig(r.anchor.result), r.anchor.cpu));
    for (const { name, run } of r.runs) console.log(row(name, fig(run.result), run.cpu));
    for (const { name, run } of r.uncached) console.log(row(`HISTORY_CACHE_MB=0: ${name}`, fig(run.result), run.cpu));
    for (const { name, run } of before?.reads[i] ?? []) console.log(row(`before: ${name}`, fig(run.result), run.cpu));
    const kb = (runs: typeof r.runs) => runs.map(({ run }) => round(run.result.bytesPerCall / 1024)).join(' / ');
    console.log(`\nKB on the wire per read (the rows in order): ${kb(r.runs)}${before ? `; before: ${kb(before.reads[i]!)}` : ''}`);
  });
  console.log(JSON.stringify(figures));
} finally {
  await client.end();
  await gateways.stop();
}
process.exit(0);

/**
 * `--gateways` gateway processes of checkout `root` on one database and Redis prefix, as behind a
 * load balancer: the load sends call i to gateway i mod n.
 */
async function startGateways(root?: string) {
  const first = await startGatewayProcess({ root, env: gatewayEnv });
  const all = [first];
  /** The joiners first (all of them, even if one fails to stop), then the owner of the database and prefix. */
  const stopAll = async () => {
    const joiners = await Promise.allSettled(all.slice(1).map((g) => g.stop()));
    await first.stop();
    const failed = joiners.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  };
  try {
    while (all.length < gatewayCount) all.push(await startGatewayProcess({ root, env: gatewayEnv, joining: first }));
  } catch (err) {
    await stopAll();
    throw err;
  }
  return {
    first,
    urls: all.map((g) => g.url).join(','),
    pids: all.map((g) => g.child.pid!),
    stop: stopAll,
  };
}

function loop(extra: Record<string, string>, ms: number): Record<string, string> {
  return { WARMUP_MS: String(warmupMs), DURATION_MS: String(ms), ...extra };
}

/** The vote load against the gateways at `urls` (comma-separated; processes `pids`). */
function voteLoad(urls: string, pids: number | readonly number[]): Promise<Measured> {
  return runMeasured<LoopResult>('bench/lib/vote-load.ts', loop({ GATEWAY_URL: urls, CONCURRENCY: String(concurrency), FROM: '1', TO: String(fresh) }, voteMs), pids);
}

/** The three reads at each read concurrency against the gateways at `urls`, whose database `c` holds. */
async function readsOn(urls: string, pids: readonly number[], c: pg.Client): Promise<Array<Array<{ name: string; run: ReadMeasured }>>> {
  const cursors: string[] = [];
  for (const t of TOOLS) {
    const { rows } = await c.query<{ voted_at: string; battle_id: string }>(
      `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') || '+00' AS voted_at, battle_id
         FROM votes WHERE tool = $1 ORDER BY created_at DESC, battle_id DESC OFFSET $2 LIMIT 1`,
      [t.slug, Math.floor(stored / TOOLS.length / 2)],
    );
    const row = rows[0]!;
    cursors.push(`/api/tools/${t.slug}/history?cursor=${Buffer.from(JSON.stringify([row.voted_at, row.battle_id])).toString('base64url')}`);
  }
  const reads: Array<[string, string[]]> = [
    ['GET /api/tools/:slug/history (first page, with win rates)', TOOLS.map((t) => `/api/tools/${t.slug}/history`)],
    ['GET /api/tools/:slug/history?cursor= (a page halfway down)', cursors],
    [`GET /api/v2/user/${PRODUCT}/list/:id`, TOOLS.map((t) => `/api/v2/user/${PRODUCT}/list/${t.slug}`)],
  ];
  const rounds: Array<Array<{ name: string; run: ReadMeasured }>> = [];
  for (const rc of readConcurrencies) {
    const runs: Array<{ name: string; run: ReadMeasured }> = [];
    for (const [name, paths] of reads) {
      runs.push({ name, run: await runMeasured<ReadResult>('bench/lib/read-load.ts', loop({ GATEWAY_URL: urls, CONCURRENCY: String(rc), PATHS: JSON.stringify(paths) }, readMs), pids) });
    }
    rounds.push(runs);
  }
  return rounds;
}

/** Runs `fn` against the gateways of checkout `root`, on a database of their own seeded as this run's. */
async function onCheckout<T>(root: string, fn: (urls: string, pids: readonly number[], c: pg.Client) => Promise<T>): Promise<T> {
  const old = await startGateways(root);
  const c = new pg.Client({ connectionString: old.first.db.url });
  try {
    await c.connect();
    await seedVotes(c, { stored, fresh, freshTools });
    return await fn(old.urls, old.pids, c);
  } finally {
    await c.end();
    await old.stop();
  }
}

/** Runs `fn` against the bare HTTP + INSERT anchor server (a process of its own), then stops it. */
function withHttpInsertAnchor<T>(databaseUrl: string, poolSize: number, fn: (url: string, pid: number) => Promise<T>): Promise<T> {
  return withServerProcess('bench/lib/http-insert-anchor.ts', { DATABASE_URL: databaseUrl, POOL: String(poolSize) }, fn);
}
