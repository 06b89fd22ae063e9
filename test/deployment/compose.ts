/**
 * The deployment as operators run it: docker-compose.yml through whichever Compose this machine
 * has (v2 as `docker compose`, else 1.29 as `docker-compose`), driven by testcontainers, plus the
 * Compose and Docker commands testcontainers has no call for (scale, kill, ps).
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { DockerComposeEnvironment, Wait } from 'testcontainers';
import type { StartedDockerComposeEnvironment } from 'testcontainers';

// testcontainers' resource reaper is an image pulled from a registry; none answers here. The
// tests take the stack down themselves (and .ci/run removes whatever a cut-short run left).
process.env.TESTCONTAINERS_RYUK_DISABLED ??= 'true';

const run = promisify(execFile);
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The tag docker-compose.yml builds and runs (DUET_IMAGE unset). */
export const IMAGE = 'duet:local';

const composeV2 = spawnSync('docker', ['compose', 'version'], { encoding: 'utf8' }).status === 0;
/** Which Compose runs the stack here, as its own version line says. */
export const COMPOSE_VERSION = (composeV2 ? spawnSync('docker', ['compose', 'version', '--short'], { encoding: 'utf8' }) : spawnSync('docker-compose', ['version', '--short'], { encoding: 'utf8' })).stdout.trim();

/** Runs a Docker command; its output, or an error that carries it. */
export async function docker(...args: string[]): Promise<string> {
  const { stdout } = await run('docker', args, { maxBuffer: 64 * 1024 * 1024 });
  return stdout.trim();
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** One Compose project of the deployment, with its own settings files, port and volumes. */
export class Stack {
  private started: StartedDockerComposeEnvironment | null = null;

  private constructor(
    readonly project: string,
    readonly port: number,
    /** Compose's own variables (--env-file): the password, the port, where the app's settings are. */
    private readonly composeEnvFile: string,
  ) {}

  /** A new project name and port; `settings` go to every gateway and worker (their .env). */
  static async create(settings: Record<string, string>): Promise<Stack> {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'duet-deployment-'));
    const port = await freePort();
    const appEnv = path.join(dir, 'app.env');
    writeFileSync(appEnv, Object.entries(settings).map(([k, v]) => `${k}=${v}`).join('\n') + '\n');
    const composeEnv = path.join(dir, 'compose.env');
    writeFileSync(composeEnv, [`POSTGRES_PASSWORD=deployment-test-${process.pid}`, `DUET_HTTP_PORT=${port}`, `DUET_ENV_FILE=${appEnv}`, 'GATEWAY_REPLICAS=2', 'WORKER_REPLICAS=2'].join('\n') + '\n');
    return new Stack(`duetdeploy${process.pid}`, port, composeEnv);
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** `up` and wait until every container's health check passes (the migration: until it has exited 0). */
  async up(timeoutMs = 240_000): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        this.started = await this.environment(timeoutMs).up();
        return;
      } catch (err) {
        // Docker Engine 20.10 can still hold a removed network's subnet for a moment after `down`.
        if (attempt >= 3 || !/Pool overlaps/.test(String(err))) throw err;
        await new Promise((r) => setTimeout(r, 5_000));
      }
    }
  }

  private environment(timeoutMs: number): DockerComposeEnvironment {
    return new DockerComposeEnvironment(ROOT, 'docker-compose.yml')
      .withProjectName(this.project)
      .withEnvironmentFile(this.composeEnvFile)
      .withClientOptions(composeV2 ? {} : { executable: { standalone: true } })
      .withDefaultWaitStrategy(Wait.forHealthCheck())
      .withWaitStrategy(composeV2 ? 'migrate-1' : 'migrate_1', Wait.forOneShotStartup())
      .withStartupTimeout(timeoutMs);
  }

  /** `down`, keeping the volumes (`volumes: true` removes them, as `down -v`). */
  async down({ volumes }: { volumes: boolean }): Promise<void> {
    if (this.started) await this.started.down({ removeVolumes: volumes, timeout: 30_000 });
    else await this.compose('down', ...(volumes ? ['-v'] : []));
    this.started = null;
  }

  /** A Compose command on this project (`scale`, `ps`...), as an operator types it. */
  async compose(...args: string[]): Promise<string> {
    const base = ['--project-name', this.project, '--env-file', this.composeEnvFile, '--file', path.join(ROOT, 'docker-compose.yml'), '--project-directory', ROOT];
    const [cmd, cmdArgs] = composeV2 ? ['docker', ['compose', ...base, ...args]] : ['docker-compose', [...base, ...args]];
    const { stdout } = await run(cmd, cmdArgs, { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
    return stdout.trim();
  }

  /** The ids of a service's running containers. */
  async containers(service: string): Promise<string[]> {
    const out = await docker('ps', '-q', '--filter', `label=com.docker.compose.project=${this.project}`, '--filter', `label=com.docker.compose.service=${service}`);
    return out ? out.split('\n') : [];
  }

  /** A container's address on the network shared by the proxy and the gateways. */
  async address(container: string): Promise<string> {
    const json = await docker('inspect', '-f', '{{ json .NetworkSettings.Networks }}', container);
    const networks = JSON.parse(json) as Record<string, { IPAddress: string }>;
    const edge = Object.entries(networks).find(([name]) => name.endsWith('_edge'));
    if (!edge) throw new Error(`container ${container} is on no edge network: ${Object.keys(networks).join(', ')}`);
    return edge[1].IPAddress;
  }

  /** Every container, volume and network of the project, running or not. */
  async leftovers(): Promise<string[]> {
    const label = `label=com.docker.compose.project=${this.project}`;
    const lines = await Promise.all([docker('ps', '-aq', '--filter', label), docker('volume', 'ls', '-q', '--filter', label), docker('network', 'ls', '-q', '--filter', label)]);
    return lines.flatMap((l) => (l ? l.split('\n') : []));
  }
}
