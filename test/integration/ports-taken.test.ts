import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewayProcess } from '../helpers/gateway-process.ts';
import { startGatewayProcess } from '../helpers/gateway-process.ts';
import { spawnWorkerProcess } from '../helpers/worker-process.ts';

/** The JSON lines a process wrote, parsed (lines that are not JSON left out). */
const logLines = (output: string): Array<{ level: number; msg: string }> =>
  output
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { level: number; msg: string });

/**
 * A second gateway or worker started on a host where its port is taken (a second worker with the
 * default WORKER_HTTP_PORT beside the first, say) stops with one line that names the port and the
 * setting to change, not an uncaught exception's stack.
 */
describe('a process whose port is taken', () => {
  let holder: Server;
  let taken: number;
  let gateway: GatewayProcess;

  beforeAll(async () => {
    holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    taken = (holder.address() as { port: number }).port;
    gateway = await startGatewayProcess();
  });
  afterAll(async () => {
    await gateway?.stop();
    await new Promise((resolve) => holder?.close(resolve));
  });

  function expectOneLineNaming(output: string, setting: string) {
    const fatal = logLines(output).filter((l) => l.level === 60);
    expect(fatal).toHaveLength(1);
    expect(fatal[0]!.msg).toContain(`port ${taken}`);
    expect(fatal[0]!.msg).toContain(`set ${setting} to a free port`);
    expect(output).not.toContain('uncaught exception');
  }

  it('stops a worker with one line naming WORKER_HTTP_PORT, exit code 1', async () => {
    const worker = spawnWorkerProcess({ ...gateway.env, WORKER_HTTP_PORT: String(taken), WORKER_HTTP_HOST: '127.0.0.1' });
    const code = await new Promise<number | null>((resolve) => worker.child.once('exit', (c) => resolve(c)));
    expect(code).toBe(1);
    expectOneLineNaming(worker.output(), 'WORKER_HTTP_PORT');
  });

  it('stops a gateway with one line naming METRICS_PORT, or PORT, exit code 1', async () => {
    for (const [setting, env] of [
      ['METRICS_PORT', { METRICS_PORT: String(taken), METRICS_HOST: '127.0.0.1' }],
      ['PORT', { PORT: String(taken), HOST: '127.0.0.1' }],
    ] as const) {
      // A gateway that exits before it listens rejects with everything it logged.
      const failed = await startGatewayProcess({ joining: gateway, env }).then(
        () => null,
        (err: Error) => err.message,
      );
      expect(failed).toMatch(/exited early \(1\)/);
      expectOneLineNaming(failed!, setting);
    }
  });
});
