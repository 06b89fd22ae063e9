import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadGatewayConfig } from './config.ts';

const PEM = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
/** As a `.env` file or a secret store usually holds it: one line with `\n` escapes. */
const PEM_ONE_LINE = PEM.replace(/\n/g, '\\n');

const REAL = {
  FIREBASE_PROJECT_ID: 'duet-prod-1234',
  FIREBASE_CLIENT_EMAIL: 'gateway@duet-prod-1234.iam.gserviceaccount.com',
  FIREBASE_PRIVATE_KEY: PEM_ONE_LINE,
  FIREBASE_WEB_API_KEY: 'AIzaSy-web-key',
};

const serviceAccountFile = (): string => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'duet-sa-')), 'sa.json');
  writeFileSync(file, '{}');
  return file;
};

describe('account settings', () => {
  it('refuses the emulator together with real credentials, naming the problem', () => {
    const run = () => loadGatewayConfig({ ...REAL, FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099' });
    expect(run).toThrow(/FIREBASE_AUTH_EMULATOR_HOST: must not be set together with real Firebase credentials/);
    expect(run).toThrow(/FIREBASE_CLIENT_EMAIL, FIREBASE_PRIVATE_KEY/);
    expect(run).toThrow(/unsigned/);
  });

  it('refuses the emulator together with a service account file', () => {
    expect(() =>
      loadGatewayConfig({ FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099', GOOGLE_APPLICATION_CREDENTIALS: serviceAccountFile() }),
    ).toThrow(/FIREBASE_AUTH_EMULATOR_HOST: .*\(GOOGLE_APPLICATION_CREDENTIALS\)/);
  });

  it('turns accounts off when neither the emulator nor credentials are set', () => {
    const config = loadGatewayConfig({});
    expect(config.accounts).toEqual({ mode: 'disabled' });
    expect(config.session).toEqual({ secret: null, ttlHours: 12 });
    expect(config.rateLimits.accountsPerMinute).toBe(30);
  });

  it('treats empty values as unset', () => {
    expect(loadGatewayConfig({ FIREBASE_AUTH_EMULATOR_HOST: '', FIREBASE_PRIVATE_KEY: ' ', SESSION_SECRET: '' }).accounts.mode).toBe('disabled');
    const yesNo = loadGatewayConfig({ MIGRATE_ON_START: '', SERVE_SOURCE_MAPS: ' ', ALLOW_AUTH_EMULATOR: '' });
    expect([yesNo.migrateOnStart, yesNo.serveSourceMaps]).toEqual([true, false]);
  });

  it('uses the emulator with the demo project and browser settings by default', () => {
    expect(loadGatewayConfig({ HOST: '127.0.0.1', FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099' }).accounts).toEqual({
      mode: 'emulator',
      projectId: 'demo-duet',
      emulatorHost: '127.0.0.1:9099',
      web: { apiKey: 'demo-api-key', authDomain: 'demo-duet.firebaseapp.com', appId: undefined },
    });
  });

  it('uses a real project with a service account, unescaping the private key', () => {
    const config = loadGatewayConfig({ ...REAL, FIREBASE_AUTH_DOMAIN: 'login.duet.example', FIREBASE_APP_ID: '1:2:web:3' });
    expect(config.accounts).toEqual({
      mode: 'firebase',
      projectId: 'duet-prod-1234',
      credentials: { clientEmail: REAL.FIREBASE_CLIENT_EMAIL, privateKey: PEM },
      web: { apiKey: 'AIzaSy-web-key', authDomain: 'login.duet.example', appId: '1:2:web:3' },
    });
  });

  it('uses a real project with a service account file', () => {
    const file = serviceAccountFile();
    const config = loadGatewayConfig({ FIREBASE_PROJECT_ID: 'duet-prod-1234', FIREBASE_WEB_API_KEY: 'k', GOOGLE_APPLICATION_CREDENTIALS: file });
    expect(config.accounts).toMatchObject({ mode: 'firebase', credentials: { file } });
  });

  it('lists every incomplete real setting', () => {
    const run = () => loadGatewayConfig({ FIREBASE_CLIENT_EMAIL: REAL.FIREBASE_CLIENT_EMAIL });
    expect(run).toThrow(/FIREBASE_PRIVATE_KEY: FIREBASE_CLIENT_EMAIL and FIREBASE_PRIVATE_KEY go together/);
    expect(run).toThrow(/FIREBASE_PROJECT_ID: must name your Firebase project/);
    expect(run).toThrow(/FIREBASE_WEB_API_KEY: is required/);
    expect(() => loadGatewayConfig({ ...REAL, FIREBASE_PRIVATE_KEY: 'not a key' })).toThrow(/FIREBASE_PRIVATE_KEY: not a PEM private key/);
    const fileOnly = { FIREBASE_PROJECT_ID: 'duet-prod-1234', FIREBASE_WEB_API_KEY: 'k', GOOGLE_APPLICATION_CREDENTIALS: '/nope.json' };
    expect(() => loadGatewayConfig(fileOnly)).toThrow(/GOOGLE_APPLICATION_CREDENTIALS: no such file/);
  });

  it('refuses emulator mode on a gateway others can reach, unless development is declared', () => {
    const exposed = () => loadGatewayConfig({ HOST: '0.0.0.0', FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099' });
    expect(exposed).toThrow(/FIREBASE_AUTH_EMULATOR_HOST: emulator mode needs the gateway \(HOST=0\.0\.0\.0\)/);
    expect(() => loadGatewayConfig({ FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099' })).toThrow(/unsigned/);
    expect(() => loadGatewayConfig({ HOST: '127.0.0.1', FIREBASE_AUTH_EMULATOR_HOST: 'auth.internal:9099' })).toThrow(/loopback/);
    expect(loadGatewayConfig({ HOST: '::1', FIREBASE_AUTH_EMULATOR_HOST: 'localhost:9099' }).accounts.mode).toBe('emulator');
    expect(loadGatewayConfig({ FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099', ALLOW_AUTH_EMULATOR: 'true' }).accounts.mode).toBe('emulator');
  });

  it('checks the session settings and the emulator address', () => {
    expect(() => loadGatewayConfig({ SESSION_SECRET: 'too short' })).toThrow(/SESSION_SECRET: at least 32 characters/);
    expect(() => loadGatewayConfig({ SESSION_TTL_HOURS: '0' })).toThrow(/SESSION_TTL_HOURS/);
    expect(() => loadGatewayConfig({ HOST: '127.0.0.1', FIREBASE_AUTH_EMULATOR_HOST: 'http://127.0.0.1:9099' })).toThrow(
      /FIREBASE_AUTH_EMULATOR_HOST: host:port/,
    );
    const config = loadGatewayConfig({ SESSION_SECRET: 's'.repeat(32), SESSION_TTL_HOURS: '1.5' });
    expect(config.session).toEqual({ secret: 's'.repeat(32), ttlHours: 1.5 });
  });
});

describe('proxy settings', () => {
  it('trusts X-Forwarded-For only from the proxies named, never by a hop count', () => {
    expect(loadGatewayConfig({}).trustProxy).toEqual([]);
    expect(loadGatewayConfig({ TRUST_PROXY: 'false' }).trustProxy).toEqual([]);
    expect(loadGatewayConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8' }).trustProxy).toEqual(['loopback', '10.0.0.0/8']);
    expect(() => loadGatewayConfig({ TRUST_PROXY: '1' })).toThrow(/TRUST_PROXY: takes the proxies' addresses or subnets .* not a hop count/);
    expect(() => loadGatewayConfig({ TRUST_PROXY: 'not-an-address' })).toThrow(/TRUST_PROXY: .*not-an-address/);
  });
});

describe('shared battles', () => {
  it('takes the public origin without a path or a trailing slash, and the preview fonts as a list', () => {
    expect(loadGatewayConfig({}).publicUrl).toBeNull();
    expect(loadGatewayConfig({ PUBLIC_URL: 'https://duet.example.com/' }).publicUrl).toBe('https://duet.example.com');
    expect(() => loadGatewayConfig({ PUBLIC_URL: 'https://duet.example.com/b' })).toThrow(/PUBLIC_URL: an http or https origin, with no path/);
    expect(() => loadGatewayConfig({ PUBLIC_URL: 'duet.example.com' })).toThrow(/PUBLIC_URL: an absolute address/);
    expect(loadGatewayConfig({ SHARE_FONT_FILES: '/a.ttf, /b.ttc,' }).shareFontFiles).toEqual(['/a.ttf', '/b.ttc']);
  });
});

describe('Redis settings', () => {
  it('runs on one Redis unless cluster nodes are named', () => {
    expect(loadGatewayConfig({}).redisClusterNodes).toEqual([]);
    expect(loadGatewayConfig({ REDIS_CLUSTER_NODES: ' ' }).redisClusterNodes).toEqual([]);
  });

  it('reads the cluster nodes, host names and IPv6 addresses alike', () => {
    const config = loadGatewayConfig({ REDIS_CLUSTER_NODES: 'redis-0.redis:6379, 10.0.0.2:7001,[::1]:7002' });
    expect(config.redisClusterNodes).toEqual([
      { host: 'redis-0.redis', port: 6379 },
      { host: '10.0.0.2', port: 7001 },
      { host: '::1', port: 7002 },
    ]);
  });

  it('refuses a node without a port, or with one out of range, naming it', () => {
    const run = () => loadGatewayConfig({ REDIS_CLUSTER_NODES: 'redis-0:6379,redis-1,redis-2:70000' });
    expect(run).toThrow(/REDIS_CLUSTER_NODES: "redis-1" is not host:port/);
    expect(run).toThrow(/"redis-2:70000" is not host:port/);
  });
});
