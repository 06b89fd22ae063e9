// Starts the Firebase Auth Emulator (project demo-duet, 127.0.0.1:9099, see firebase.json) for
// development and tests, or reuses one that already answers there. Used by `npm start` and by
// the tests' global setup.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, statSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const EMULATOR_HOST = '127.0.0.1:9099';
export const EMULATOR_PROJECT = 'demo-duet';

const root = new URL('..', import.meta.url).pathname;

async function answers() {
  try {
    const res = await fetch(`http://${EMULATOR_HOST}/emulator/v1/projects/${EMULATOR_PROJECT}/config`);
    return res.ok;
  } catch {
    return false;
  }
}

/** Held while one caller starts the emulator (a file created exclusively: callers may be other processes). */
const START_LOCK = join(tmpdir(), 'duet-auth-emulator.lock');

/**
 * Runs `fn` holding the start lock. Two callers starting at once (the test projects' global
 * setups run side by side) would each see no emulator and each start one: the second fails on
 * the taken ports and, shutting down, could take the first down with it. The second waits here
 * instead, then finds the first one answering and reuses it. A lock older than two minutes is
 * a start that crashed: taken over.
 */
async function holdingStartLock(fn) {
  for (;;) {
    try {
      closeSync(openSync(START_LOCK, 'wx'));
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      try {
        if (Date.now() - statSync(START_LOCK).mtimeMs > 120_000) unlinkSync(START_LOCK);
      } catch {
        // Released meanwhile.
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  try {
    return await fn();
  } finally {
    try {
      unlinkSync(START_LOCK);
    } catch {
      // Already gone.
    }
  }
}

/**
 * Ensures an emulator is up. Resolves with `stop()`, which stops it only if this call started it.
 * @param {{ log?: (line: string) => void, timeoutMs?: number }} [opts]
 */
export function startAuthEmulator(opts = {}) {
  return holdingStartLock(() => startUnlocked(opts));
}

/** @param {{ log?: (line: string) => void, timeoutMs?: number }} opts */
async function startUnlocked(opts) {
  const log = opts.log ?? (() => undefined);
  if (await answers()) return { host: EMULATOR_HOST, started: false, stop: async () => undefined };
  const bin = `${root}node_modules/.bin/firebase`;
  if (!existsSync(bin)) throw new Error('firebase-tools is not installed: run npm ci');
  const child = spawn(bin, ['emulators:start', '--only', 'auth', '--project', EMULATOR_PROJECT], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_UPDATE_NOTIFIER: '1', FIREBASE_CLI_DISABLE_UPDATE_CHECK: 'true' },
    detached: false,
  });
  let output = '';
  const collect = (chunk) => {
    output += chunk.toString();
    for (const line of chunk.toString().split('\n')) if (line.trim()) log(line);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const deadline = Date.now() + (opts.timeoutMs ?? 90_000);
  // Ours answers only once it is up and still running: an answer from anything else does not count.
  while (!(child.exitCode === null && (await answers()))) {
    if (child.exitCode !== null) throw new Error(`The Auth Emulator exited:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`The Auth Emulator did not start in time:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    host: EMULATOR_HOST,
    started: true,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
