// Over 300 lines on purpose: the production Compose file, its nginx config and the Kubernetes
// example, each property of the three checked in one place, with the small parsers they need.
//
// Checks the deployment files by reading them, in seconds and without a container engine (the
// deployment test, test/deployment, runs them; deployment-files.test.ts reads the Dockerfile): docker-compose.yml is parsed and interpolated the
// way Compose does it, and the environment it hands the gateway and the worker goes through their
// own configuration loaders; deploy/nginx.conf is parsed into its directives; the manifests under
// deploy/kubernetes/ are read as YAML and held against the code's queue names and settings.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BATTLE_QUEUE, bullPrefix, LIMITS } from '@duet/contracts';
import { QueueKeys } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { z } from 'zod';
import { loadGatewayConfig } from '../../server/src/config.ts';
import { loadWorkerConfig } from '../../worker/src/config.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const read = (file: string): string => readFileSync(path.join(root, file), 'utf8');

type Env = Record<string, string | undefined>;

/** What an operator's .env holds for these tests: the one required value, and keys that must stay out of the file. */
const DOTENV: Env = { POSTGRES_PASSWORD: 'password-of-this-test', OPENAI_API_KEY: 'key-of-this-test' };

// ---------------------------------------------------------------- Compose: parsing and interpolation

/**
 * Compose's interpolation of one string: `$$`, `$VAR`, `${VAR}`, `${VAR:-default}`, `${VAR-default}`,
 * `${VAR:?error}`, `${VAR?error}`, `${VAR:+alternative}`, `${VAR+alternative}`.
 */
function interpolate(text: string, env: Env): string {
  return text.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (match, name?: string, op?: string, arg = '', bare?: string) => {
    if (match === '$$') return '$';
    if (bare) return env[bare] ?? '';
    const value = env[name!];
    const set = value !== undefined;
    const nonEmpty = set && value !== '';
    switch (op) {
      case undefined:
        return value ?? '';
      case ':-':
        return nonEmpty ? value : arg;
      case '-':
        return set ? value : arg;
      case ':+':
        return nonEmpty ? arg : '';
      case '+':
        return set ? arg : '';
      default:
        if (op === ':?' ? !nonEmpty : !set) throw new Error(`required variable ${name}: ${arg}`);
        return value!;
    }
  });
}

const interpolateTree = (node: unknown, env: Env): unknown =>
  typeof node === 'string'
    ? interpolate(node, env)
    : Array.isArray(node)
      ? node.map((n) => interpolateTree(n, env))
      : node !== null && typeof node === 'object'
        ? Object.fromEntries(Object.entries(node).map(([k, v]) => [k, interpolateTree(v, env)]))
        : node;

const ZScalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);
const ZStrings = z.union([z.string(), z.array(z.string())]);
const ZService = z.object({
  image: z.string().optional(),
  build: z.union([z.string(), z.object({ context: z.string(), target: z.string().optional() })]).optional(),
  command: ZStrings.optional(),
  env_file: z.union([z.string(), z.array(z.union([z.string(), z.object({ path: z.string(), required: z.boolean().optional() })]))]).optional(),
  environment: z.union([z.record(z.string(), ZScalar), z.array(z.string())]).optional(),
  ports: z.array(z.union([z.string(), z.number(), z.object({ target: z.coerce.number(), published: ZScalar.optional(), host_ip: z.string().optional() })])).optional(),
  expose: z.array(z.union([z.string(), z.number()])).optional(),
  volumes: z.array(z.union([z.string(), z.object({ source: z.string().optional(), target: z.string(), read_only: z.boolean().optional() })])).optional(),
  networks: z.union([z.array(z.string()), z.record(z.string(), z.object({ aliases: z.array(z.string()).optional() }).nullable())]).optional(),
  depends_on: z.union([z.array(z.string()), z.record(z.string(), z.object({ condition: z.string().default('service_started') }))]).optional(),
  healthcheck: z.object({ test: ZStrings, disable: z.boolean().optional() }).optional(),
  stop_grace_period: z.string().optional(),
  profiles: z.array(z.string()).optional(),
  restart: z.string().optional(),
  container_name: z.string().optional(),
  deploy: z.object({ replicas: z.union([z.number(), z.string()]).optional() }).optional(),
  configs: z.array(z.union([z.string(), z.object({ source: z.string(), target: z.string().optional() })])).optional(),
});
type Service = z.infer<typeof ZService>;
const ZCompose = z.object({
  services: z.record(z.string(), ZService),
  networks: z
    .record(z.string(), z.object({ internal: z.boolean().optional(), ipam: z.object({ config: z.array(z.object({ subnet: z.string() })) }).optional() }).nullable())
    .default({}),
  volumes: z.record(z.string(), z.unknown()).nullable().default({}),
  configs: z.record(z.string(), z.object({ content: z.string().optional(), file: z.string().optional() })).default({}),
});
type Compose = z.infer<typeof ZCompose>;

const rawCompose: unknown = parse(read('docker-compose.yml'), { merge: true });
/** The file as Compose sees it with this .env (and shell). */
const compose = (env: Env = DOTENV): Compose => ZCompose.parse(interpolateTree(rawCompose, env));
/** The file before interpolation: what is literally written in it. */
const literal = ZCompose.parse(rawCompose);

const service = (c: Compose, name: string): Service => {
  const s = c.services[name];
  if (!s) throw new Error(`docker-compose.yml has no service ${name}`);
  return s;
};
const environmentOf = (s: Service): Record<string, string> =>
  Array.isArray(s.environment)
    ? Object.fromEntries(s.environment.map((line) => [line.split('=')[0]!, line.slice(line.indexOf('=') + 1)]))
    : Object.fromEntries(Object.entries(s.environment ?? {}).map(([k, v]) => [k, v === null ? '' : String(v)]));
/** The environment a container starts with: the .env file if the service reads it, then its `environment` (which wins). */
const containerEnv = (s: Service, dotenv: Env = DOTENV): Env => ({ ...(s.env_file ? dotenv : {}), ...environmentOf(s) });
const networksOf = (s: Service): string[] => (s.networks === undefined ? ['default'] : Array.isArray(s.networks) ? s.networks : Object.keys(s.networks));
const commandOf = (s: Service): string[] => (s.command === undefined ? [] : Array.isArray(s.command) ? s.command : s.command.split(/\s+/));
const healthUrls = (s: Service): string[] => [...[s.healthcheck?.test ?? []].flat().join(' ').matchAll(/https?:\/\/[^'"\s)]+/g)].map((m) => m[0]);
const dependsOn = (s: Service): Record<string, string> =>
  Array.isArray(s.depends_on)
    ? Object.fromEntries(s.depends_on.map((d) => [d, 'service_started']))
    : Object.fromEntries(Object.entries(s.depends_on ?? {}).map(([k, v]) => [k, v.condition]));
const replicasOf = (s: Service): number => Number(s.deploy?.replicas ?? 1);

/** Published ports: `[host_ip:]published:target` or the long syntax. */
function publishedPorts(s: Service): { hostIp: string; published: string; target: number }[] {
  return (s.ports ?? []).map((p) => {
    if (typeof p === 'object') return { hostIp: p.host_ip ?? '', published: String(p.published ?? ''), target: p.target };
    const parts = String(p).split('/')[0]!.split(':');
    const target = Number(parts.pop());
    const published = parts.pop() ?? '';
    return { hostIp: parts.join(':'), published, target };
  });
}

/** A Compose duration (`30s`, `1m30s`, `500ms`) in milliseconds. */
function durationMs(text: string): number {
  const unit: Record<string, number> = { us: 0.001, ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(us|ms|s|m|h)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== text) throw new Error(`not a duration: ${text}`);
  return parts.reduce((sum, p) => sum + Number(p[1]) * unit[p[2]!]!, 0);
}

/** Services Compose starts without a profile: the production set. */
const defaultServices = (c: Compose): string[] => Object.keys(c.services).filter((name) => !c.services[name]!.profiles?.length);

// ---------------------------------------------------------------- nginx: parsing

interface Directive {
  name: string;
  args: string[];
  block?: Directive[];
}

/** nginx's configuration syntax: directives with arguments, `;` or a `{ }` block, `#` comments, quoted strings. */
function parseNginx(text: string): Directive[] {
  const tokens: string[] = [];
  for (const m of text.matchAll(/#[^\n]*|"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|([{};])|([^\s{};"'#][^\s{};]*)/g)) {
    if (m[0].startsWith('#')) continue;
    tokens.push(m[1] ?? m[2] ?? m[3] ?? m[4]!);
  }
  let i = 0;
  const block = (): Directive[] => {
    const out: Directive[] = [];
    while (i < tokens.length && tokens[i] !== '}') {
      const d: Directive = { name: tokens[i++]!, args: [] };
      while (i < tokens.length && tokens[i] !== ';' && tokens[i] !== '{') d.args.push(tokens[i++]!);
      if (tokens[i++] === '{') {
        d.block = block();
        i++;
      }
      out.push(d);
    }
    return out;
  };
  return block();
}

const nginx = parseNginx(read('deploy/nginx.conf'));
const all = (within: Directive[] | undefined, name: string): Directive[] => (within ?? []).filter((d) => d.name === name);
const one = (within: Directive[] | undefined, name: string): Directive | undefined => all(within, name)[0];
const http = one(nginx, 'http')?.block;
const server = one(http, 'server')?.block;
const location = (match: string[]): Directive[] | undefined =>
  all(server, 'location').find((l) => l.args.join(' ') === match.join(' '))?.block;
const upstream = (name: string): Directive[] | undefined => all(http, 'upstream').find((u) => u.args[0] === name)?.block;
/** A `map` block's source value → the variable it sets, as `{ variable, entries }`. */
const mapOf = (source: string): { variable: string; entries: Map<string, string> } | undefined => {
  const m = all(http, 'map').find((d) => d.args[0] === source);
  return m && { variable: m.args[1]!, entries: new Map((m.block ?? []).map((d) => [d.name, d.args[0] ?? ''])) };
};
/** What a location ends up with: nginx inherits a directive from the enclosing level only if the location sets none. */
const effective = (loc: Directive[] | undefined, name: string): Directive[] =>
  [loc, server, http].map((level) => all(level, name)).find((found) => found.length > 0) ?? [];
const headersAt = (loc: Directive[] | undefined): Map<string, string> =>
  new Map(effective(loc, 'proxy_set_header').map((d) => [d.args[0]!.toLowerCase(), d.args[1] ?? '']));
/** An nginx size (`8m`, `512k`) in bytes. */
const sizeBytes = (text: string): number => Number(/^\d+/.exec(text)?.[0]) * ({ k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[text.slice(-1).toLowerCase()] ?? 1);
/** An nginx time (`120s`, `2m`, `90`) in seconds. */
const timeSeconds = (text: string): number => Number(/^\d+/.exec(text)?.[0]) * ({ ms: 0.001, s: 1, m: 60, h: 3600 }[text.replace(/^\d+/, '')] ?? 1);

// ---------------------------------------------------------------- the Compose file

describe('docker-compose.yml', () => {
  const c = compose();
  const gateway = service(c, 'gateway');
  const worker = service(c, 'worker');
  const gatewayConfig = loadGatewayConfig(containerEnv(gateway));
  const workerConfig = loadWorkerConfig(containerEnv(worker));

  it('runs the proxy, gateways, workers, a one-shot migration, Redis and PostgreSQL, and the Auth Emulator only in the dev profile', () => {
    expect(defaultServices(c).sort()).toEqual(['gateway', 'migrate', 'postgres', 'proxy', 'redis', 'worker']);
    expect(service(c, 'auth-emulator').profiles).toEqual(['dev']);
  });

  it('publishes a port from the proxy alone, and the dev emulator only on loopback', () => {
    const publishing = defaultServices(c).filter((name) => publishedPorts(service(c, name)).length > 0);
    expect(publishing).toEqual(['proxy']);
    const listen = all(server, 'listen').map((d) => Number(d.args[0]));
    expect(publishedPorts(service(c, 'proxy')).every((p) => listen.includes(p.target))).toBe(true);
    for (const p of publishedPorts(service(c, 'auth-emulator'))) expect(p.hostIp).toBe('127.0.0.1');
  });

  it('lets gateways and workers run as many replicas as asked', () => {
    for (const s of [gateway, worker]) {
      expect(s.container_name).toBeUndefined();
      expect(replicasOf(s)).toBeGreaterThanOrEqual(2);
    }
  });

  it('keeps Redis and PostgreSQL on an internal network the proxy is not on', () => {
    const dataNetworks = ['redis', 'postgres'].flatMap((name) => networksOf(service(c, name)));
    for (const n of dataNetworks) expect(c.networks[n]?.internal, `network ${n}`).toBe(true);
    expect(networksOf(service(c, 'proxy')).filter((n) => dataNetworks.includes(n))).toEqual([]);
    for (const s of [gateway, worker]) expect(networksOf(s).some((n) => dataNetworks.includes(n))).toBe(true);
  });

  it("believes X-Forwarded-For from the proxy's network only, whatever subnet it is given", () => {
    for (const env of [DOTENV, { ...DOTENV, DUET_EDGE_SUBNET: '10.123.45.0/24' }]) {
      const composed = compose(env);
      const proxyNetworks = networksOf(service(composed, 'proxy'));
      expect(proxyNetworks).toHaveLength(1);
      const subnets = composed.networks[proxyNetworks[0]!]?.ipam?.config.map((cfg) => cfg.subnet) ?? [];
      expect(subnets).toHaveLength(1);
      expect(networksOf(service(composed, 'gateway'))).toContain(proxyNetworks[0]);
      expect(loadGatewayConfig(containerEnv(service(composed, 'gateway'), env)).trustProxy).toEqual(subnets);
    }
  });

  it('runs Redis with noeviction and an append-only file on a volume, and checks both', () => {
    const redis = service(c, 'redis');
    const args = commandOf(redis);
    const flag = (name: string) => args[args.indexOf(name) + 1];
    expect(args[0]).toBe('redis-server');
    expect(flag('--maxmemory-policy')).toBe('noeviction');
    expect(flag('--appendonly')).toBe('yes');
    expect(redis.volumes?.map(String)).toContainEqual(expect.stringMatching(/^[a-z0-9_-]+:\/data$/));
    expect(Object.keys(c.volumes ?? {})).toContain(String(redis.volumes?.[0]).split(':')[0]);
    expect([redis.healthcheck?.test].flat().join(' ')).toMatch(/maxmemory-policy.*noeviction/);
  });

  it("keeps PostgreSQL's data on a volume and checks it with pg_isready", () => {
    const postgres = service(c, 'postgres');
    const volume = postgres.volumes?.map(String).find((v) => v.endsWith(':/var/lib/postgresql/data'));
    expect(volume).toBeDefined();
    expect(Object.keys(c.volumes ?? {})).toContain(volume!.split(':')[0]);
    expect([postgres.healthcheck?.test].flat().join(' ')).toMatch(/pg_isready/);
  });

  it('applies migrations once, in a one-shot service that gateways and workers wait for', () => {
    const migrate = service(c, 'migrate');
    const scripts = z.object({ scripts: z.record(z.string(), z.string()) }).parse(JSON.parse(read('package.json'))).scripts;
    expect(commandOf(migrate)).toEqual(['npm', 'run', 'migrate']);
    expect(scripts.migrate).toBeDefined();
    expect(migrate.restart ?? 'no').toBe('no');
    expect(dependsOn(migrate).postgres).toBe('service_healthy');
    expect(dependsOn(gateway).migrate).toBe('service_completed_successfully');
    expect(dependsOn(worker).migrate).toBe('service_completed_successfully');
    expect(gatewayConfig.migrateOnStart).toBe(false);
  });

  it('starts gateways and workers once Redis and PostgreSQL report healthy, and the proxy once gateways do', () => {
    for (const s of [gateway, worker]) {
      expect(dependsOn(s)).toMatchObject({ redis: 'service_healthy', postgres: 'service_healthy' });
    }
    expect(dependsOn(service(c, 'proxy')).gateway).toBe('service_healthy');
    for (const [name, s] of Object.entries(c.services)) {
      for (const [dep, condition] of Object.entries(dependsOn(s))) {
        if (condition === 'service_healthy') expect(service(c, dep).healthcheck?.test, `${name} waits for ${dep}'s health check`).toBeDefined();
      }
    }
  });

  it("checks gateways on /readyz and workers on their own port's /readyz, and the proxy on a path nginx answers", () => {
    expect(healthUrls(gateway)).toEqual([`http://127.0.0.1:${gatewayConfig.port}/readyz`]);
    const workerPort = containerEnv(worker).WORKER_HTTP_PORT ?? '9464';
    expect(healthUrls(worker)).toEqual([`http://127.0.0.1:${workerPort}/readyz`]);
    const proxyPath = new URL(healthUrls(service(c, 'proxy'))[0]!).pathname;
    expect(effective(location(['=', proxyPath]), 'return')[0]?.args[0]).toBe('200');
    for (const name of defaultServices(c).filter((n) => n !== 'migrate')) expect(service(c, name).healthcheck?.test, name).toBeDefined();
  });

  it('gives gateways and workers longer to stop than SHUTDOWN_TIMEOUT_MS, even if .env says otherwise', () => {
    const dotenv = { ...DOTENV, SHUTDOWN_TIMEOUT_MS: '600000' };
    const gatewayStop = loadGatewayConfig(containerEnv(gateway, dotenv)).shutdownTimeoutMs;
    const workerStop = loadWorkerConfig(containerEnv(worker, dotenv)).shutdownTimeoutMs;
    expect(durationMs(gateway.stop_grace_period ?? '10s')).toBeGreaterThan(gatewayStop);
    expect(durationMs(worker.stop_grace_period ?? '10s')).toBeGreaterThan(workerStop);
  });

  it('hands gateways and workers DATABASE_URL and REDIS_URL of the services, and migrations a direct PostgreSQL connection', () => {
    const postgres = environmentOf(service(c, 'postgres'));
    for (const config of [gatewayConfig, workerConfig, { databaseUrl: containerEnv(service(c, 'migrate')).DATABASE_URL! }]) {
      const db = new URL(config.databaseUrl);
      expect([db.hostname, db.port, db.pathname]).toEqual(['postgres', '5432', `/${postgres.POSTGRES_DB}`]);
      expect([db.username, decodeURIComponent(db.password)]).toEqual([postgres.POSTGRES_USER, DOTENV.POSTGRES_PASSWORD]);
    }
    for (const config of [gatewayConfig, workerConfig]) {
      const redis = new URL(config.redisUrl);
      expect([redis.hostname, redis.port || '6379']).toEqual(['redis', '6379']);
    }
  });

  it('fits the default pools of gateways, workers, the refit and the migration under max_connections', () => {
    const maxConnections = Number(/max_connections=(\d+)/.exec(commandOf(service(c, 'postgres')).join(' '))?.[1] ?? 100);
    const reservedForSuperusers = 3;
    // The leaderboard refit's process opens one connection; a migration run opens two.
    const used = replicasOf(gateway) * gatewayConfig.dbPoolSize + replicasOf(worker) * workerConfig.dbPoolSize + 1 + 2;
    expect(used).toBeLessThanOrEqual(maxConnections - reservedForSuperusers);
  });

  it('writes no key or password into the file: they come from .env, which git ignores', () => {
    const secretish = /KEY|SECRET|TOKEN|PASSWORD|PRIVATE|CREDENTIAL/;
    const reference = /^\$\{[A-Z0-9_]+(:?\?[^}]*|:?-)?\}$/;
    for (const [name, s] of Object.entries(literal.services)) {
      for (const [key, value] of Object.entries(environmentOf(s))) {
        if (secretish.test(key)) expect(value, `${name}.${key}`).toMatch(reference);
        if (/_URL$/.test(key)) expect(new URL(value.replace(/\$\{[^}]*\}/g, 'x')).password, `${name}.${key}`).toMatch(/^x?$/);
      }
    }
    expect(read('docker-compose.yml')).not.toMatch(/-----BEGIN|\bsk-[A-Za-z0-9]/);
    expect(() => compose({})).toThrow(/POSTGRES_PASSWORD/);
    for (const s of [gateway, worker]) expect(s.env_file).toBeDefined();
    expect(containerEnv(worker).OPENAI_API_KEY).toBe(DOTENV.OPENAI_API_KEY);
    expect(spawnSync('git', ['check-ignore', '-q', '.env'], { cwd: root }).status).toBe(0);
  });

  it('lets gateways use the Auth Emulator only when .env names it and allows it, never from a stray ALLOW_AUTH_EMULATOR', () => {
    // ALLOW_AUTH_EMULATOR alone: accounts stay as they are.
    const production = loadGatewayConfig(containerEnv(gateway, { ...DOTENV, ALLOW_AUTH_EMULATOR: 'true' }));
    expect(production.accounts.mode).not.toBe('emulator');

    const emulator = service(c, 'auth-emulator');
    const alias = Array.isArray(emulator.networks) ? undefined : Object.values(emulator.networks ?? {}).flatMap((n) => n?.aliases ?? [])[0];
    const port = publishedPorts(emulator)[0];
    expect(alias).toMatch(/\.localhost$/);
    expect(port?.published).toBe(String(port?.target));
    const mounted = (emulator.volumes ?? []).map((v) => (typeof v === 'string' ? v.split(':') : [v.source, v.target])).find(([, target]) => target === '/app/firebase.json');
    const settings = z
      .object({ emulators: z.object({ auth: z.object({ host: z.string(), port: z.number() }) }) })
      .parse(JSON.parse(read(mounted?.[0] ?? 'missing')));
    expect(settings.emulators.auth).toEqual({ host: '0.0.0.0', port: port?.target });
    expect(networksOf(gateway).some((n) => networksOf(emulator).includes(n))).toBe(true);

    // The emulator named without the permission: a gateway on 0.0.0.0 refuses to start.
    const named = { ...DOTENV, FIREBASE_AUTH_EMULATOR_HOST: `${alias}:${port?.target}` };
    expect(() => loadGatewayConfig(containerEnv(service(compose(named), 'gateway'), named))).toThrow(/ALLOW_AUTH_EMULATOR/);
    const dev = { ...named, ALLOW_AUTH_EMULATOR: 'true' };
    const development = loadGatewayConfig(containerEnv(service(compose(dev), 'gateway'), dev));
    expect(development.accounts).toMatchObject({ mode: 'emulator', emulatorHost: `${alias}:${port?.target}` });
  });

  it('keeps to what both Compose 1.29 and Compose v2 know', () => {
    const text = read('docker-compose.yml');
    // 1.29 rejects `${VAR:+...}` and `${VAR+...}`, optional env files and inline configs.
    expect(text).not.toMatch(/\$\{[A-Za-z_][A-Za-z0-9_]*:?\+/);
    for (const s of Object.values(literal.services)) expect(s.env_file === undefined || typeof s.env_file === 'string').toBe(true);
    expect(Object.values(literal.configs).filter((cfg) => cfg.content !== undefined)).toEqual([]);
    // The deployment test (test/deployment) reads another settings file in .env's place.
    expect(service(compose({ ...DOTENV, DUET_ENV_FILE: '/tmp/other.env' }), 'worker').env_file).toBe('/tmp/other.env');
    expect(gateway.env_file).toBe('.env');
  });
});

// ---------------------------------------------------------------- the proxy

describe('deploy/nginx.conf', () => {
  const c = compose();
  const gatewayPort = loadGatewayConfig(containerEnv(service(c, 'gateway'))).port;
  const socketIo = location(['/socket.io/']);
  const app = location(['/']);

  it('is the file the proxy mounts, on an nginx that re-resolves upstream names', () => {
    const proxy = service(c, 'proxy');
    expect(proxy.volumes?.map(String)).toContain('./deploy/nginx.conf:/etc/nginx/nginx.conf:ro');
    const version = /^nginx:(\d+)\.(\d+)(?:\.(\d+))?/.exec(proxy.image ?? '');
    expect(version, 'a pinned nginx version').not.toBeNull();
    const [major, minor, patch] = version!.slice(1).map((v) => Number(v ?? 0));
    expect(major! * 1e6 + minor! * 1e3 + patch!).toBeGreaterThanOrEqual(1_027_003);
  });

  it('passes the WebSocket upgrade through to the gateways over HTTP/1.1', () => {
    const upgrade = mapOf('$http_upgrade');
    expect(upgrade?.entries.get('default')).toBe('upgrade');
    for (const loc of [socketIo, app]) {
      expect(effective(loc, 'proxy_http_version')[0]?.args).toEqual(['1.1']);
      expect(headersAt(loc).get('upgrade')).toBe('$http_upgrade');
      expect(headersAt(loc).get('connection')).toBe(upgrade?.variable);
    }
  });

  it("forwards the browser's Host, which the gateway compares with Origin, and the client address", () => {
    for (const loc of [socketIo, app]) {
      expect(headersAt(loc).get('host')).toBe('$http_host');
      expect(headersAt(loc).get('x-forwarded-for')).toBe('$proxy_add_x_forwarded_for');
    }
  });

  it('sends a WebSocket that opens a session to the least busy gateway, and polling sessions to one gateway per client', () => {
    const engineIo = mapOf('$arg_transport:$arg_sid');
    expect(effective(socketIo, 'proxy_pass')[0]?.args).toEqual([`http://${engineIo?.variable}`]);
    const fresh = upstream(engineIo?.entries.get('websocket:') ?? '');
    const pinned = upstream(engineIo?.entries.get('default') ?? '');
    expect(one(fresh, 'least_conn')).toBeDefined();
    expect(one(fresh, 'hash')).toBeUndefined();
    expect(one(pinned, 'hash')?.args).toEqual(['$remote_addr', 'consistent']);
    expect(upstream(effective(app, 'proxy_pass')[0]?.args[0]?.replace('http://', '') ?? '')).toBe(fresh);
  });

  it('reaches every gateway Compose starts, by service name and port, as --scale adds or removes them', () => {
    expect(one(http, 'resolver')?.args[0]).toBe('127.0.0.11');
    const upstreams = all(http, 'upstream');
    expect(upstreams.length).toBeGreaterThan(0);
    for (const u of upstreams) {
      expect(one(u.block, 'zone'), u.args[0]).toBeDefined();
      expect(all(u.block, 'server').map((s) => s.args)).toEqual([[`gateway:${gatewayPort}`, 'resolve']]);
    }
  });

  it('accepts the largest question the gateway accepts, so the gateway answers refusals itself', () => {
    // image-upload.ts: one image of LIMITS.imageMaxBytes and up to ten fields of 64 KB.
    const largest = LIMITS.imageMaxBytes + 10 * 64 * 1024;
    expect(sizeBytes(effective(app, 'client_max_body_size')[0]?.args[0] ?? '1m')).toBeGreaterThan(largest);
  });

  it("keeps a quiet socket open past Socket.IO's ping interval and timeout", () => {
    const pingIntervalAndTimeoutSeconds = 25 + 20;
    expect(timeSeconds(effective(socketIo, 'proxy_read_timeout')[0]?.args[0] ?? '60s')).toBeGreaterThan(pingIntervalAndTimeoutSeconds);
  });

  it('keeps /metrics off the public side and has room for a crowd of sockets', () => {
    expect(effective(location(['=', '/metrics']), 'return')[0]?.args[0]).toMatch(/^40[34]$/);
    const connections = Number(one(one(nginx, 'events')?.block, 'worker_connections')?.args[0] ?? 512);
    expect(connections).toBeGreaterThanOrEqual(8_192);
    expect(Number(one(nginx, 'worker_rlimit_nofile')?.args[0] ?? 0)).toBeGreaterThanOrEqual(2 * connections);
  });
});

// ---------------------------------------------------------------- the Kubernetes example

const K8S = 'deploy/kubernetes';
const ZProbe = z.object({ httpGet: z.object({ path: z.string(), port: z.union([z.string(), z.number()]) }) });
const ZContainer = z.object({
  name: z.string(),
  command: z.array(z.string()).optional(),
  ports: z.array(z.object({ name: z.string().optional(), containerPort: z.number() })).default([]),
  env: z.array(z.object({ name: z.string(), value: z.string().optional() })).default([]),
  livenessProbe: ZProbe.optional(),
  readinessProbe: ZProbe.optional(),
  lifecycle: z.object({ preStop: z.object({ exec: z.object({ command: z.array(z.string()) }) }) }).optional(),
});
const ZPodSpec = z.object({ terminationGracePeriodSeconds: z.number().default(30), containers: z.array(ZContainer) });
const ZManifest = z.object({
  apiVersion: z.string(),
  kind: z.string(),
  metadata: z.object({ name: z.string(), annotations: z.record(z.string(), z.string()).default({}) }),
  spec: z.unknown().optional(),
  data: z.record(z.string(), z.string()).optional(),
});

const manifestsIn = (file: string) => parseAllDocuments(read(`${K8S}/${file}`)).map((d) => ZManifest.parse(d.toJSON()));
const k8sFiles = readdirSync(path.join(root, K8S)).filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml');
/** What `kubectl apply -k` applies: the files kustomization.yaml lists. */
const applied = z.object({ resources: z.array(z.string()) }).parse(parse(read(`${K8S}/kustomization.yaml`))).resources;
const manifests = applied.filter((f) => k8sFiles.includes(f)).flatMap(manifestsIn);
const find = (kind: string, name: string) => {
  const m = manifests.find((x) => x.kind === kind && x.metadata.name === name);
  if (!m) throw new Error(`no ${kind} ${name} under ${K8S}`);
  return m;
};
const podOf = (deployment: string) =>
  z.object({ template: z.object({ spec: ZPodSpec }) }).parse(find('Deployment', deployment).spec).template.spec;

describe('deploy/kubernetes', () => {
  const settings = find('ConfigMap', 'duet-settings').data ?? {};
  const shutdownSeconds = Number(settings.SHUTDOWN_TIMEOUT_MS) / 1000;
  const concurrency = Number(settings.WORKER_CONCURRENCY);

  it('lists in kustomization.yaml every manifest but the Prometheus alternative, and writes no Secret', () => {
    for (const file of applied) expect(existsSync(path.join(root, K8S, file)), file).toBe(true);
    expect(k8sFiles.filter((f) => !applied.includes(f))).toEqual(['worker-scaledobject-prometheus.yaml']);
    expect(k8sFiles.flatMap(manifestsIn).filter((m) => m.kind === 'Secret')).toEqual([]);
  });

  it('probes gateways and workers: liveness on /healthz, readiness on /readyz, on the ports they listen on', () => {
    for (const deployment of ['duet-gateway', 'duet-worker']) {
      const container = podOf(deployment).containers[0]!;
      const env = { ...settings, ...Object.fromEntries(container.env.map((e) => [e.name, e.value])) };
      const port = deployment === 'duet-gateway' ? loadGatewayConfig(env).port : Number(env.WORKER_HTTP_PORT);
      const portOf = (probe: z.infer<typeof ZProbe> | undefined) =>
        typeof probe?.httpGet.port === 'number' ? probe.httpGet.port : container.ports.find((p) => p.name === probe?.httpGet.port)?.containerPort;
      expect([container.livenessProbe?.httpGet.path, portOf(container.livenessProbe)], deployment).toEqual(['/healthz', port]);
      expect([container.readinessProbe?.httpGet.path, portOf(container.readinessProbe)], deployment).toEqual(['/readyz', port]);
    }
    expect(podOf('duet-worker').containers[0]!.command).toEqual(commandOf(service(compose(), 'worker')));
  });

  it('gives each pod longer to stop than its pre-stop pause plus SHUTDOWN_TIMEOUT_MS', () => {
    for (const deployment of ['duet-gateway', 'duet-worker']) {
      const pod = podOf(deployment);
      const pause = Number(pod.containers[0]!.lifecycle?.preStop.exec.command.find((w) => /^\d+$/.test(w)) ?? 0);
      expect(pod.terminationGracePeriodSeconds, deployment).toBeGreaterThan(pause + shutdownSeconds);
    }
  });

  it("scales workers on BullMQ's own wait and active lists of the battle queue, per WORKER_CONCURRENCY", () => {
    const keys = new QueueKeys(bullPrefix(settings.REDIS_PREFIX ?? 'duet')).getKeys(BATTLE_QUEUE);
    const ZTriggers = z.object({ triggers: z.array(z.object({ type: z.string(), metadata: z.record(z.string(), z.string()) })) });
    const triggers = ZTriggers.parse(find('ScaledObject', 'duet-worker').spec).triggers;
    const listLength = (list: string) => Number(triggers.find((t) => t.type === 'redis' && t.metadata.listName === list)?.metadata.listLength);
    expect(listLength(keys.wait!)).toBe(concurrency);
    expect(listLength(keys.active!)).toBeGreaterThan(0);
    expect(listLength(keys.active!)).toBeLessThan(concurrency);
    const prometheus = ZTriggers.parse(manifestsIn('worker-scaledobject-prometheus.yaml')[0]!.spec).triggers[0]!;
    expect(prometheus.metadata.query).toContain(`queue="${BATTLE_QUEUE}"`);
    expect(Number(prometheus.metadata.threshold)).toBe(listLength(keys.active!));
  });

  it('sends the Ingress to the gateway Service with room for an image and for quiet sockets', () => {
    const ingress = find('Ingress', 'duet');
    const annotations = ingress.metadata.annotations;
    const backend = z
      .object({ rules: z.array(z.object({ http: z.object({ paths: z.array(z.object({ backend: z.object({ service: z.object({ name: z.string() }) }) })) }) })) })
      .parse(ingress.spec).rules[0]!.http.paths[0]!.backend.service.name;
    expect(find('Service', backend)).toBeDefined();
    expect(sizeBytes(annotations['nginx.ingress.kubernetes.io/proxy-body-size'] ?? '1m')).toBeGreaterThan(LIMITS.imageMaxBytes + 10 * 64 * 1024);
    expect(Number(annotations['nginx.ingress.kubernetes.io/proxy-read-timeout'] ?? 60)).toBeGreaterThan(25 + 20);
  });

  it('applies migrations in a Job, straight to PostgreSQL, and leaves them to it', () => {
    const job = z.object({ template: z.object({ spec: ZPodSpec }) }).parse(find('Job', 'duet-migrate').spec).template.spec.containers[0]!;
    expect(job.command).toEqual(['npm', 'run', 'migrate']);
    expect(loadGatewayConfig(settings).migrateOnStart).toBe(false);
  });
});
