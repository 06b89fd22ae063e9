import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { redisKeys } from '@duet/contracts';
import type { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RefitJobResult } from '../../worker/src/jobs/compute-leaderboard.processor.ts';
import type { GatewayProcess } from '../helpers/gateway-process.ts';
import { startGatewayProcess } from '../helpers/gateway-process.ts';
import { openRefitQueue } from '../helpers/refit-queue.ts';
import { TEST_REDIS_URL } from '../helpers/services.ts';
import { insertSyntheticVotes } from '../helpers/synthetic-votes.ts';
import { waitFor } from '../helpers/wait.ts';
import { spawnWorkerProcess } from '../helpers/worker-process.ts';

/** Whether process `pid` still runs (a zombie counts as gone). */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** The command line of process `pid` ('' once it is gone). */
function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

/** The processes whose parent is `pid`. */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .filter((e) => {
      try {
        // The fourth field of /proc/<pid>/stat is the parent's pid (after "pid (comm) state").
        return Number(readFileSync(`/proc/${e}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

/**
 * The leaderboard refit runs in a child process of the battle worker. When the worker dies
 * without a word (SIGKILL, out of memory), the child must not live on, holding a core and a
 * database connection for a result nobody takes.
 */
describe('the refit’s child process', () => {
  let gateway: GatewayProcess;
  let queue: Queue<unknown, RefitJobResult>;
  const leftovers: number[] = [];

  beforeAll(async () => {
    gateway = await startGatewayProcess({ env: { LEADERBOARD_INTERVAL_MS: '200' } });
    queue = openRefitQueue(gateway.prefix);
  });
  afterAll(async () => {
    for (const pid of leftovers) if (alive(pid)) process.kill(pid, 'SIGKILL');
    await queue?.close();
    await gateway?.stop();
  });

  it('ends mid-refit when the battle worker that forked it is killed, leaving the refit to the next worker', async () => {
    const client = await gateway.db.pool.connect();
    try {
      // Enough votes that the refit's first run folds them for seconds: the worker is killed while it does.
      await insertSyntheticVotes(client, 300_000);
    } finally {
      client.release();
    }
    const keys = redisKeys(gateway.prefix);
    const worker = spawnWorkerProcess({ ...gateway.env, LEADERBOARD_INTERVAL_MS: '200' });
    await worker.ready;
    await gateway.redis.set(keys.leaderboardDirty, 'test');
    const child = await waitFor(
      async () => ((await queue.getActiveCount()) > 0 ? childrenOf(worker.child.pid!).find((pid) => /classes\/main\.js/.test(cmdline(pid))) : undefined),
      { what: 'a refit running in a child process', timeoutMs: 60_000, intervalMs: 20 },
    );
    leftovers.push(child);
    // Killed once the refit has its database session: past its start, into the work itself.
    await waitFor(
      async () =>
        (await gateway.db.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'duet-refit' AND datname = current_database()")).rows[0]!.n > 0 ||
        undefined,
      { what: 'the refit’s database session', timeoutMs: 60_000, intervalMs: 20 },
    );

    await worker.crash();
    await waitFor(() => !alive(child) || undefined, { what: 'the refit child to end', timeoutMs: 20_000, intervalMs: 50 });
    // It stopped before its results: had it run on, its boards would be cached now.
    expect(await gateway.redis.exists(keys.leaderboard(null))).toBe(0);
    expect((await queue.getJobs(['completed'])).length).toBe(0);
  }, 180_000);
});

/**
 * The same when the worker dies while the child computes, as a fit does, without a pause: the child
 * only learns of it when its report of the finished job fails. BullMQ's child reports that failure
 * with another message to the parent, which fails too, and so on, never polling for the closed
 * channel (before the fix: alive at 100 % of a core, its memory growing, until its heap ran out).
 * The stand-in processor computes until its parent is gone, so the report always comes after the kill.
 */
describe('a sandboxed child whose parent dies while it loads or computes', () => {
  const leftovers: number[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'duet-sandbox-'));
  const prefix = `sandbox-${randomUUID().slice(0, 8)}`;
  afterAll(async () => {
    for (const pid of leftovers) if (alive(pid) && /classes\/main\.js/.test(cmdline(pid))) process.kill(pid, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    const redis = new Redis(TEST_REDIS_URL);
    const keys = await redis.keys(`${prefix}-*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  /**
   * Starts test/fakes/sandbox-parent.ts with stand-in processor `processor`, SIGKILLs it once its
   * child has written `stage` ("computing" or "loading") to the mark file, and waits for the child
   * to end. Returns what the child wrote.
   */
  async function killParentWhileChild(processor: 'busy' | 'slow-load', stage: string): Promise<string> {
    const mark = join(dir, processor);
    const marks = () => (existsSync(mark) ? readFileSync(mark, 'utf8') : '');
    const parent = spawn(process.execPath, ['--import', 'tsx', 'test/fakes/sandbox-parent.ts'], {
      env: { ...process.env, REDIS_URL: TEST_REDIS_URL, PREFIX: `${prefix}-${processor}`, BUSY_MARK: mark, SANDBOX_PROCESSOR: processor },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    try {
      const child = await waitFor(() => Number(new RegExp(`${stage} (\\d+)`).exec(marks())?.[1]) || undefined, {
        what: `the child ${stage}`,
        timeoutMs: 60_000,
        intervalMs: 20,
      });
      leftovers.push(child);
      parent.kill('SIGKILL');
      await waitFor(() => !alive(child) || undefined, { what: `the child, killed while ${stage}, to end`, timeoutMs: 15_000, intervalMs: 50 });
      return marks();
    } finally {
      leftovers.push(...childrenOf(parent.pid!));
      if (parent.exitCode === null) parent.kill('SIGKILL');
    }
  }

  it('ends once its compute is over instead of spinning on the failed report', async () => {
    // Its compute ran to the end after the kill: the parent's death came to light when the result could not go.
    expect(await killParentWhileChild('busy', 'computing')).toContain('computed');
  }, 90_000);

  /**
   * Killed before the child's first job: while it still loads its processor (the refit's takes a
   * second or more under tsx). Its "ready" message then fails and, before the guard loaded with
   * the child, nothing ended it: found after a CI run, a child at 98 % of a core with its memory
   * growing ~30 MB/s, its parent long gone.
   */
  it('ends when its parent dies while it is still loading its processor', async () => {
    expect(await killParentWhileChild('slow-load', 'loading')).toMatch(/^loading \d+\n/);
  }, 90_000);
});
