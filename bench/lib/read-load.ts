/**
 * Reads through the HTTP API: `CONCURRENCY` readers at once, each asking for the next path of
 * `PATHS` (a JSON array, taken in turn) as soon as its last answer was read, for `WARMUP_MS` and
 * then `DURATION_MS`. Asks for gzip, as browsers do. Prints a `LoopResult`.
 */
import http from 'node:http';
import { closedLoop } from './closed-loop.ts';

const url = new URL(process.env.GATEWAY_URL!);
const concurrency = Number(process.env.CONCURRENCY);
const paths = JSON.parse(process.env.PATHS!) as string[];
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
let next = 0;

const get = (path: string) =>
  new Promise<number>((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, path, agent, headers: { 'accept-encoding': 'gzip' } }, (res) => {
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
    const status = await get(paths[next++ % paths.length]!);
    return status === 200 ? true : `HTTP ${status}`;
  },
});
agent.destroy();
console.log(JSON.stringify(result));
