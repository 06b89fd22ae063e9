/**
 * Reads through the HTTP API: `CONCURRENCY` readers at once, each asking for the next path of
 * `PATHS` (a JSON array, taken in turn; read i from gateway i mod n of `GATEWAY_URL`) as soon as
 * its last answer was read, for `WARMUP_MS` and then `DURATION_MS`. Asks for the encodings a
 * browser takes (the gateway answers brotli). Prints a `LoopResult` with the bytes received per read.
 */
import { browserGet } from './browser-get.ts';
import { closedLoop } from './closed-loop.ts';
import { gatewayTargets } from './gateway-targets.ts';

const concurrency = Number(process.env.CONCURRENCY);
const targets = gatewayTargets(concurrency);
const paths = JSON.parse(process.env.PATHS!) as string[];
let next = 0;
let bytes = 0;
let reads = 0;

const get = async (i: number): Promise<number> => {
  const answer = await browserGet(targets[i % targets.length]!, paths[i % paths.length]!);
  bytes += answer.bytes;
  reads += 1;
  return answer.status;
};

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
console.log(JSON.stringify({ ...result, bytesPerCall: reads > 0 ? Math.round(bytes / reads) : 0 }));
