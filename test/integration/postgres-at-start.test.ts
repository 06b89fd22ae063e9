import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import type { ErrorResponse } from '@duet/contracts';
import { postJson } from '../helpers/api.ts';
import { startGatewayProcess } from '../helpers/gateway-process.ts';
import { freePort } from '../helpers/private-services.ts';
import { waitFor } from '../helpers/wait.ts';
import type { TestDatabase } from '../helpers/test-db.ts';
import { createTestDatabase } from '../helpers/test-db.ts';

const QUESTION = { tool: 'anything-question', text: 'Why is the sky blue?', lang: 'en' };

/** PostgreSQL "comes up" on `port`: a forwarder to the real one at `real`. */
async function forwardTo(real: URL, port: number): Promise<net.Server> {
  const forwarder = net.createServer((client) => {
    const upstream = net.connect(Number(real.port || 5432), real.hostname);
    for (const [socket, other] of [[client, upstream], [upstream, client]] as const) {
      socket.on('error', () => undefined);
      socket.on('close', () => other.destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => forwarder.listen(port, '127.0.0.1', resolve));
  return forwarder;
}

describe('PostgreSQL not answering when a gateway starts', () => {
  let db: TestDatabase | undefined;
  let forwarder: net.Server | undefined;
  afterAll(async () => {
    forwarder?.close();
    await db?.drop();
  });

  it('the gateway waits for it, saying so, and starts once it answers', async () => {
    db = await createTestDatabase();
    const real = new URL(db.url);
    // Nothing listens on this port yet: every connection is refused, as from a database host
    // still starting.
    const port = await freePort();
    const unanswered = new URL(db.url);
    unanswered.port = String(port);
    let output = () => '';
    const starting = startGatewayProcess({
      env: { DATABASE_URL: unanswered.toString(), MIGRATE_ON_START: 'true' },
      startTimeoutMs: 30_000,
      onSpawn: (o) => (output = o),
    });
    starting.catch(() => undefined);
    // PostgreSQL comes up only once the gateway has found it not answering (a busy machine may take
    // seconds to start the process at all), and a little later.
    await waitFor(() => output().includes('PostgreSQL does not answer'), { what: 'the gateway to find PostgreSQL not answering', timeoutMs: 30_000 });
    await sleep(1_000);
    forwarder = await forwardTo(real, port);
    // It did not exit meanwhile (that rejects `starting`), and it says what it waited for.
    const gateway = await starting;
    try {
      expect(gateway.output()).toContain('PostgreSQL does not answer: waiting for it to start');
      expect(gateway.output()).toContain('PostgreSQL answers: migrations applied');
      expect((await fetch(`${gateway.url}/readyz`)).status).toBe(200);
    } finally {
      await gateway.stop();
    }
  }, 60_000);

  it('without migrations at start (MIGRATE_ON_START=false) the gateway starts, not ready and refusing battles with 503, and serves once PostgreSQL answers', async () => {
    const migrated = await createTestDatabase();
    const port = await freePort();
    const unanswered = new URL(migrated.url);
    unanswered.port = String(port);
    let gateway: Awaited<ReturnType<typeof startGatewayProcess>> | undefined;
    let late: net.Server | undefined;
    try {
      gateway = await startGatewayProcess({ env: { DATABASE_URL: unanswered.toString(), MIGRATE_ON_START: 'false' } });
      // Up, but not ready: a load balancer sends it nothing yet, and a request that comes anyway is refused.
      expect((await fetch(`${gateway.url}/readyz`)).status).toBe(503);
      const refused = await postJson<ErrorResponse>(`${gateway.url}/api/battles`, QUESTION);
      expect(refused.status).toBe(503);
      expect(refused.body.error.code).toBe('unavailable');
      expect(gateway.exit()).toBeNull();

      late = await forwardTo(new URL(migrated.url), port);
      const g = gateway;
      await waitFor(async () => (await fetch(`${g.url}/readyz`)).status === 200, { what: 'the gateway ready once PostgreSQL answers', timeoutMs: 20_000 });
      const created = await postJson(`${gateway.url}/api/battles`, QUESTION);
      expect(created.status).toBe(202);
    } finally {
      await gateway?.stop();
      late?.close();
      await migrated.drop();
    }
  }, 60_000);
});
