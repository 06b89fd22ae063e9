/**
 * A campaign's crowd: 50, 200, 500 and 1,000 battles at once (both sides 120 tokens at 30 tokens/s
 * after 200 ms), through a gateway process and worker processes, every battle followed by its own
 * Socket.IO viewer and voted on at the end. Next to each level, its anchor from the same run: the
 * same fake server read directly with the OpenAI SDK, as many streams, in a process of its own;
 * and the same again with the SDK given the worker's `fetch` (`stream-fetch.ts`): the SDK's own
 * parsing over Duet's transport, the part of a worker's CPU per token that is reading the provider.
 * Reports every token's delivery lag, Duet's CPU per delivered token (gateway + workers, from
 * /proc) against the anchor reader's, peak memory per process, and PostgreSQL connection errors.
 * Writes the curve as docs/crowd.svg when it runs two levels or more of one variant each (not with
 * --quick, --before, a list of --flush-ms or of --warmup).
 *
 * `--before <checkout>` also runs that checkout's gateway and workers at each level, right after
 * this one's, against the same anchor: a before/after comparison from one run (no chart then).
 * `--flush-ms 50,25` runs Duet once per fixed wait of a side's text before it is sent with what
 * follows it (`DELTA_FLUSH_MS` and `DELTA_FLUSH_MIN_MS` both set to the value, instead of the wait
 * that follows the worker's load) at each level, against the same anchor: what a shorter wait
 * costs in CPU per token and buys in lag (no chart then either).
 * `--warmup 0,10` runs Duet once per warm-up at each level: that many battles run, watched and voted
 * on before the measured window (default 10, as a campaign meets processes already serving; 0
 * measures the gateway and workers from their start; `--quick` runs cold).
 * `--turns 20`: each visitor asks follow-ups until its battle has that many turns, its viewer
 * following each, then votes; first-token lags of first turns and of follow-ups are reported apart,
 * and by ranges of turn numbers, each next to the same anchor. The anchor asks one-turn questions:
 * a lag counts from the moment the fake server sent the token, after it read the request, so a
 * longer conversation would not move the anchor's figure. Warm-up battles then have one follow-up
 * each; no chart is drawn.
 *
 *   npm run bench -- crowd [--levels 50,200,500,1000] [--workers 1] [--before ../main] [--flush-ms 50,25] [--warmup 0,10] [--turns 20] [--quick]
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { AnchorResult, DuetRun, TurnLoad } from './lib/duet-run.ts';
import { BENCH_WORKERS, processesLine, runAnchor, runDuet, warmupsOf } from './lib/duet-run.ts';
import { spawnFake } from './lib/fake.ts';
import { nodeArgsFromEnv } from '../test/helpers/gateway-process.ts';
import { crowdChart } from './lib/chart.ts';
import { machineLine, pct, round } from './lib/stats.ts';

const { values } = parseArgs({
  options: {
    levels: { type: 'string', default: '50,200,500,1000' },
    workers: { type: 'string', default: String(BENCH_WORKERS) },
    before: { type: 'string' },
    'flush-ms': { type: 'string' },
    warmup: { type: 'string' },
    turns: { type: 'string', default: '1' },
    quick: { type: 'boolean', default: false },
  },
});
const levels = values.quick ? [10] : values.levels.split(',').map(Number);
const workers = Number(values.workers);
/** The workers' delta wait for each run of a level; null: the workers' own default. */
const flushes: Array<number | null> = values['flush-ms'] ? values['flush-ms'].split(',').map(Number) : [null];
const warmups = warmupsOf(values.warmup, values.quick);
const turns = Number(values.turns);
if (!Number.isInteger(turns) || turns < 1 || turns > 50) throw new Error(`--turns: a whole number from 1 to 50 (the gateway's MAX_TURNS at most), not "${values.turns}"`);
const compared = values.before !== undefined || flushes.length > 1 || warmups.length > 1;
const scenario = { text: Array.from({ length: 120 }, (_, i) => `w${i}`).join(' '), ttftMs: 200, tokensPerSecond: 30, stamp: true };

/**
 * The turn numbers read together: the first, every follow-up, then the follow-ups in up to four
 * ranges (2–5, 6–10, 11–15 and 16–20 of 20), to show whether a longer conversation adds lag.
 */
function turnRanges(count: number): Array<[from: number, to: number]> {
  const followUps = count - 1;
  const parts = Math.min(4, followUps);
  const starts = Array.from({ length: parts }, (_, i) => 2 + Math.floor((i * followUps) / parts));
  const ranges = starts.map((from, i): [number, number] => [from, (starts[i + 1] ?? count + 1) - 1]);
  return [[1, 1], [2, count], ...(parts > 1 ? ranges : [])];
}

/** The first-token figures of turns `from`–`to` of every battle, next to the anchor's. */
function turnRow(load: TurnLoad[], anchor: AnchorResult, [from, to]: [number, number]) {
  const picked = load.slice(from - 1, to);
  const of = (key: 'firstLags' | 'firstTextMs' | 'lags' | 'postMs') => picked.flatMap((t) => t[key]);
  const [firstLags, firstTextMs, lags, postMs] = [of('firstLags'), of('firstTextMs'), of('lags'), of('postMs')];
  return {
    from,
    to,
    sides: firstLags.length,
    firstMissed: picked.reduce((n, t) => n + t.firstMissed, 0),
    firstLagP50Ms: round(pct(firstLags, 50)),
    firstLagP99Ms: round(pct(firstLags, 99)),
    overheadP50Ms: round(pct(firstLags, 50) - pct(anchor.firstLags, 50)),
    overheadP99Ms: round(pct(firstLags, 99) - pct(anchor.firstLags, 99)),
    lagP50Ms: round(pct(lags, 50)),
    lagP99Ms: round(pct(lags, 99)),
    postP50Ms: round(pct(postMs, 50)),
    postP99Ms: round(pct(postMs, 99)),
    firstTextP50Ms: round(pct(firstTextMs, 50)),
    firstTextP99Ms: round(pct(firstTextMs, 99)),
  };
}

interface Level {
  battles: number;
  checkout: 'this' | 'before';
  flushMs: number | null;
  warmup: number;
  anchor: AnchorResult;
  /** The same streams read by the SDK given the worker's `fetch`. */
  streamAnchor: AnchorResult;
  duet: DuetRun;
}

const rows: Level[] = [];
for (const battles of levels) {
  const fake = await spawnFake(scenario);
  try {
    const anchor = await runAnchor(fake, battles * 2);
    const streamAnchor = await runAnchor(fake, battles * 2, 'stream');
    const checkouts = values.before ? (['this', 'before'] as const) : (['this'] as const);
    for (const checkout of checkouts) {
      for (const flushMs of flushes) {
        for (const warmup of warmups) {
          // A fixed wait: the shortest and the longest alike.
          const env = flushMs === null ? undefined : { DELTA_FLUSH_MS: String(flushMs), DELTA_FLUSH_MIN_MS: String(flushMs) };
          const duet = await runDuet({ fake, battles, workers, loaders: battles >= 200 ? 2 : 1, root: checkout === 'before' ? values.before : undefined, env, warmup, turns });
          rows.push({ battles, checkout, flushMs, warmup, anchor, streamAnchor, duet });
          if (nodeArgsFromEnv().length) {
            console.log(`profile window (${checkout}, ${battles} battles${flushMs === null ? '' : `, flush ${flushMs} ms`}, warm-up ${warmup}): ${JSON.stringify(duet.window)}`);
          }
        }
      }
    }
  } finally {
    await fake.stop();
  }
}

const figures = rows.map(({ battles, checkout, flushMs, warmup, anchor, streamAnchor, duet }) => ({
  battles,
  checkout,
  flushMs,
  warmup,
  finished: duet.finished,
  voted: duet.voted,
  anchorLagP50Ms: round(pct(anchor.lags, 50)),
  anchorLagP99Ms: round(pct(anchor.lags, 99)),
  lagP50Ms: round(pct(duet.lags, 50)),
  lagP99Ms: round(pct(duet.lags, 99)),
  firstOverheadP50Ms: round(pct(duet.firstLags, 50) - pct(anchor.firstLags, 50)),
  firstOverheadP99Ms: round(pct(duet.firstLags, 99) - pct(anchor.firstLags, 99)),
  firstTextP50Ms: round(pct(duet.firstTextMs, 50)),
  firstTextP99Ms: round(pct(duet.firstTextMs, 99)),
  anchorFirstTextP50Ms: round(pct(anchor.firstTextMs, 50)),
  anchorFirstTextP99Ms: round(pct(anchor.firstTextMs, 99)),
  anchorCpuUsPerToken: round((anchor.cpuMs * 1000) / Math.max(1, anchor.tokens)),
  streamAnchorCpuUsPerToken: round((streamAnchor.cpuMs * 1000) / Math.max(1, streamAnchor.tokens)),
  cpuUsPerToken: round((duet.duetCpuMs * 1000) / Math.max(1, duet.tokens)),
  gatewayCpuUsPerToken: round((duet.gatewayCpuMs * 1000) / Math.max(1, duet.tokens)),
  workersCpuUsPerToken: round((duet.workersCpuMs * 1000) / Math.max(1, duet.tokens)),
  peakRssMb: { gateway: Math.round(duet.peakRssMb.gateway), workers: duet.peakRssMb.workers.map(Math.round) },
  dbConnectionErrors: duet.dbConnectionErrors,
  tokens: duet.tokens,
  postP50Ms: round(pct(duet.postMs, 50)),
  postP99Ms: round(pct(duet.postMs, 99)),
  failures: duet.failures,
  ...(duet.turns
    ? {
        turns: {
          count: turns,
          anchorFirstLagP50Ms: round(pct(anchor.firstLags, 50)),
          anchorFirstLagP99Ms: round(pct(anchor.firstLags, 99)),
          rows: turnRanges(turns).map((range) => turnRow(duet.turns!, anchor, range)),
        },
      }
    : {}),
}));

console.log(`\n${await machineLine()} · ${processesLine(workers)} · 120 tokens per side at 30 tokens/s${turns > 1 ? ` · ${turns} turns a battle` : ''}`);
const label = (f: (typeof figures)[number]) => {
  const notes = [values.before ? f.checkout : null, f.flushMs === null ? null : `flush ${f.flushMs} ms`, warmups.length > 1 ? `warm-up ${f.warmup}` : null].filter(
    (n) => n !== null,
  );
  return notes.length ? `${f.battles} (${notes.join(', ')})` : String(f.battles);
};
console.log('\n| battles | finished / voted | token lag p50 / p99 (ms) | anchor p50 / p99 | first token overhead p50 / p99 | POST p50 / p99 | POST → first text p50 / p99 (anchor: request → first text) | CPU µs per token (gateway + workers) | anchor µs per token | ratio | the SDK with stream-fetch.ts, µs per token | peak RSS gateway / workers (MB) | DB connection errors |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const f of figures) {
  console.log(
    `| ${label(f)} | ${f.finished} / ${f.voted} | ${f.lagP50Ms} / ${f.lagP99Ms} | ${f.anchorLagP50Ms} / ${f.anchorLagP99Ms} | ${f.firstOverheadP50Ms} / ${f.firstOverheadP99Ms} | ${f.postP50Ms} / ${f.postP99Ms} | ${f.firstTextP50Ms} / ${f.firstTextP99Ms} (${f.anchorFirstTextP50Ms} / ${f.anchorFirstTextP99Ms}) | ${f.cpuUsPerToken} (${f.gatewayCpuUsPerToken} + ${f.workersCpuUsPerToken}) | ${f.anchorCpuUsPerToken} | ${round(f.cpuUsPerToken / Math.max(0.1, f.anchorCpuUsPerToken), 2)} | ${f.streamAnchorCpuUsPerToken} | ${f.peakRssMb.gateway} / ${f.peakRssMb.workers.join(', ')} | ${f.dbConnectionErrors} |`,
  );
}
if (turns > 1) {
  console.log('\n| battles | turns | sides measured (in the snapshot at join) | first token lag p50 / p99 (ms) | anchor p50 / p99 | **Duet − anchor** p50 / p99 | token lag p50 / p99 | POST p50 / p99 | POST → first text p50 / p99 |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const f of figures) {
    for (const r of f.turns?.rows ?? []) {
      console.log(
        `| ${label(f)} | ${r.from === r.to ? r.from : `${r.from}–${r.to}`} | ${r.sides} (${r.firstMissed}) | ${r.firstLagP50Ms} / ${r.firstLagP99Ms} | ${f.turns!.anchorFirstLagP50Ms} / ${f.turns!.anchorFirstLagP99Ms} | **${r.overheadP50Ms} / ${r.overheadP99Ms}** | ${r.lagP50Ms} / ${r.lagP99Ms} | ${r.postP50Ms} / ${r.postP99Ms} | ${r.firstTextP50Ms} / ${r.firstTextP99Ms} |`,
      );
    }
  }
}
for (const f of figures.filter((l) => Object.keys(l.failures).length > 0)) {
  console.log(`${f.battles} battles: ${f.battles - f.finished} not finished; refusals and failures: ${JSON.stringify(f.failures)}`);
}
// The curve only: a run of one level, of several variants per level, or of follow-ups, leaves the chart alone.
if (!values.quick && !compared && turns === 1 && levels.length > 1) {
  const out = fileURLToPath(new URL('../docs/crowd.svg', import.meta.url));
  writeFileSync(out, crowdChart(figures));
  console.log(`\nchart: docs/crowd.svg`);
}
console.log(JSON.stringify({ workers, levels: figures }));
process.exit(0);
