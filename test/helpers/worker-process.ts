import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { nodeArgsFromEnv } from './gateway-process.ts';
import { collectOutput } from './process-output.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface WorkerProcess {
  child: ChildProcess;
  /** Resolves once the worker has connected to its queue. */
  ready: Promise<void>;
  /** Everything it logged. */
  output: () => string;
  /** Ends it abruptly, like a crash or an out-of-memory kill. */
  crash: () => Promise<void>;
  stop: () => Promise<void>;
}

export interface WorkerProcessOptions {
  /** The checkout whose `worker/src/main.ts` runs (default: this one), e.g. to compare before and after a change. */
  root?: string | undefined;
  /** Arguments for `node` before the script (e.g. `--cpu-prof`); default: `DUET_NODE_ARGS`, split on spaces. */
  nodeArgs?: string[];
}

/** Runs `worker/src/main.ts` as its own process, exactly as `npm start` does. */
export function spawnWorkerProcess(env: Record<string, string>, opts: WorkerProcessOptions = {}): WorkerProcess {
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? nodeArgsFromEnv()), '--import', 'tsx', 'worker/src/main.ts'], {
    cwd: opts.root ?? ROOT,
    // A free port for its metrics unless `env` names one: several workers run on one machine.
    env: { ...process.env, WORKER_HTTP_PORT: '0', ...env, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = collectOutput(child, 'worker ready');
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = new Promise<void>((resolve, reject) => {
    void out.seen.then(resolve);
    child.once('exit', (code) => reject(new Error(`worker exited early (${code}):\n${out.text()}`)));
  });
  ready.catch(() => undefined);
  return {
    child,
    ready,
    output: out.text,
    crash: async () => {
      child.kill('SIGKILL');
      await exited;
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
