/**
 * What Duet adds to the first token: `--battles` battles at once (default 200) through a gateway
 * and worker processes, every token stamped by the fake provider when it leaves and read back in
 * a Socket.IO viewer, next to the anchor from the same run: the same fake server read directly
 * with the OpenAI SDK (two streams per battle). Overhead = Duet's first-token lag − the anchor's.
 *
 * `--before <checkout>` also runs that checkout's gateway and workers, right after this one's,
 * against the same anchor: a before/after comparison from one run. `--warmup 0,10` runs Duet once
 * per warm-up: that many battles run, watched and voted on before the measured battles (default
 * 10, as a campaign meets processes already serving; 0: measured from the processes' start;
 * `--quick` runs cold).
 *
 *   npm run bench -- overhead [--battles 200] [--workers 1] [--before ../main] [--warmup 0,10] [--quick]
 */
import { parseArgs } from 'node:util';
import { nodeArgsFromEnv } from '../test/helpers/gateway-process.ts';
import type { DuetRun } from './lib/duet-run.ts';
import { BENCH_WORKERS, processesLine, runAnchor, runDuet, warmupsOf } from './lib/duet-run.ts';
import { spawnFake } from './lib/fake.ts';
import { machineLine, pct, round } from './lib/stats.ts';

const { values } = parseArgs({
  options: {
    battles: { type: 'string', default: '200' },
    workers: { type: 'string', default: String(BENCH_WORKERS) },
    before: { type: 'string' },
    warmup: { type: 'string' },
    quick: { type: 'boolean', default: false },
  },
});
const battles = values.quick ? 10 : Number(values.battles);
const workers = Number(values.workers);
const scenario = { text: Array.from({ length: 120 }, (_, i) => `w${i}`).join(' '), ttftMs: 200, tokensPerSecond: 30, stamp: true };

const fake = await spawnFake(scenario);
const anchor = await runAnchor(fake, battles * 2);
const warmups = warmupsOf(values.warmup, values.quick);
const runs: Array<{ checkout: 'this' | 'before'; warmup: number; duet: DuetRun }> = [];
for (const checkout of values.before ? (['this', 'before'] as const) : (['this'] as const)) {
  for (const warmup of warmups) {
    const duet = await runDuet({ fake, battles, workers, loaders: battles > 100 ? 2 : 1, root: checkout === 'before' ? values.before : undefined, warmup });
    runs.push({ checkout, warmup, duet });
    if (nodeArgsFromEnv().length) console.log(`profile window (${checkout}, warm-up ${warmup}): ${JSON.stringify(duet.window)}`);
  }
}
await fake.stop();

const figuresOf = (duet: DuetRun) => ({
  battles,
  workers,
  anchorFirstP50Ms: round(pct(anchor.firstLags, 50)),
  anchorFirstP99Ms: round(pct(anchor.firstLags, 99)),
  duetFirstP50Ms: round(pct(duet.firstLags, 50)),
  duetFirstP99Ms: round(pct(duet.firstLags, 99)),
  overheadP50Ms: round(pct(duet.firstLags, 50) - pct(anchor.firstLags, 50)),
  overheadP99Ms: round(pct(duet.firstLags, 99) - pct(anchor.firstLags, 99)),
  firstMeasured: duet.firstLags.length,
  firstMissed: duet.firstMissed,
  finished: duet.finished,
  cpuMsPerBattle: round(duet.duetCpuMs / battles, 2),
});
const all = runs.map((r) => ({ checkout: r.checkout, warmup: r.warmup, ...figuresOf(r.duet) }));
const figures = all[0]!;
const name = ({ checkout, warmup }: { checkout: string; warmup: number }) => {
  const notes = [values.before ? (checkout === 'this' ? 'this checkout' : values.before) : null, warmups.length > 1 ? `warm-up ${warmup}` : null].filter((n) => n !== null);
  return notes.length ? ` (${notes.join(', ')})` : '';
};
console.log(`\n${await machineLine()} · ${battles} battles at once, ${processesLine(workers)}`);
console.log('\n| first token: delivery lag (ms) | p50 | p99 |\n|---|---|---|');
console.log(`| anchor: the fake server read directly (${battles * 2} streams) | ${figures.anchorFirstP50Ms} | ${figures.anchorFirstP99Ms} |`);
for (const f of all) {
  console.log(`| Duet${name(f)}: fake server → worker → Redis → gateway → Socket.IO viewer | ${f.duetFirstP50Ms} | ${f.duetFirstP99Ms} |`);
  console.log(`| **overhead**${name(f)} (Duet − anchor) | **${f.overheadP50Ms}** | **${f.overheadP99Ms}** |`);
}
for (const f of all) {
  console.log(`\n${name(f).trim() || 'Duet'}: ${f.finished}/${battles} battles finished; first tokens measured on ${f.firstMeasured} sides (${f.firstMissed} already in the snapshot at join); CPU ${f.cpuMsPerBattle} ms per battle (gateway + workers)`);
}
const before = all.find((f) => f.checkout === 'before');
console.log(JSON.stringify({ ...figures, ...(before ? { before } : {}), ...(all.length > 1 ? { runs: all } : {}) }));
process.exit(0);
