/**
 * Does a gateway's work grow with its own viewers, or with every battle? `--battles` battles at once
 * (default 200, both sides 120 tokens at 30 tokens/s), all watched through gateway 1, while gateway 2
 * runs on the same Redis and PostgreSQL with no viewer at all. Gateway 1's CPU per delivered token
 * is the anchor; gateway 2's CPU over the same window is what every battle costs a gateway that
 * does not show it. Before per-battle channels, gateway 2 parsed and validated every event too.
 *
 *   npm run bench -- routing [--battles 200] [--workers 2] [--quick]
 */
import { parseArgs } from 'node:util';
import { runDuet } from './lib/duet-run.ts';
import { spawnFake } from './lib/fake.ts';
import { machineLine, round } from './lib/stats.ts';

const { values } = parseArgs({
  options: { battles: { type: 'string', default: '200' }, workers: { type: 'string', default: '2' }, quick: { type: 'boolean', default: false } },
});
const battles = values.quick ? 10 : Number(values.battles);
const workers = Number(values.workers);
const scenario = { text: Array.from({ length: 120 }, (_, i) => `w${i}`).join(' '), ttftMs: 200, tokensPerSecond: 30, stamp: true };

const fake = await spawnFake(scenario);
const started = performance.now();
const duet = await runDuet({ fake, battles, workers, loaders: battles > 100 ? 2 : 1, idleGateways: 1 });
const seconds = (performance.now() - started) / 1000;
await fake.stop();

const idleCpuMs = duet.idleGatewaysCpuMs[0] ?? 0;
const figures = {
  battles,
  workers,
  finished: duet.finished,
  tokens: duet.tokens,
  viewedGatewayCpuMs: round(duet.gatewayCpuMs),
  idleGatewayCpuMs: round(idleCpuMs),
  viewedGatewayCpuUsPerToken: round((duet.gatewayCpuMs * 1000) / Math.max(1, duet.tokens)),
  idleGatewayCpuUsPerToken: round((idleCpuMs * 1000) / Math.max(1, duet.tokens)),
  idleShare: round(idleCpuMs / Math.max(1, duet.gatewayCpuMs), 3),
  seconds: round(seconds, 1),
};
console.log(`\n${await machineLine()} · ${battles} battles at once, 2 gateways (viewers on gateway 1 only) + ${workers} workers`);
console.log('\n| gateway | CPU (ms) | CPU per delivered token (µs) |\n|---|---|---|');
console.log(`| anchor: gateway 1, every viewer | ${figures.viewedGatewayCpuMs} | ${figures.viewedGatewayCpuUsPerToken} |`);
console.log(`| gateway 2, no viewer | ${figures.idleGatewayCpuMs} | ${figures.idleGatewayCpuUsPerToken} |`);
console.log(`\n${duet.finished}/${battles} battles finished, ${duet.tokens} tokens delivered in ${figures.seconds} s; gateway 2 used ${round(figures.idleShare * 100, 1)}% of gateway 1's CPU`);
console.log(JSON.stringify(figures));
