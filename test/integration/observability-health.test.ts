import { connect } from 'node:net';
import type { CreateBattleResponse } from '@duet/contracts';
import { ZReadinessSchema } from '@duet/platform/readiness';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway } from '../../server/src/app.ts';
import { loadGatewayConfig } from '../../server/src/config.ts';
import type { FakeLlmServer } from '../fakes/fake-llm-server.ts';
import { fakeRosterEnv, startFakeLlmServer } from '../fakes/fake-llm-server.ts';
import { postJson } from '../helpers/api.ts';
import type { TestDuet } from '../helpers/duet.ts';
import { startTestDuet } from '../helpers/duet.ts';
import { waitFor } from '../helpers/wait.ts';

const READY = { ok: true, postgres: 'ok', redis: 'ok', migrations: 'ok' };

async function probe(url: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(url, { signal: AbortSignal.timeout(3_000) });
  return { status: res.status, body: await res.json() };
}

/** Whether anything accepts a TCP connection at `url`'s port. */
const accepting = (url: string) =>
  new Promise<boolean>((resolve) => {
    const { hostname, port } = new URL(url);
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

describe('liveness and readiness', () => {
  let fake: FakeLlmServer;
  let duet: TestDuet;

  beforeAll(async () => {
    fake = await startFakeLlmServer();
    duet = await startTestDuet({ env: fakeRosterEnv(fake) });
  });
  afterAll(async () => {
    await duet?.close();
    await fake?.close();
  });

  it('answers /healthz and /readyz on the public port and on the internal ones', async () => {
    for (const base of [duet.url, duet.gateway.metricsUrl, duet.worker!.httpUrl]) {
      expect(await probe(`${base}/healthz`)).toEqual({ status: 200, body: { ok: true } });
      const ready = await probe(`${base}/readyz`);
      expect(ready).toEqual({ status: 200, body: READY });
      expect(ZReadinessSchema.safeParse(ready.body).success).toBe(true);
    }
    // Metrics are never on the public port.
    expect((await fetch(`${duet.url}/metrics`)).status).toBe(404);
  });

  it('is not ready while a migration is missing, and alive all the same', async () => {
    const { rows } = await duet.db.pool.query<{ id: number; name: string; run_on: Date }>('SELECT id, name, run_on FROM pgmigrations ORDER BY id DESC LIMIT 1');
    const last = rows[0]!;
    await duet.db.pool.query('DELETE FROM pgmigrations WHERE id = $1', [last.id]);
    try {
      for (const base of [duet.url, duet.worker!.httpUrl]) {
        expect(await probe(`${base}/readyz`)).toEqual({ status: 503, body: { ...READY, ok: false, migrations: 'pending' } });
        expect((await probe(`${base}/healthz`)).status).toBe(200);
      }
    } finally {
      await duet.db.pool.query('INSERT INTO pgmigrations (id, name, run_on) VALUES ($1, $2, $3)', [last.id, last.name, last.run_on]);
    }
    expect((await probe(`${duet.url}/readyz`)).status).toBe(200);
  });

  it('answers 503 on /readyz while a gateway drains, and 200 on /healthz, until it stops accepting', async () => {
    const gateway = await startGateway(loadGatewayConfig({ ...duet.env, DRAIN_DELAY_MS: '1500' }), pino({ level: 'silent' }));
    expect((await probe(`${gateway.url}/readyz`)).status).toBe(200);
    const closing = gateway.close();
    try {
      const draining = { status: 503, body: { ...READY, ok: false, draining: true } };
      expect(await probe(`${gateway.url}/readyz`)).toEqual(draining);
      expect(await probe(`${gateway.url}/healthz`)).toEqual({ status: 200, body: { ok: true } });
      expect(await probe(`${gateway.metricsUrl}/readyz`)).toEqual(draining);
      // Still serving meanwhile: a visitor whose load balancer has not noticed yet is answered.
      expect((await fetch(`${gateway.url}/api/tools`)).status).toBe(200);
      // Once the delay is over the public port closes; the internal one answers until the end.
      await waitFor(async () => !(await accepting(gateway.url)), { what: 'the public port to close', timeoutMs: 5_000 });
    } finally {
      await closing;
    }
    expect(await accepting(gateway.metricsUrl)).toBe(false);
  });

  it('answers 503 on the worker’s /readyz while it finishes its battles before stopping', async () => {
    fake.setDefault({ text: Array.from({ length: 60 }, (_, i) => `word${i}`).join(' '), tokensPerSecond: 20 });
    const res = await postJson<CreateBattleResponse>(`${duet.url}/api/battles`, { tool: 'anything-question', text: 'Slowly', lang: 'en' });
    expect(res.status).toBe(202);
    const worker = duet.worker!;
    await waitFor(async () => {
      const { rows } = await duet.db.pool.query('SELECT status FROM battles WHERE id = $1', [res.body.battleId]);
      return rows[0]?.status === 'running';
    }, { what: 'the worker to take the battle' });
    const stopping = duet.stopWorker(1_500);
    try {
      expect(await probe(`${worker.httpUrl}/readyz`)).toEqual({ status: 503, body: { ...READY, ok: false, draining: true } });
      expect(await probe(`${worker.httpUrl}/healthz`)).toEqual({ status: 200, body: { ok: true } });
    } finally {
      await stopping;
    }
    expect(await accepting(worker.httpUrl)).toBe(false);
  });
});
