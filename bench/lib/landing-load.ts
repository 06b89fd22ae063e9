/**
 * Visitors arriving from a campaign's link, each a new browser with nothing cached: `CONCURRENCY`
 * visitors at once, each loading `PAGE` (the app shell) and then every file of `FILES` (a JSON
 * array of paths), six at a time over keep-alive connections of its own as a browser does, with
 * the browser's `Accept-Encoding`, then the next visitor, for `WARMUP_MS` and then `DURATION_MS`
 * (see `closed-loop.ts`). A visit fails unless every answer is 200 in the encoding asked for first
 * that the server offers (`br`, else `gzip`). Prints a `LoopResult` with the bytes received per
 * visit and the encodings seen.
 */
import http from 'node:http';
import { browserGet } from './browser-get.ts';
import { closedLoop } from './closed-loop.ts';

const PARALLEL = 6;

const target = new URL(process.env.GATEWAY_URL!);
const page = process.env.PAGE!;
const files = JSON.parse(process.env.FILES!) as string[];
let bytes = 0;
let visits = 0;
const encodings: Record<string, number> = {};

const get = (agent: http.Agent, path: string) => browserGet({ host: target.hostname, port: target.port, agent }, path);

async function visit(): Promise<true | string> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: PARALLEL });
  try {
    const answers = [await get(agent, page)];
    answers.push(...(await Promise.all(files.map((f) => get(agent, `/${f}`)))));
    visits += 1;
    for (const a of answers) {
      bytes += a.bytes;
      encodings[a.encoding] = (encodings[a.encoding] ?? 0) + 1;
    }
    const bad = answers.find((a) => a.status !== 200);
    if (bad) return `HTTP ${bad.status}`;
    // Servers leave files under 1 KB as they are: only a larger one sent whole counts against the visit.
    return answers.every((a) => a.encoding !== 'identity' || a.bytes < 1024) ? true : 'not compressed';
  } finally {
    agent.destroy();
  }
}

const result = await closedLoop({ concurrency: Number(process.env.CONCURRENCY), warmupMs: Number(process.env.WARMUP_MS), durationMs: Number(process.env.DURATION_MS), call: visit });
console.log(JSON.stringify({ ...result, bytesPerVisit: visits > 0 ? Math.round(bytes / visits) : 0, encodings }));
