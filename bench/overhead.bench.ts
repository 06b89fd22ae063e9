/**
 * What Duet adds to the first token: `--battles` battles at once (default 200) through a gateway
 * and worker processes, every token stamped by the fake provider when it leaves and read back in
 * a Socket.IO viewer, next to the anchor from the same run: the same fake server read directly
 * with the OpenAI SDK (two streams per battle). Overhead = Duet's first-token lag − the anchor's.
 *
 *   npm run bench -- overhead [--battles 200] [--workers 2] [--quick]
 */
import { parseArgs } from 'node:util';
import { runAnchor, runDuet } from './lib/duet-run.ts';
import { spawnFake } from './lib/fake.ts';
import { machineLine, pct, round } from './lib/stats.ts';

const { values } = parseArgs({
  options: { battles: { type: 'string', default: '200' }, workers: { type: 'string', default: '2' }, quick: { type: 'boolean', default: false } },
});
const battles = values.quick ? 10 : Number(values.battles);
const workers = Number(values.workers);
const scenario = { text: Array.from({ length: 120 }, (_, i) => `w${i}`).join(' '), ttftMs: 200, tokensPerSecond: 30, stamp: true };

const fake = await spawnFake(scenario);
const anchor = await runAnchor(fake, battles * 2);
const duet = await runDuet({ fake, battles, workers, loaders: battles > 100 ? 2 : 1 });
await fake.stop();

const figures = {
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
};
console.log(`\n${await machineLine()} · ${battles} battles at once, 1 gateway + ${workers} workers`);
console.log('\n| first token: delivery lag (ms) | p50 | p99 |\n|---|---|---|');
console.log(`| anchor: the fake server read directly (${battles * 2} streams) | ${figures.anchorFirstP50Ms} | ${figures.anchorFirstP99Ms} |`);
console.log(`| Duet: fake server → worker → Redis → gateway → Socket.IO viewer | ${figures.duetFirstP50Ms} | ${figures.duetFirstP99Ms} |`);
console.log(`| **overhead** (Duet − anchor) | **${figures.overheadP50Ms}** | **${figures.overheadP99Ms}** |`);
console.log(`\n${duet.finished}/${battles} battles finished; first tokens measured on ${figures.firstMeasured} sides (${duet.firstMissed} already in the snapshot at join)`);
console.log(JSON.stringify(figures));
process.exit(0);
