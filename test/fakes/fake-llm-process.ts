/**
 * The fake LLM server as a process of its own (benchmarks keep the provider apart from what they
 * measure). Prints one JSON line `{ "url", "apiKey", "pid" }` once it listens; every model answers
 * with the scenario given as JSON in `FAKE_SCENARIO`. Stops on SIGTERM.
 */
import { startFakeLlmServer } from './fake-llm-server.ts';
import type { Scenario } from './fake-llm-server.ts';

const fake = await startFakeLlmServer();
fake.setDefault(JSON.parse(process.env.FAKE_SCENARIO ?? '{}') as Partial<Scenario>);
// Benchmarks run thousands of requests: keep no record of them.
setInterval(() => fake.requests.splice(0), 1_000).unref();
console.log(JSON.stringify({ url: fake.url, apiKey: fake.apiKey, pid: process.pid }));
process.on('SIGTERM', () => void fake.close().then(() => process.exit(0)));
