/**
 * The anchor: `STREAMS` answers read straight from the fake LLM server with the OpenAI SDK, all
 * at once, as a worker reads them, with nothing after. Each token's delivery lag is the time it
 * is read minus the time the server stamped on it; `firstTextMs` is each stream's time from its
 * request to its first text. Prints `{ tokens, firstLags, firstTextMs, lags, cpuMs }`.
 * `ANCHOR_FETCH=stream`: the SDK given the worker's `fetch` (`worker/src/providers/stream-fetch.ts`)
 * instead of the built-in one: the same parsing, Duet's transport.
 */
import OpenAI from 'openai';
import { readStamps, wallClockMs } from '../../test/fakes/fake-llm-server.ts';
import { streamFetch } from '../../worker/src/providers/stream-fetch.ts';

const streams = Number(process.env.STREAMS);
const client = new OpenAI({ apiKey: process.env.FAKE_API_KEY!, baseURL: process.env.FAKE_BASE_URL!, maxRetries: 0, timeout: 120_000, ...(process.env.ANCHOR_FETCH === 'stream' ? { fetch: streamFetch } : {}) });
const firstLags: number[] = [];
const firstTextMs: number[] = [];
const lags: number[] = [];

async function read(i: number): Promise<void> {
  const t0 = performance.now();
  const stream = await client.chat.completions.create({
    model: 'anchor',
    stream: true,
    messages: [{ role: 'user', content: `Anchor ${i}` }],
  });
  let first = true;
  for await (const chunk of stream) {
    const text = chunk.choices[0]?.delta?.content;
    if (!text) continue;
    if (first) firstTextMs.push(performance.now() - t0);
    const now = wallClockMs();
    for (const stamp of readStamps(text)) {
      lags.push(now - stamp);
      if (first) firstLags.push(now - stamp);
      first = false;
    }
  }
}

const before = process.cpuUsage();
await Promise.all(Array.from({ length: streams }, (_, i) => read(i)));
const used = process.cpuUsage(before);
console.log(JSON.stringify({ tokens: lags.length, firstLags, firstTextMs, lags, cpuMs: (used.user + used.system) / 1000 }));
