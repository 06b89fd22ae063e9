import type { CreateBattleResponse } from '@duet/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { postJson } from '../helpers/api.ts';
import type { GatewayProcess } from '../helpers/gateway-process.ts';
import { startGatewayProcess } from '../helpers/gateway-process.ts';
import { sampleValue, scrape } from '../helpers/prometheus.ts';
import { waitFor } from '../helpers/wait.ts';
import type { WorkerProcess } from '../helpers/worker-process.ts';
import { spawnWorkerProcess } from '../helpers/worker-process.ts';

/** `node` arguments that load the signal-driven faults of `test/fakes/stray-faults.ts`. */
const WITH_FAULTS = ['--import', 'tsx', '--import', './test/fakes/stray-faults.ts'];

/** The JSON log lines of a process whose `msg` is `msg`. */
const linesOf = (output: string, msg: string): Array<Record<string, unknown>> =>
  output
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l.msg === msg);

const REJECTION = 'unhandled promise rejection: that operation failed, the process goes on';

describe('a failure nothing in the process handled', () => {
  const gateways: GatewayProcess[] = [];
  const workers: WorkerProcess[] = [];
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await Promise.all(gateways.map((g) => g.stop()));
  });

  it('a stray promise rejection is logged with its error and counted, and the gateway and worker go on serving and running battles', async () => {
    const gateway = await startGatewayProcess({ nodeArgs: WITH_FAULTS, env: { DEMO_SPEED: '400' } });
    gateways.push(gateway);
    const worker = spawnWorkerProcess(gateway.env, { nodeArgs: WITH_FAULTS });
    workers.push(worker);
    await worker.ready;
    const gatewayMetrics = String(linesOf(gateway.output(), 'gateway listening')[0]?.metrics);
    const workerHttp = String(linesOf(worker.output(), 'worker ready')[0]?.http);
    expect(sampleValue(await scrape(gatewayMetrics), 'duet_unhandled_rejections_total')).toBe(0);

    const rejectionsLogged = (output: () => string, times: number) =>
      waitFor(() => (linesOf(output(), REJECTION).length === times ? linesOf(output(), REJECTION) : undefined), {
        what: `${times} rejection(s) to be logged`,
        timeoutMs: 10_000,
      });
    gateway.child.kill('SIGUSR2');
    worker.child.kill('SIGUSR2');
    const logged = [...(await rejectionsLogged(gateway.output, 1)), ...(await rejectionsLogged(worker.output, 1))];
    // Signals sent together may arrive as one: the worker's second after its first is handled.
    worker.child.kill('SIGUSR2');
    await rejectionsLogged(worker.output, 2);
    for (const line of logged) {
      expect(line).toMatchObject({ level: 50, err: { message: 'a stray rejection' } });
      expect(String((line.err as { stack: string }).stack)).toContain('stray-faults.ts');
    }
    expect(sampleValue(await scrape(gatewayMetrics), 'duet_unhandled_rejections_total')).toBe(1);
    expect(sampleValue(await scrape(workerHttp), 'duet_unhandled_rejections_total')).toBe(2);

    // Both still up: a battle is asked, run and stored after the rejections.
    expect(gateway.exit()).toBeNull();
    const res = await postJson<CreateBattleResponse>(`${gateway.url}/api/battles`, { tool: 'anything-question', text: 'Still there?', lang: 'en' });
    expect(res.status).toBe(202);
    await waitFor(
      async () => {
        const { rows } = await gateway.db.pool.query(`SELECT status FROM battles WHERE id = $1`, [res.body.battleId]);
        return rows[0]?.status === 'finished' || undefined;
      },
      { what: 'the battle to finish', timeoutMs: 20_000 },
    );
    expect(worker.child.exitCode).toBeNull();
  });

  it('an exception nothing caught is logged as fatal, and the gateway exits with 1 for its supervisor to start it again', async () => {
    const gateway = await startGatewayProcess({ nodeArgs: WITH_FAULTS });
    gateways.push(gateway);
    gateway.child.kill('SIGWINCH');
    const ended = await waitFor(() => gateway.exit() ?? undefined, { what: 'the gateway to exit', timeoutMs: 10_000 });
    expect(ended).toEqual({ code: 1, signal: null });
    const fatal = linesOf(gateway.output(), 'uncaught exception: exiting');
    expect(fatal).toHaveLength(1);
    expect(fatal[0]).toMatchObject({ level: 60, origin: 'uncaughtException', err: { message: 'a stray exception' } });
  });
});
