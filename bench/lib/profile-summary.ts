/**
 * Where a process's CPU went in a benchmark's measured window, from the `.cpuprofile` that
 * `node --cpu-prof` wrote (run a benchmark with `DUET_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR"`;
 * it prints its window and pids). Self time by package, by package counting Node's internals
 * and natives for the nearest package that called them, and by function.
 *
 *   npx tsx bench/lib/profile-summary.ts <file.cpuprofile> [startUs endUs] [--top 30]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** The package a frame belongs to: `ioredis`, `@scope/name`, `node:internal`, `duet:worker/src/live`, or a V8 pseudo-frame. */
export function packageOf(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nm) return nm[1]!;
  if (url.startsWith('node:')) return 'node:internal';
  const own = /\/(server|worker|shared|bench|test)\/(src\/)?([^/]+)/.exec(url);
  if (own) return `duet:${own[1]}/${own[3]!.replace(/\.ts$/, '')}`;
  return url;
}

/** A frame's file, short: after `node_modules/` or the checkout's root. */
const where = (frame: CallFrame): string => {
  if (!frame.url) return '';
  const short = frame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(server|worker|shared|bench|test)\//, '$1/');
  return `${short}:${frame.lineNumber + 1}`;
};

/** `package` plus natives and Node internals counted for their nearest calling package. */
const attributable = (pkg: string) => pkg !== 'node:internal' && pkg !== '(native)';

export function summarise(profile: CpuProfile, window?: { startUs: number; endUs: number }) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<number, number>();
  let t = profile.startTime;
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i] ?? 0;
    const dt = profile.timeDeltas[i + 1] ?? 0;
    if (window && (t < window.startUs || t > window.endUs)) continue;
    const id = profile.samples[i]!;
    if (byId.get(id)?.callFrame.functionName === '(idle)') continue;
    self.set(id, (self.get(id) ?? 0) + dt);
    total += dt;
  }
  const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
  const byPackage = new Map<string, number>();
  const byCaller = new Map<string, number>();
  const byFunction = new Map<string, number>();
  for (const [id, us] of self) {
    const frame = byId.get(id)!.callFrame;
    const pkg = packageOf(frame);
    add(byPackage, pkg, us);
    add(byFunction, `${frame.functionName || '(anonymous)'} ${where(frame)}`, us);
    let owner = pkg;
    for (let p = parent.get(id); !attributable(owner) && p !== undefined; p = parent.get(p)) owner = packageOf(byId.get(p)!.callFrame);
    add(byCaller, attributable(owner) ? owner : pkg, us);
  }
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]);
  return { totalMs: total / 1000, byPackage: sorted(byPackage), byCaller: sorted(byCaller), byFunction: sorted(byFunction) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { positionals, values } = parseArgs({ allowPositionals: true, options: { top: { type: 'string', default: '30' } } });
  const [file, start, end] = positionals;
  if (!file) throw new Error('Usage: profile-summary.ts <file.cpuprofile> [startUs endUs] [--top 30]');
  const window = start && end ? { startUs: Number(start), endUs: Number(end) } : undefined;
  const s = summarise(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile, window);
  const top = Number(values.top);
  const line = ([k, us]: [string, number]) => `${((us / 1000 / s.totalMs) * 100).toFixed(1).padStart(5)} %  ${(us / 1000).toFixed(0).padStart(6)} ms  ${k}`;
  console.log(`${file}: ${s.totalMs.toFixed(0)} ms busy in the window`);
  console.log('\nself time by package:');
  for (const row of s.byPackage.slice(0, top)) console.log(line(row));
  console.log('\nself time by package, Node internals and natives counted for their caller:');
  for (const row of s.byCaller.slice(0, top)) console.log(line(row));
  console.log('\nself time by function:');
  for (const row of s.byFunction.slice(0, top)) console.log(line(row));
}
