/**
 * A BullMQ worker whose one job runs in a sandboxed child, forked with the battle worker's own
 * flags (its guard included), as the battle worker runs the refit, for a test to kill this process
 * while the child loads or computes. `SANDBOX_PROCESSOR` names the stand-in processor in this folder:
 * `busy` (the default, busy-sandbox.processor.ts) or `slow-load` (slow-load-sandbox.processor.ts).
 *
 *   REDIS_URL=… PREFIX=… BUSY_MS=3000 BUSY_MARK=/tmp/file tsx test/fakes/sandbox-parent.ts
 */
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { SANDBOX_EXEC_ARGV } from '../../worker/src/jobs/leaderboard-worker.ts';

const connection = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
const prefix = process.env.PREFIX ?? 'sandbox-parent';
const processor = process.env.SANDBOX_PROCESSOR === 'slow-load' ? 'slow-load' : 'busy';
const queue = new Queue('busy', { connection, prefix });
new Worker('busy', new URL(`./${processor}-sandbox.processor.ts`, import.meta.url), {
  connection,
  prefix,
  workerForkOptions: { execArgv: SANDBOX_EXEC_ARGV, env: process.env },
});
await queue.add('busy', {});
