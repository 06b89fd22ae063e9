#!/usr/bin/env node
// Starts Duet on this machine: builds the client when there is one, applies migrations, brings
// up the Firebase Auth Emulator in development unless real Firebase settings are given, then
// runs the gateway and one worker, restarting either one after a crash. Ctrl-C stops everything
// cleanly.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { startAuthEmulator } from './auth-emulator.mjs';

/** A child that crashed is restarted after 1 s, then 2 s, 4 s… */
const FIRST_RESTART_DELAY_MS = 1_000;
/** …at most this many times within the window; one more crash stops Duet. */
const MAX_RESTARTS = 5;
const RESTART_WINDOW_MS = 60_000;

const root = new URL('..', import.meta.url).pathname;
const run = (args, opts = {}) => spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', ...opts });
const tsx = ['--import', 'tsx'];

if (existsSync(`${root}client/package.json`) && !process.argv.includes('--no-build')) {
  const built = spawnSync('npm', ['run', 'build', '-w', 'client'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

const migrated = run([...tsx, 'server/src/infra/migrate.main.ts']);
if (migrated.status !== 0) {
  console.error('Migrations failed: is PostgreSQL running and DATABASE_URL right?');
  process.exit(migrated.status ?? 1);
}

const childEnv = { ...process.env, MIGRATE_ON_START: 'false' };

// Without real Firebase settings, sign-in runs against a local emulator (no network needed), but
// only in development: emulator ID tokens are unsigned, so a reachable server in that mode would
// accept a forged sign-in from anyone.
const realFirebase = Boolean(process.env.FIREBASE_CLIENT_EMAIL || process.env.GOOGLE_APPLICATION_CREDENTIALS);
let emulator = null;
if (!realFirebase && !process.env.FIREBASE_AUTH_EMULATOR_HOST) {
  if (process.env.NODE_ENV === 'production') {
    console.warn(
      'NODE_ENV=production and no Firebase settings: not starting the Firebase Auth Emulator (its ID tokens are ' +
        'unsigned, so anyone could sign in as anyone). Accounts are off; set real Firebase settings to turn them on.',
    );
  } else {
    console.log('Starting the Firebase Auth Emulator (no Firebase settings given)…');
    emulator = await startAuthEmulator();
    childEnv.FIREBASE_AUTH_EMULATOR_HOST = emulator.host;
    // The gateway refuses emulator mode off loopback unless told that this is development.
    childEnv.ALLOW_AUTH_EMULATOR = 'true';
    console.log(`Auth Emulator on http://${emulator.host}`);
  }
}

let stopping = false;
const isRunning = (child) => child !== null && child.exitCode === null && child.signalCode === null;

/** Runs one role and restarts it after a crash, with a doubling delay and a cap per minute. */
function supervise(name, entry) {
  const role = { name, child: null, timer: null, restarts: [] };
  const launch = () => {
    role.timer = null;
    const child = spawn(process.execPath, [...tsx, entry], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'], env: childEnv });
    role.child = child;
    child.on('exit', (code, signal) => {
      if (stopping) return;
      const now = Date.now();
      role.restarts = role.restarts.filter((at) => now - at < RESTART_WINDOW_MS);
      const how = signal ?? `code ${code}`;
      if (role.restarts.length >= MAX_RESTARTS) {
        console.error(
          `${name} exited (${how}) after ${MAX_RESTARTS} restarts within ${RESTART_WINDOW_MS / 1000} s: ` +
            'giving up and stopping Duet. Its log above says why.',
        );
        stop(1);
        return;
      }
      const delay = FIRST_RESTART_DELAY_MS * 2 ** role.restarts.length;
      role.restarts.push(now);
      console.error(
        `${name} exited (${how}); restarting it in ${delay / 1000} s ` +
          `(restart ${role.restarts.length} of at most ${MAX_RESTARTS} within ${RESTART_WINDOW_MS / 1000} s)`,
      );
      role.timer = setTimeout(launch, delay);
    });
  };
  launch();
  return role;
}

const roles = [supervise('gateway', 'server/src/main.ts'), supervise('worker', 'worker/src/main.ts')];

function stop(code) {
  if (stopping) {
    // A second Ctrl-C: stop waiting for a graceful shutdown.
    for (const { child } of roles) if (isRunning(child)) child.kill('SIGKILL');
    return;
  }
  stopping = true;
  const exits = [];
  for (const role of roles) {
    clearTimeout(role.timer);
    if (!isRunning(role.child)) continue;
    exits.push(new Promise((resolve) => role.child.once('exit', resolve)));
    role.child.kill('SIGTERM');
  }
  Promise.all(exits)
    .then(() => emulator?.stop())
    .then(() => process.exit(code));
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
