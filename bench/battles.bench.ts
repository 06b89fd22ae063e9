/**
 * Battle engine benchmark: N battles at once through a real gateway, worker, Redis and
 * PostgreSQL, with the demo models at a fixed pace. Measures, from a Socket.IO viewer's side,
 * time to the snapshot, time to first text, time until both sides end, and events relayed.
 *
 *   npm run bench -- battles --battles 50 --concurrency 8 --speed 4
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import type { CreateBattleResponse } from '@duet/contracts';
import { postJson } from '../test/helpers/api.ts';
import { BattleViewer, connectSocket } from '../test/helpers/battle-viewer.ts';
import { startTestDuet } from '../test/helpers/duet.ts';
import { waitFor } from '../test/helpers/wait.ts';

const { values } = parseArgs({
  options: {
    battles: { type: 'string', default: '50' },
    concurrency: { type: 'string', default: '8' },
    speed: { type: 'string', default: '4' },
  },
});
const battles = Number(values.battles);
const concurrency = Number(values.concurrency);

const duet = await startTestDuet({
  env: { DEMO_SPEED: values.speed!, WORKER_CONCURRENCY: String(concurrency), DELTA_FLUSH_MS: '50' },
});

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};

const snapshotMs: number[] = [];
const firstTextMs: number[] = [];
const totalMs: number[] = [];
let events = 0;
let chars = 0;

async function one(i: number): Promise<void> {
  const t0 = performance.now();
  const res = await postJson<CreateBattleResponse>(`${duet.url}/api/battles`, {
    tool: 'anything-question',
    text: `Benchmark question ${i}: why do leaves change colour in autumn?`,
    lang: i % 2 ? 'en' : 'ko',
  });
  const socket = await connectSocket(duet.url);
  const viewer = new BattleViewer(socket, res.body.battleId);
  await viewer.join();
  snapshotMs.push(performance.now() - t0);
  await waitFor(() => (viewer.snapshot?.sides.a.text || viewer.snapshot?.sides.b.text ? true : undefined), { timeoutMs: 60_000 });
  firstTextMs.push(performance.now() - t0);
  const final = await viewer.finished(120_000);
  totalMs.push(performance.now() - t0);
  events += viewer.events.length;
  chars += final.sides.a.text.length + final.sides.b.text.length;
  socket.disconnect();
}

const started = performance.now();
let next = 0;
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < battles) await one(next++);
  }),
);
const wall = (performance.now() - started) / 1000;
await duet.close();

const row = (name: string, xs: number[]) =>
  `| ${name} | ${pct(xs, 50).toFixed(0)} | ${pct(xs, 95).toFixed(0)} | ${Math.max(...xs).toFixed(0)} |`;
console.log(`\n${new Date().toISOString().slice(0, 10)} · ${os.cpus().length} cores · ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB · node ${process.version}`);
console.log(`${battles} battles, ${concurrency} at once, demo speed ${values.speed}, 1 worker (concurrency ${concurrency})\n`);
console.log('| measure (ms) | p50 | p95 | max |\n|---|---|---|---|');
console.log(row('POST /api/battles → snapshot', snapshotMs));
console.log(row('POST → first text on the socket', firstTextMs));
console.log(row('POST → both sides ended', totalMs));
console.log(`\nthroughput: ${(battles / wall).toFixed(2)} battles/s; ${(events / wall).toFixed(0)} socket events/s; ${(chars / wall / 1000).toFixed(1)} k chars/s streamed`);
process.exit(0);
