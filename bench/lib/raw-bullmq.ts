/**
 * The queue's anchor: raw BullMQ on the same Redis, no Duet. `ROLE=producer` adds `JOBS` jobs,
 * `CONCURRENCY` at a time; `ROLE=consumer` runs a worker with an empty processor until `JOBS`
 * jobs completed. Each prints `{ jobs, startedAt, endedAt }` (wall clock, ms).
 */
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { wallClockMs } from '../../test/fakes/fake-llm-server.ts';

const jobs = Number(process.env.JOBS);
const concurrency = Number(process.env.CONCURRENCY ?? 50);
const connection = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
const opts = { connection, prefix: process.env.PREFIX! };
const startedAt = wallClockMs();
if (process.env.ROLE === 'producer') {
  const queue = new Queue('anchor', opts);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < jobs) {
        const i = next++;
        await queue.add('job', { i }, { jobId: `j${i}`, removeOnComplete: true });
      }
    }),
  );
  await queue.close();
  console.log(JSON.stringify({ jobs, startedAt, endedAt: wallClockMs() }));
} else {
  let done = 0;
  let firstAt = 0;
  const finished = new Promise<void>((resolve) => {
    const worker = new Worker(
      'anchor',
      async () => {
        if (!firstAt) firstAt = wallClockMs();
      },
      { ...opts, concurrency },
    );
    worker.on('completed', () => {
      done += 1;
      if (done === jobs) void worker.close().then(resolve);
    });
  });
  await finished;
  console.log(JSON.stringify({ jobs, startedAt: firstAt, endedAt: wallClockMs() }));
}
connection.disconnect();
process.exit(0);
