import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** CPU time a process has used so far (user + system), in milliseconds, read from /proc. */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces) start at ") ".
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return ((utime + stime) * 1000) / TICKS_PER_SECOND;
}

/** A process's resident memory now, in MB. */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/** Samples the resident memory of `pids` every `everyMs` until stopped; returns the peak per pid. */
export function watchPeakRss(pids: number[], everyMs = 200) {
  const peak = new Map(pids.map((p) => [p, 0]));
  const sample = () => {
    for (const pid of pids) {
      try {
        peak.set(pid, Math.max(peak.get(pid) ?? 0, rssMb(pid)));
      } catch {
        // The process is gone.
      }
    }
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop: (): Map<number, number> => {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}
