/**
 * What Duet adds to the first token: `--battles` battles at once (default 200) through a gateway
 * and worker processes, every token stamped by the fake provider when it leaves and read back in
 * a Socket.IO viewer, next to the anchor from the same run: the same fake server read directly
 * with the OpenAI SDK (two streams per battle). Overhead = Duet's first-token lag − the anchor's.
 *
 * `--before <checkout>` also runs that checkout's gateway and workers, right after this one's,
 * against the same anchor: a before/after comparison from one run.
 *
 *   npm run bench -- overhead [--battles 200] [--workers 2] [--before ../main] [--quick]
 */
import { parseArgs } from 'node:util';
import { nodeArgsFromEnv } from '../test/helpers/gateway-process.ts';
import type { DuetRun } from './lib/duet-run.ts';
import { runAnchor, runDuet } from './lib/duet-run.ts';
import { spawnFake } from './lib/fake.ts';
import { machineLine, pct, round } from './lib/stats.ts';

const { values } = parseArgs({
  options: {
    battles: { type: 'string', default: '200' },
    workers: { type: 'string', default: '2' },
    before: { type: 'string' },
    quick: { type: 'boolean', default: false },
  },
});
const battles = values.quick ? 10 : Number(values.battles);
const workers = Number(values.workers);
const scenario = { text: Array.from({ length: 120 }, (_, i) => `w${i}`).join(' '), ttftMs: 200, tokensPerSecond: 30, stamp: true };

const fake = await spawnFake(scenario);
const anchor = await runAnchor(fake, battles * 2);
const runs: Array<{ checkout: 'this' | 'before'; duet: DuetRun }> = [];
for (const checkout of values.before ? (['this', 'before'] as const) : (['this'] as const)) {
  const duet = await runDuet({ fake, battles, workers, loaders: battles > 100 ? 2 : 1, root: checkout === 'before' ? values.before : undefined });
  runs.push({ checkout, duet });
  if (nodeArgsFromEnv().length) console.log(`profile window (${checkout}): ${JSON.stringify(duet.window)}`);
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
const all = runs.map((r) => ({ checkout: r.checkout, ...figuresOf(r.duet) }));
const figures = all[0]!;
const name = (checkout: string) => (values.before ? ` (${checkout === 'this' ? 'this checkout' : values.before})` : '');
console.log(`\n${await machineLine()} · ${battles} battles at once, 1 gateway + ${workers} workers`);
console.log('\n| first token: delivery lag (ms) | p50 | p99 |\n|---|---|---|');
console.log(`| anchor: the fake server read directly (${battles * 2} streams) | ${figures.anchorFirstP50Ms} | ${figures.anchorFirstP99Ms} |`);
for (const f of all) {
  console.log(`| Duet${name(f.checkout)}: fake server → worker → Redis → gateway → Socket.IO viewer | ${f.duetFirstP50Ms} | ${f.duetFirstP99Ms} |`);
  console.log(`| **overhead**${name(f.checkout)} (Duet − anchor) | **${f.overheadP50Ms}** | **${f.overheadP99Ms}** |`);
}
for (const f of all) {
  console.log(`\n${name(f.checkout).trim() || 'Duet'}: ${f.finished}/${battles} battles finished; first tokens measured on ${f.firstMeasured} sides (${f.firstMissed} already in the snapshot at join); CPU ${f.cpuMsPerBattle} ms per battle (gateway + workers)`);
}
console.log(JSON.stringify(values.before ? { ...figures, before: all[1] } : figures));
process.exit(0);
