/**
 * A CPU cgroup (v1 `cpu` controller, or v2) that slows a process tree down by a factor, as a
 * slower device's cores would: the tree may use `cores / factor` of the machine's CPU time. Needs
 * write access to the cgroup hierarchy (root here); `createCpuCgroup` answers null without it.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const PERIOD_US = 100_000;

export interface CpuCgroup {
  /** Moves `pid` and every process under it into the group (processes they start later follow). */
  adopt: (pid: number) => void;
  /** 1: no limit; 4: a quarter of each core's time. */
  slowDown: (factor: number) => void;
  /** Removes the group once its processes have ended. */
  remove: () => void;
}

export function createCpuCgroup(): CpuCgroup | null {
  const v1 = '/sys/fs/cgroup/cpu';
  const v2 = existsSync('/sys/fs/cgroup/cgroup.controllers') ? '/sys/fs/cgroup' : existsSync('/sys/fs/cgroup/unified/cgroup.controllers') ? '/sys/fs/cgroup/unified' : null;
  const base = existsSync(path.join(v1, 'cpu.cfs_quota_us')) ? v1 : v2 && readFileSync(path.join(v2, 'cgroup.controllers'), 'utf8').includes('cpu') ? v2 : null;
  if (!base) return null;
  const dir = path.join(base, `duet-bench-${randomUUID().slice(0, 8)}`);
  try {
    mkdirSync(dir);
  } catch {
    return null;
  }
  const cores = os.availableParallelism();
  return {
    adopt(pid) {
      for (const p of [pid, ...descendants(pid)]) {
        try {
          writeFileSync(path.join(dir, 'cgroup.procs'), String(p));
        } catch {
          // It ended meanwhile.
        }
      }
    },
    slowDown(factor) {
      const quota = factor <= 1 ? -1 : Math.round((PERIOD_US * cores) / factor);
      if (base === v1) {
        writeFileSync(path.join(dir, 'cpu.cfs_period_us'), String(PERIOD_US));
        writeFileSync(path.join(dir, 'cpu.cfs_quota_us'), String(quota));
      } else {
        writeFileSync(path.join(dir, 'cpu.max'), `${quota < 0 ? 'max' : quota} ${PERIOD_US}`);
      }
    },
    remove() {
      try {
        rmdirSync(dir);
      } catch {
        // A process is still in it: the empty group is left behind.
      }
    },
  };
}

/** Every process under `root`, from /proc's parent ids. */
function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // Gone meanwhile.
    }
  }
  const found: number[] = [];
  const queue = [root];
  while (queue.length) {
    for (const child of children.get(queue.shift()!) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/** The first-started process whose command line holds `marker` (a browser, not its helpers). */
export function processWith(marker: string): number | null {
  const found = readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        return readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(marker);
      } catch {
        return false;
      }
    })
    .map(Number);
  return found.length ? Math.min(...found) : null;
}
