/**
 * Before the deployment tests: a container engine must answer; the base images the deployment
 * names are pulled, or built here from Debian packages where no registry answers
 * (scripts/stand-in-images.sh); then the image is built from this checkout, as
 * `docker compose up --build` builds it.
 */
import { spawnSync } from 'node:child_process';
import { IMAGE, ROOT } from './compose.ts';

function step(what: string, cmd: string, args: string[]): void {
  const started = Date.now();
  const res = spawnSync(cmd, args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'pipe'], encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`${what} failed (${res.status ?? res.signal}):\n${res.stderr.slice(-4000)}`);
  console.log(`deployment: ${what} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

export default function setup(): void {
  const engine = spawnSync('docker', ['info', '--format', '{{ .ServerVersion }}'], { encoding: 'utf8' });
  if (engine.status !== 0) {
    throw new Error(`The deployment tests need a running container engine (docker info: ${engine.stderr.trim() || engine.error?.message}). .ci/run installs and starts one; README.md says how to run them locally.`);
  }
  step('base images', 'bash', ['scripts/stand-in-images.sh']);
  step(`image ${IMAGE} built`, 'docker', ['build', '-q', '-t', IMAGE, '.']);
  const size = spawnSync('docker', ['image', 'inspect', '-f', '{{ .Size }}', IMAGE], { encoding: 'utf8' }).stdout.trim();
  console.log(`deployment: image ${IMAGE} is ${(Number(size) / 1e6).toFixed(0)} MB`);
}
