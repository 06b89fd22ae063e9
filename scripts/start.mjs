#!/usr/bin/env node
// Starts Duet on this machine: builds the client when there is one, applies migrations, brings
// up the Firebase Auth Emulator unless real Firebase settings are given, then runs the gateway
// and one worker. Ctrl-C stops everything cleanly.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { startAuthEmulator } from './auth-emulator.mjs';

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

// Without real Firebase settings, sign-in runs against a local emulator (no network needed).
const realFirebase = Boolean(process.env.FIREBASE_CLIENT_EMAIL || process.env.GOOGLE_APPLICATION_CREDENTIALS);
let emulator = null;
if (!realFirebase && !process.env.FIREBASE_AUTH_EMULATOR_HOST) {
  console.log('Starting the Firebase Auth Emulator (no Firebase settings given)…');
  emulator = await startAuthEmulator();
  process.env.FIREBASE_AUTH_EMULATOR_HOST = emulator.host;
  console.log(`Auth Emulator on http://${emulator.host}`);
}

const children = [
  ['gateway', 'server/src/main.ts'],
  ['worker', 'worker/src/main.ts'],
].map(([name, entry]) => {
  const child = spawn(process.execPath, [...tsx, entry], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, MIGRATE_ON_START: 'false' },
  });
  child.on('exit', (code, signal) => {
    if (stopping) return;
    console.error(`${name} exited (${signal ?? code}); stopping Duet`);
    stop(code ?? 1);
  });
  return child;
});

let stopping = false;
function stop(code = 0) {
  stopping = true;
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  Promise.all(children.map((c) => (c.exitCode !== null ? null : new Promise((r) => c.once('exit', r)))))
    .then(() => emulator?.stop())
    .then(() => process.exit(code));
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
