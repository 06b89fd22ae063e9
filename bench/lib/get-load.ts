/**
 * GETs at a steady rate: one every 1000/RATE ms for SECONDS whatever the answers take (an open
 * loop, as a crowd opening shared links does), path after path of `PATHS` (a JSON array) at
 * `GATEWAY_URL`. Prints `{ ms, statuses, lateMs }`: each answer's time (headers and body read),
 * the count per status, and how late the last request left against its schedule.
 */
import { openLoop } from './open-loop.ts';
const url = process.env.GATEWAY_URL!;
const paths = JSON.parse(process.env.PATHS!) as string[];
const rate = Number(process.env.RATE);
const total = Math.round(rate * Number(process.env.SECONDS));

const ms: number[] = [];
const statuses: Record<string, number> = {};
const get = async (i: number) => {
  const t0 = performance.now();
  const res = await fetch(`${url}${paths[i % paths.length]}`, { headers: { 'accept-language': i % 2 ? 'ko-KR,ko;q=0.9' : 'en-US,en;q=0.9' } });
  await res.arrayBuffer();
  ms.push(performance.now() - t0);
  statuses[res.status] = (statuses[res.status] ?? 0) + 1;
};

const { lateMs } = await openLoop(total, rate, get);
console.log(JSON.stringify({ ms, statuses, lateMs }));
