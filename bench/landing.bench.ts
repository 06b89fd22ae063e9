/**
 * A campaign's visitors arriving: each a browser with nothing cached, loading a tool page (the app
 * shell, the entry chunk, the tool page's chunks, the Markdown renderer it loads once an answer
 * arrives, and their CSS) from a gateway process serving the built client, `--concurrency` visitors
 * at once for `--seconds`, with a browser's `Accept-Encoding`. The anchor, in the same run: the same
 * files from a bare `node:http` server holding them in memory, compressed once (brotli, highest
 * quality). For each: visits per second, p50 / p99 of a whole visit, bytes on the wire per visit,
 * and the serving process's CPU per visit (from `/proc`).
 *
 * `--before DIR` runs the same load, in the same run, against the gateway of another checkout of
 * Duet (e.g. a worktree of an earlier commit, with its own `npm ci`), serving its own build.
 *
 *   npm run bench -- landing [--concurrency 8] [--seconds 10] [--warmup 2] [--page /quiz-solving-duet] [--build] [--before DIR] [--quick]
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startGatewayProcess } from '../test/helpers/gateway-process.ts';
import { ensureClientBuilt, pageFiles } from './landing-bundle.ts';
import { withServerProcess } from './lib/child.ts';
import type { LoopResult } from './lib/closed-loop.ts';
import type { CpuSplit } from './lib/cpu-window.ts';
import { runMeasured } from './lib/cpu-window.ts';
import { machineLine, pct, round } from './lib/stats.ts';

interface VisitResult extends LoopResult {
  bytesPerVisit: number;
  encodings: Record<string, number>;
}

const { values } = parseArgs({
  options: {
    concurrency: { type: 'string', default: '8' },
    seconds: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    page: { type: 'string', default: '/quiz-solving-duet' },
    build: { type: 'boolean', default: false },
    before: { type: 'string' },
    quick: { type: 'boolean', default: false },
  },
});
const quick = values.quick;
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TOOL_PAGE = 'pages/Tool/ToolPage.tsx';
const load = (root: string) => {
  const dist = ensureClientBuilt(root, values.build);
  return { root, dist, files: pageFiles(dist, TOOL_PAGE, { lazy: true }) };
};
const current = load(ROOT);
const before = values.before ? load(path.resolve(values.before)) : null;
const loadEnv = (url: string, files: string[]) => ({
  GATEWAY_URL: url,
  PAGE: values.page,
  FILES: JSON.stringify(files),
  CONCURRENCY: String(quick ? 2 : Number(values.concurrency)),
  WARMUP_MS: String((quick ? 0.5 : Number(values.warmup)) * 1000),
  DURATION_MS: String((quick ? 1 : Number(values.seconds)) * 1000),
});

interface Row {
  name: string;
  run: { result: VisitResult; cpu: CpuSplit };
}

async function gatewayRow(name: string, build: ReturnType<typeof load>): Promise<Row> {
  const gateway = await startGatewayProcess({ env: { CLIENT_DIST: build.dist }, root: build.root === ROOT ? undefined : build.root });
  try {
    return { name, run: await runMeasured<VisitResult>('bench/lib/landing-load.ts', loadEnv(gateway.url, build.files), gateway.child.pid!) };
  } finally {
    await gateway.stop();
  }
}

const rows: Row[] = [];
rows.push({
  name: 'anchor: bare `node:http`, the same files precompressed in memory',
  run: await withServerProcess('bench/lib/static-anchor.ts', { DIST: current.dist, FILES: JSON.stringify(current.files), PAGE: values.page }, (url, pid) =>
    runMeasured<VisitResult>('bench/lib/landing-load.ts', loadEnv(url, current.files), pid),
  ),
});
rows.push(await gatewayRow('Duet: the gateway serving the built client', current));
if (before) rows.push(await gatewayRow(`the gateway of ${path.basename(before.root)}`, before));

const figures = rows.map(({ name, run: { result, cpu } }) => ({
  name,
  visits: result.calls,
  perSecond: round(result.perSecond),
  p50Ms: round(pct(result.latenciesMs, 50), 2),
  p99Ms: round(pct(result.latenciesMs, 99), 2),
  failures: result.failures,
  kbPerVisit: round(result.bytesPerVisit / 1024),
  encodings: result.encodings,
  serverCpuMsPerVisit: result.perSecond > 0 ? round((cpu.gateway * 1000) / result.perSecond, 3) : 0,
  cpu,
}));

console.log(`\n${await machineLine()} · ${current.files.length + 1} files per visit (${values.page}) · ${loadEnv('', []).CONCURRENCY} visitors at once`);
console.log('CPU columns: cores used over the measured window (2 = both cores busy); server: the process serving the files.\n');
console.log('| visits | per second | p50 ms | p99 ms | KB on the wire per visit | server CPU ms per visit | failures | server | load | other |');
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const f of figures) {
  const failures = Object.entries(f.failures).map(([k, n]) => `${k}: ${n}`).join(', ') || '0';
  console.log(`| ${f.name} | ${f.perSecond} | ${f.p50Ms} | ${f.p99Ms} | ${f.kbPerVisit} | ${f.serverCpuMsPerVisit} | ${failures} | ${f.cpu.gateway} | ${f.cpu.load} | ${round(f.cpu.other + f.cpu.postgres, 2)} |`);
}
const [anchor, duet] = figures;
console.log(`\nDuet's CPU per visit: ${round(duet!.serverCpuMsPerVisit / anchor!.serverCpuMsPerVisit, 2)}× the anchor's; bytes per visit ${round(duet!.kbPerVisit / anchor!.kbPerVisit, 2)}×`);
console.log(JSON.stringify({ page: values.page, files: current.files.length + 1, anchor, duet, before: figures[2] ?? null }));
