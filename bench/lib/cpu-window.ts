import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { cpuMs } from './proc.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Busy and total CPU time of the whole machine so far, ms (from /proc/stat; USER_HZ 100). */
function machineMs(): { busy: number; total: number } {
  const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1, 9).map(Number);
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = fields;
  const total = user + nice + system + idle + iowait + irq + softirq + steal;
  return { busy: (total - idle - iowait) * 10, total: total * 10 };
}

/** CPU used so far by every PostgreSQL process (postmaster, backends, WAL writer…), by pid. */
export function postgresMs(): Map<number, number> {
  const out = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres') out.set(Number(entry), cpuMs(Number(entry)));
    } catch {
      // Gone meanwhile.
    }
  }
  return out;
}

/** Where the CPU went over a measured window, in cores (1 = one core busy all the time). */
export interface CpuSplit {
  machine: number;
  gateway: number;
  load: number;
  postgres: number;
  /** Everything else on the machine (other engineers' work, this orchestrator). */
  other: number;
}

/** PostgreSQL's CPU between two {@link postgresMs} readings, ms (a backend started meanwhile counts from 0). */
export function postgresSpentMs(a: Map<number, number>, b: Map<number, number>): number {
  let ms = 0;
  for (const [pid, now] of b) ms += now - (a.get(pid) ?? 0);
  return ms;
}

function sample(pids: { gateways: readonly number[]; load: number }) {
  return { at: performance.now(), machine: machineMs(), gateway: pids.gateways.reduce((ms, pid) => ms + cpuMs(pid), 0), load: cpuMs(pids.load), postgres: postgresMs() };
}

function split(a: ReturnType<typeof sample>, b: ReturnType<typeof sample>): CpuSplit {
  const wallMs = b.at - a.at;
  const cores = (ms: number) => Math.round((ms / wallMs) * 100) / 100;
  const pg = postgresSpentMs(a.postgres, b.postgres);
  const machine = b.machine.busy - a.machine.busy;
  const gateway = b.gateway - a.gateway;
  const load = b.load - a.load;
  return { machine: cores(machine), gateway: cores(gateway), load: cores(load), postgres: cores(pg), other: cores(Math.max(0, machine - gateway - load - pg)) };
}

/**
 * Runs a load script (see `closed-loop.ts`) as a process of its own and samples where the
 * machine's CPU went between its `measuring` and `measured` lines. `gatewayPids`: the gateway
 * process or processes whose CPU is the `gateway` column; 0 or none: no gateway
 * (an anchor), counted as nothing.
 */
export async function runMeasured<T>(script: string, env: Record<string, string>, gatewayPids: number | readonly number[]): Promise<{ result: T; cpu: CpuSplit }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  const pids = { gateways: (typeof gatewayPids === 'number' ? [gatewayPids] : gatewayPids).filter((pid) => pid > 0), load: child.pid! };
  let out = '';
  let opened: ReturnType<typeof sample> | null = null;
  let closed: ReturnType<typeof sample> | null = null;
  child.stdout.on('data', (chunk: Buffer) => {
    const before = out;
    out += chunk.toString();
    if (!opened && out.includes('measuring\n') && !before.includes('measuring\n')) opened = sample(pids);
    if (!closed && out.includes('measured\n')) closed = sample(pids);
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`${script} exited with ${code}:\n${out.slice(-2000)}`);
  if (!opened || !closed) throw new Error(`${script} never opened its measured window:\n${out.slice(-2000)}`);
  return { result: JSON.parse(out.trim().split('\n').at(-1) ?? '') as T, cpu: split(opened, closed) };
}
