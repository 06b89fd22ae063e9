/**
 * Every benchmark the scale issue names, run the way an operator runs it (`npm run bench -- <name>
 * --quick`), each in its own processes: the benchmark must start what it measures, finish, and
 * print its figures as one JSON object on its last line. No timing is asserted here (that is what
 * the benchmarks are for, in docs/benchmarks.md); what is asserted is that the work they measure was
 * done: every battle finished, every vote counted, the boards agree, Lighthouse produced a score.
 * In the browser project because `client` needs the built client and Chromium.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Runs `npm run bench -- <name> --quick [options]` and returns its last line, parsed, and its whole output. */
function runQuick(name: string, ...options: string[]): Promise<{ figures: unknown; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/run.ts', name, '--quick', ...options], {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: 'test' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`bench ${name} exited with ${code}:\n${output.slice(-4000)}`));
      const last = output.trim().split('\n').at(-1) ?? '';
      try {
        resolve({ figures: JSON.parse(last), output });
      } catch {
        reject(new Error(`bench ${name} did not end with a JSON line:\n${output.slice(-4000)}`));
      }
    });
  });
}

const ms = z.number().nonnegative();
/** A delivery lag: stamped by one process's clock and read by another's, so it may be a hair below 0. */
const lag = z.number();
const TIMEOUT = 300_000;

describe('the benchmarks, --quick', () => {
  it(
    'overhead: measures the first token of every side of every battle, next to the direct SDK',
    async () => {
      const { figures } = await runQuick('overhead');
      const f = z
        .object({ battles: z.number(), finished: z.number(), firstMeasured: z.number(), firstMissed: z.number(), anchorFirstP50Ms: lag, overheadP50Ms: z.number(), overheadP99Ms: z.number() })
        .parse(figures);
      expect(f.finished).toBe(f.battles);
      expect(f.firstMeasured).toBe(f.battles * 2);
      expect(f.firstMissed).toBe(0);
    },
    TIMEOUT,
  );

  it(
    'crowd: every battle finishes a follow-up and is voted on, with its anchor, CPU and memory per process, and the follow-ups’ first tokens apart',
    async () => {
      // A follow-up each (a few seconds more): `--turns` keeps working as the turns' routes change.
      const { figures } = await runQuick('crowd', '--turns', '2');
      const level = z.object({
        battles: z.number().positive(),
        finished: z.number(),
        voted: z.number(),
        anchorLagP99Ms: lag,
        lagP99Ms: lag,
        anchorCpuUsPerToken: z.number().positive(),
        cpuUsPerToken: z.number().positive(),
        peakRssMb: z.object({ gateway: z.number().positive(), workers: z.array(z.number().positive()).min(1) }),
        dbConnectionErrors: z.number(),
        tokens: z.number().positive(),
        turns: z.object({
          count: z.literal(2),
          rows: z.array(z.object({ from: z.number(), to: z.number(), sides: z.number(), firstMissed: z.number(), overheadP50Ms: z.number(), overheadP99Ms: z.number() })).min(2),
        }),
      });
      const { levels } = z.object({ levels: z.array(level).min(1) }).parse(figures);
      for (const l of levels) {
        expect(l.finished).toBe(l.battles);
        expect(l.voted).toBe(l.battles);
        expect(l.dbConnectionErrors).toBe(0);
        // Every side of every follow-up was followed to its first token.
        const followUps = l.turns.rows.find((r) => r.from === 2 && r.to === 2);
        expect(followUps && followUps.sides + followUps.firstMissed).toBe(l.battles * 2);
      }
    },
    TIMEOUT,
  );

  it(
    'queue: creates every battle through the API and measures raw BullMQ on the same Redis',
    async () => {
      const { figures } = await runQuick('queue');
      const f = z
        .object({ battles: z.number(), created: z.number(), refused: z.number(), rawJobsPerSecond: z.number().positive(), battlesPerSecond: z.number().positive(), ratio: z.number().positive() })
        .parse(figures);
      expect(f.created).toBe(f.battles);
      expect(f.refused).toBe(0);
    },
    TIMEOUT,
  );

  it(
    'votes: counts votes and serves reads through the API, next to a bare INSERT and SELECT',
    async () => {
      const { figures } = await runQuick('votes');
      const run = z.object({ perSecond: z.number(), p99Ms: ms, errors: z.number() });
      const f = z
        .object({
          insertAnchor: run,
          votes: run,
          consistent: z.boolean(),
          reads: z
            .array(z.object({ selectAnchor: run, runs: z.array(run.extend({ name: z.string() })).min(1), uncached: z.array(run.extend({ name: z.string() })).min(1) }))
            .min(1),
        })
        .parse(figures);
      expect(f.votes.perSecond).toBeGreaterThan(0);
      expect(f.votes.errors).toBe(0);
      expect(f.consistent).toBe(true);
      for (const r of f.reads.flatMap((read) => [...read.runs, ...read.uncached])) expect(r.errors, r.name).toBe(0);
    },
    TIMEOUT,
  );

  it(
    'leaderboard: the grouped bootstrap gives the same ratings as vote by vote; the plain refit from folded cells and the style refit give the boards a full recompute gives, off the battle loop',
    async () => {
      const { figures } = await runQuick('leaderboard');
      const f = z
        .object({ votes: z.number().positive(), models: z.number().positive(), maxRatingDiff: z.number(), boardsIdentical: z.boolean(), offLoopOtherProcess: z.boolean(), groupedMs: ms, perVoteMs: ms, offLoopJobMs: ms, fullJobMs: ms, styleJobMs: ms, styleBoardsIdentical: z.boolean(), styleOtherProcess: z.boolean(), styleMaxRatingDiff: z.number() })
        .parse(figures);
      expect(f.maxRatingDiff).toBeLessThan(1e-6);
      expect(f.boardsIdentical).toBe(true);
      expect(f.styleBoardsIdentical).toBe(true);
      expect(f.styleMaxRatingDiff).toBe(0);
      expect(f.offLoopOtherProcess).toBe(true);
      expect(f.styleOtherProcess).toBe(true);
    },
    TIMEOUT,
  );

  it(
    'leaderboard-scale: the style fit reads each board’s bounded sample and no more, the boards within the bound as on every vote, the whole refit in the refit child',
    async () => {
      const { figures } = await runQuick('leaderboard-scale');
      const f = z
        .object({
          votes: z.number().positive(),
          errorVotes: z.number().positive(),
          sampledRead: z.number(),
          boardsSampled: z.number(),
          unsampledBoardsIdentical: z.boolean(),
          styleJobMs: ms,
          plainWarmJobMs: ms,
          refitChildHwmMb: z.number().positive(),
          refitChildSameProcess: z.boolean(),
          plainBoardsIdentical: z.boolean(),
          styleFailures: z.number(),
        })
        .parse(figures);
      expect(f.boardsSampled).toBeGreaterThan(0);
      expect(f.sampledRead).toBeLessThan(f.errorVotes);
      expect(f.unsampledBoardsIdentical).toBe(true);
      expect(f.refitChildSameProcess).toBe(true);
      expect(f.plainBoardsIdentical).toBe(true);
      expect(f.styleFailures).toBe(0);
    },
    TIMEOUT,
  );

  it(
    'routing: a gateway with no viewer does not take part in the battles it does not show',
    async () => {
      const { figures } = await runQuick('routing');
      const f = z
        .object({ battles: z.number(), finished: z.number(), tokens: z.number().positive(), viewedGatewayCpuMs: z.number().positive(), idleGatewayCpuMs: ms })
        .parse(figures);
      expect(f.finished).toBe(f.battles);
    },
    TIMEOUT,
  );

  it(
    'client: weighs the landing JavaScript and scores the home page in Lighthouse, next to an empty page',
    async () => {
      const { figures } = await runQuick('client');
      const row = z.object({ page: z.string(), anchor: z.boolean(), performance: z.number().min(0).max(100), cls: z.number().nonnegative() });
      const f = z.object({ landingJsGzip: z.number().positive(), rows: z.array(row) }).parse(figures);
      expect(f.rows.some((r) => r.anchor)).toBe(true);
      expect(f.rows.some((r) => !r.anchor && r.page === '/')).toBe(true);
    },
    TIMEOUT,
  );

  it(
    'landing: visitors load a tool page and every file it needs, compressed, from the gateway and from the bare anchor',
    async () => {
      const { figures } = await runQuick('landing');
      const run = z.object({ visits: z.number().positive(), failures: z.record(z.string(), z.number()), kbPerVisit: z.number().positive(), encodings: z.record(z.string(), z.number()), serverCpuMsPerVisit: z.number().positive() });
      const f = z.object({ files: z.number().positive(), anchor: run, duet: run }).parse(figures);
      expect(f.duet.failures).toEqual({});
      expect(f.anchor.failures).toEqual({});
      expect(f.duet.encodings.br).toBeGreaterThan(0);
    },
    TIMEOUT,
  );

  it(
    'images: cleans a phone photo alone and through a gateway, next to the same upload not cleaned',
    async () => {
      const { figures } = await runQuick('images');
      const upload = z.object({ p50Ms: ms, p99Ms: ms, burstLastMs: ms, rssBeforeMb: z.number().positive(), burstPeakRssMb: z.number().positive() });
      const f = z
        .object({ photoBytes: z.number(), cleanedBytes: z.number().positive(), cleanP50Ms: ms, cleanP99Ms: ms, anchor: upload, cleaned: upload })
        .parse(figures);
      expect(f.photoBytes).toBeGreaterThan(3_000_000);
      expect(f.cleanedBytes).toBeLessThan(f.photoBytes);
    },
    TIMEOUT,
  );

  it(
    'admission: posts battles to a gateway with the campaign’s limits on and one with them off, and times the challenge in Chromium',
    async () => {
      const { figures } = await runQuick('admission');
      const side = z.object({ posts: z.number().int().positive(), p50Ms: ms, p99Ms: ms, statuses: z.record(z.string(), z.number()) });
      const solve = z.object({ solves: z.number().int().positive(), p50Ms: ms, p95Ms: ms });
      const f = z
        .object({
          admission: z.object({ on: side, off: side, added: z.object({ p50Ms: z.number(), p99Ms: z.number() }) }),
          reservation: z.object({ reserves: z.number().int().positive(), p50Ms: ms, p99Ms: ms }),
          solve: z.object({ slowedBy: z.string(), throttled4x: solve, unthrottled: solve }),
        })
        .parse(figures);
      // Every post was taken: with the limits on, each carried a solved challenge and fit the quota and budget.
      expect(f.admission.on.statuses).toEqual({ '202': f.admission.on.posts });
      expect(f.admission.off.statuses).toEqual({ '202': f.admission.off.posts });
    },
    TIMEOUT,
  );
});
