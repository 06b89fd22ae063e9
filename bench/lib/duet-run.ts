import { startGatewayProcess } from '../../test/helpers/gateway-process.ts';
import { spawnWorkerProcess } from '../../test/helpers/worker-process.ts';
import { runChild } from './child.ts';
import type { FakeProcess } from './fake.ts';
import { cpuMs, watchPeakRss } from './proc.ts';

/** Now on CLOCK_MONOTONIC in µs: the clock V8 stamps `.cpuprofile` samples with. */
const monotonicUs = (): number => Number(process.hrtime.bigint() / 1000n);

/** One turn number's figures over a load's battles (turn 1: the battles' first questions). */
export interface TurnLoad {
  firstLags: number[];
  /** Per side, the turn's POST → the first text its viewer saw (ms). */
  firstTextMs: number[];
  lags: number[];
  postMs: number[];
  /** Sides whose first token was already in the snapshot at join: their first lag is unknown. */
  firstMissed: number;
}

export interface LoadResult {
  battles: number;
  finished: number;
  voted: number;
  firstMissed: number;
  tokens: number;
  firstLags: number[];
  /** Per side, POST → the first text its viewer saw (ms). */
  firstTextMs: number[];
  lags: number[];
  postMs: number[];
  /** Why battles did not finish, counted by reason. */
  failures: Record<string, number>;
  /** With follow-ups: each turn's own figures, by its number − 1 (`firstLags` and the rest above are turn 1's; `lags`, every turn's). */
  turns?: TurnLoad[];
}

export interface AnchorResult {
  tokens: number;
  firstLags: number[];
  /** Per stream, its request → its first text (ms). */
  firstTextMs: number[];
  lags: number[];
  cpuMs: number;
}

export interface DuetRun extends LoadResult {
  /** CPU the gateway and the workers used during the load, ms. */
  duetCpuMs: number;
  gatewayCpuMs: number;
  workersCpuMs: number;
  peakRssMb: { gateway: number; workers: number[] };
  /** CPU of each extra gateway on the same Redis and PostgreSQL that no viewer uses, ms. */
  idleGatewaysCpuMs: number[];
  /** Lines about PostgreSQL refusing connections, in every process's log. */
  dbConnectionErrors: number;
  /** The measured window on the machine's monotonic clock (µs, as a `.cpuprofile` counts), and who ran in it. */
  window: { startUs: number; endUs: number; gatewayPid: number; workerPids: number[] };
}

/** Two loads' figures of one turn number, as one. */
function mergeTurns(a: TurnLoad | undefined, b: TurnLoad): TurnLoad {
  if (!a) return b;
  return {
    firstLags: a.firstLags.concat(b.firstLags),
    firstTextMs: a.firstTextMs.concat(b.firstTextMs),
    lags: a.lags.concat(b.lags),
    postMs: a.postMs.concat(b.postMs),
    firstMissed: a.firstMissed + b.firstMissed,
  };
}

/** The fake server's two models as Duet's roster, over the OpenAI-compatible protocol. */
export const fakeModelsEnv = (fake: FakeProcess): Record<string, string> => ({
  DUET_MODELS: JSON.stringify([
    { id: 'fake:one', label: 'Fake One', provider: 'openai-compatible', model: 'one', family: 'gpt', baseURL: fake.openaiBaseURL },
    { id: 'fake:two', label: 'Fake Two', provider: 'openai-compatible', model: 'two', family: 'claude', baseURL: fake.openaiBaseURL },
  ]),
  OPENAI_COMPAT_API_KEY: fake.apiKey,
});

/** Reads `streams` answers straight from the fake server in a process of its own. */
export async function runAnchor(fake: FakeProcess, streams: number, transport: 'fetch' | 'stream' = 'fetch'): Promise<AnchorResult> {
  const env = { STREAMS: String(streams), FAKE_API_KEY: fake.apiKey, FAKE_BASE_URL: fake.openaiBaseURL, ANCHOR_FETCH: transport };
  return runChild<AnchorResult>('bench/lib/anchor-reader.ts', env).result;
}

/** Battles a crowd or overhead run puts through Duet before measuring, unless told otherwise. */
export const WARMUP_BATTLES = 10;

/**
 * Worker processes the campaign benchmarks start by default: one. On this two-core machine the
 * gateway, Redis, PostgreSQL, the fake provider and the load share the cores with the workers, so
 * a second worker adds contention, not CPU: one worker used less CPU per token, added less to the
 * first token and ran more battles a second on `queue` than two did (figures in
 * docs/benchmarks.md, "Crowd"). `--workers N` runs more.
 */
export const BENCH_WORKERS = 1;

/** The processes a benchmark ran, for its header: `1 gateway + 1 worker`. */
export const processesLine = (workers: number): string => `1 gateway + ${workers} worker${workers === 1 ? '' : 's'}`;

/**
 * The warm-ups of `--warmup 0,10`: a campaign meets processes already serving, so by default
 * {@link WARMUP_BATTLES}; a `--quick` smoke run measures them cold, to stay short.
 */
export function warmupsOf(value: string | undefined, quick: boolean): number[] {
  const warmups = (value ?? (quick ? '0' : String(WARMUP_BATTLES))).split(',').map(Number);
  if (warmups.some((w) => !Number.isInteger(w) || w < 0)) throw new Error(`--warmup: whole numbers of battles, not "${value}"`);
  return warmups;
}

/**
 * `battles` battles at once through a gateway process and `workers` worker processes, followed by
 * `loaders` viewer processes; measures delivery lags, the gateway's and workers' CPU and memory.
 */
export async function runDuet(opts: {
  fake: FakeProcess;
  battles: number;
  workers: number;
  loaders: number;
  env?: Record<string, string>;
  /** Extra gateway processes that join the same Redis and PostgreSQL but get no viewer. */
  idleGateways?: number;
  /** The checkout whose gateway and workers run (default: this one): a before/after comparison in one run. */
  root?: string | undefined;
  /**
   * Battles run, watched and voted on before the measured window, as a process already serving
   * has done (code compiled and optimised, lazy modules loaded, connections open); 0: measured cold.
   */
  warmup?: number;
  /**
   * Turns a battle has before its vote (default 1): each visitor asks follow-ups until then, its
   * viewer following each turn. The gateway's `MAX_TURNS` is raised to it.
   */
  turns?: number;
}): Promise<DuetRun> {
  const turns = opts.turns ?? 1;
  const turnsEnv: Record<string, string> = turns > 1 ? { MAX_TURNS: String(turns) } : {};
  const gateway = await startGatewayProcess({
    root: opts.root,
    env: {
      ...fakeModelsEnv(opts.fake),
      // A crowd from one machine: the per-address and per-socket limits are not under test here.
      SOCKET_MAX_PER_IP: '100000',
      SOCKET_JOINS_PER_SECOND: '1000',
      SOCKET_EVENTS_PER_SECOND: '1000',
      LOG_LEVEL: 'info',
      ...turnsEnv,
      ...opts.env,
    },
  });
  const idle = await Promise.all(Array.from({ length: opts.idleGateways ?? 0 }, () => startGatewayProcess({ joining: gateway })));
  const perWorker = Math.ceil(opts.battles / opts.workers);
  const workers = Array.from({ length: opts.workers }, () =>
    spawnWorkerProcess({ ...gateway.env, WORKER_CONCURRENCY: String(perWorker), LOG_LEVEL: 'warn', ...opts.env }, { root: opts.root }),
  );
  try {
    const named = [['gateway', gateway] as const, ...workers.map((w, i) => [`worker ${i + 1}`, w] as const)];
    /** What the processes said last is what explains a failed load. */
    const lastLines = () => {
      for (const [name, p] of named) console.error(`--- ${name}, last lines:\n${p.output().split('\n').slice(-15).join('\n')}`);
    };
    await Promise.all(workers.map((w) => w.ready));
    if (opts.warmup) {
      // With follow-ups, one each: their code path warmed too, without a whole conversation's wait.
      const warm = await runChild<LoadResult>('bench/lib/viewer-load.ts', { GATEWAY_URL: gateway.url, BATTLES: String(opts.warmup), TURNS: String(Math.min(turns, 2)) }).result;
      // A warm-up battle still running would be measured with the crowd.
      if (warm.finished !== opts.warmup || warm.voted !== opts.warmup) {
        lastLines();
        throw new Error(`warm-up: ${warm.finished} of ${opts.warmup} battles finished, ${warm.voted} voted (${JSON.stringify(warm.failures)})`);
      }
    }
    // Only what the processes say from here on is counted (the warm-up's lines are not).
    const said = named.map(([, p]) => p.output().length);
    const pids = { gateway: gateway.child.pid!, workers: workers.map((w) => w.child.pid!) };
    const rss = watchPeakRss([pids.gateway, ...pids.workers]);
    const idlePids = idle.map((g) => g.child.pid!);
    const startUs = monotonicUs();
    const cpu0 = { gateway: cpuMs(pids.gateway), workers: pids.workers.map(cpuMs), idle: idlePids.map(cpuMs) };
    const per = Math.ceil(opts.battles / opts.loaders);
    const loads = Array.from({ length: opts.loaders }, (_, i) =>
      runChild<LoadResult>('bench/lib/viewer-load.ts', {
        GATEWAY_URL: gateway.url,
        BATTLES: String(Math.min(per, opts.battles - i * per)),
        TURNS: String(turns),
      }).result,
    );
    const results = await Promise.all(loads).catch((err: unknown) => {
      lastLines();
      throw err;
    });
    const endUs = monotonicUs();
    const gatewayCpuMs = cpuMs(pids.gateway) - cpu0.gateway;
    const idleGatewaysCpuMs = idlePids.map((pid, i) => cpuMs(pid) - (cpu0.idle[i] ?? 0));
    const workersCpuMs = pids.workers.reduce((n, pid, i) => n + cpuMs(pid) - (cpu0.workers[i] ?? 0), 0);
    const peak = rss.stop();
    const logs = named.map(([, p], i) => p.output().slice(said[i])).join('\n');
    const merged = results.reduce<LoadResult>(
      (m, r) => ({
        battles: m.battles + r.battles,
        finished: m.finished + r.finished,
        voted: m.voted + r.voted,
        firstMissed: m.firstMissed + r.firstMissed,
        tokens: m.tokens + r.tokens,
        firstLags: m.firstLags.concat(r.firstLags),
        firstTextMs: m.firstTextMs.concat(r.firstTextMs),
        lags: m.lags.concat(r.lags),
        postMs: m.postMs.concat(r.postMs),
        failures: Object.entries(r.failures).reduce((f, [why, n]) => ({ ...f, [why]: (f[why] ?? 0) + n }), m.failures),
        ...(r.turns ? { turns: r.turns.map((t, i) => mergeTurns(m.turns?.[i], t)) } : {}),
      }),
      { battles: 0, finished: 0, voted: 0, firstMissed: 0, tokens: 0, firstLags: [], firstTextMs: [], lags: [], postMs: [], failures: {} },
    );
    return {
      ...merged,
      duetCpuMs: gatewayCpuMs + workersCpuMs,
      gatewayCpuMs,
      workersCpuMs,
      peakRssMb: { gateway: peak.get(pids.gateway) ?? 0, workers: pids.workers.map((p) => peak.get(p) ?? 0) },
      idleGatewaysCpuMs,
      dbConnectionErrors: (logs.match(/too many clients|remaining connection slots/gi) ?? []).length,
      window: { startUs, endUs, gatewayPid: pids.gateway, workerPids: pids.workers },
    };
  } finally {
    await Promise.all(workers.map((w) => w.stop()));
    await Promise.all(idle.map((g) => g.stop()));
    await gateway.stop();
  }
}
