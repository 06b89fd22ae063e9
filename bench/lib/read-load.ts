/**
 * Reads through the HTTP API: `CONCURRENCY` readers at once, each asking for the next path of
 * `PATHS` (a JSON array, taken in turn; read i from gateway i mod n of `GATEWAY_URL`) as soon as
 * its last answer was read, for `WARMUP_MS` and then `DURATION_MS`. Asks for gzip, as browsers
 * do. Prints a `LoopResult`.
 */
import http from 'node:http';
import { closedLoop } from './closed-loop.ts';
import { gatewayTargets } from './gateway-targets.ts';

const concurrency = Number(process.env.CONCURRENCY);
const targets = gatewayTargets(concurrency);
const paths = JSON.parse(process.env.PATHS!) as string[];
let next = 0;

const get = (i: number) =>
  new Promise<number>((resolve, reject) => {
    const { host, port, agent } = targets[i % targets.length]!;
    const req = http.request({ host, port, path: paths[i % paths.length]!, agent, headers: { 'accept-encoding': 'gzip' } }, (res) => {
      res.on('data', () => undefined);
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });

const result = await closedLoop({
  concurrency,
  warmupMs: Number(process.env.WARMUP_MS),
  durationMs: Number(process.env.DURATION_MS),
  call: async () => {
    const status = await get(next++);
    return status === 200 ? true : `HTTP ${status}`;
  },
});
for (const t of targets) t.agent.destroy();
console.log(JSON.stringify(result));
