import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Builds the client the browser tests load, exactly as `npm start` serves it. */
export default function buildClient(): void {
  if (process.env.E2E_SKIP_BUILD === '1') return;
  const result = spawnSync('npm', ['run', 'build', '-w', 'client'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('The client build failed');
}
