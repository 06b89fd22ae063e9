/**
 * A BullMQ worker whose one job runs in a sandboxed child (test/fakes/busy-sandbox.processor.ts),
 * as the battle worker runs the refit, for a test to kill this process while the child computes.
 *
 *   REDIS_URL=… PREFIX=… BUSY_MS=3000 BUSY_MARK=/tmp/file tsx test/fakes/sandbox-parent.ts
 */
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';

const connection = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
const prefix = process.env.PREFIX ?? 'sandbox-parent';
const queue = new Queue('busy', { connection, prefix });
new Worker('busy', new URL('./busy-sandbox.processor.ts', import.meta.url), {
  connection,
  prefix,
  workerForkOptions: { execArgv: ['--import', 'tsx'], env: process.env },
});
await queue.add('busy', {});
