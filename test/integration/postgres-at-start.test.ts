import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { startGatewayProcess } from '../helpers/gateway-process.ts';
import { freePort } from '../helpers/private-services.ts';
import type { TestDatabase } from '../helpers/test-db.ts';
import { createTestDatabase } from '../helpers/test-db.ts';

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
    const starting = startGatewayProcess({ env: { DATABASE_URL: unanswered.toString(), MIGRATE_ON_START: 'true' }, startTimeoutMs: 30_000 });
    starting.catch(() => undefined);
    await sleep(3_000);
    // PostgreSQL "comes up" on that port: a forwarder to the real one.
    forwarder = net.createServer((client) => {
      const upstream = net.connect(Number(real.port || 5432), real.hostname);
      for (const [socket, other] of [[client, upstream], [upstream, client]] as const) {
        socket.on('error', () => undefined);
        socket.on('close', () => other.destroy());
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => forwarder!.listen(port, '127.0.0.1', resolve));
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
});
