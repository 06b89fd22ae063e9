/**
 * Battles asked over HTTP, `CONCURRENCY` at a time, `BATTLES` in all, as fast as the gateway
 * takes them (no viewers). Prints `{ created, refused, postMs, startedAt, endedAt }`.
 */
import { wallClockMs } from '../../test/fakes/fake-llm-server.ts';

const url = process.env.GATEWAY_URL!;
const battles = Number(process.env.BATTLES);
const concurrency = Number(process.env.CONCURRENCY ?? 50);
const postMs: number[] = [];
let created = 0;
let refused = 0;
let next = 0;
const startedAt = wallClockMs();
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < battles) {
      const i = next++;
      const t0 = performance.now();
      const res = await fetch(`${url}/api/battles`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ tool: 'anything-question', text: `Queue ${i}`, lang: 'en' }),
      });
      await res.arrayBuffer();
      postMs.push(performance.now() - t0);
      if (res.status === 202) created += 1;
      else refused += 1;
    }
  }),
);
console.log(JSON.stringify({ created, refused, postMs, startedAt, endedAt: wallClockMs() }));
