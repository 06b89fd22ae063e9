import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDuet } from '../helpers/duet.ts';
import { startTestDuet } from '../helpers/duet.ts';

/** A built client of three files, enough for the gateway to serve it. */
function fakeClientDist(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'duet-dist-'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Duet</title>');
  writeFileSync(path.join(dir, 'app.js'), 'console.log(1);');
  writeFileSync(path.join(dir, 'app.js.map'), '{"version":3,"sources":["src/secret.ts"]}');
  return dir;
}

describe('what the gateway gives away', () => {
  let duet: TestDuet;
  let withMaps: TestDuet;
  beforeAll(async () => {
    const dist = fakeClientDist();
    duet = await startTestDuet({ noWorker: true, env: { CLIENT_DIST: dist } });
    withMaps = await startTestDuet({ noWorker: true, env: { CLIENT_DIST: dist, SERVE_SOURCE_MAPS: 'true' } });
  });
  afterAll(async () => {
    await duet?.close();
    await withMaps?.close();
  });

  it('serves the client but not its source maps, unless configured', async () => {
    expect((await fetch(`${duet.url}/app.js`)).status).toBe(200);
    const map = await fetch(`${duet.url}/app.js.map`);
    expect(map.status).toBe(404);
    expect(await map.json()).toMatchObject({ error: { code: 'not_found' } });
    expect((await fetch(`${withMaps.url}/app.js.map`)).status).toBe(200);
  });

  it('lets the page connect and load images only from its own origin and the services it needs', async () => {
    const csp = (await fetch(`${duet.url}/`)).headers.get('content-security-policy') ?? '';
    const directive = (name: string) => csp.split(';').map((d) => d.trim()).find((d) => d.startsWith(`${name} `)) ?? '';
    expect(directive('connect-src').split(' ')).not.toContain('ws:');
    expect(directive('connect-src').split(' ')).not.toContain('wss:');
    expect(directive('img-src').split(' ')).not.toContain('https:');
    expect(directive('connect-src')).toContain("'self'");
  });
});
