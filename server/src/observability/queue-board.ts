import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { ALL_QUEUES, bullPrefix } from '@duet/contracts';
import { Queue } from 'bullmq';
import type { Express } from 'express';
import { isCluster } from '@duet/platform/redis-connection';
import type { RedisClient } from '@duet/platform/redis-connection';
import type { Logger } from 'pino';

export interface QueueViews {
  /** Every queue of the deployment (battles, leaderboard, maintenance, moderation). */
  queues: Queue[];
  /** Closes the views this opened (not the battle queue it was given). */
  close: () => Promise<void>;
}

/**
 * The gateway's handles on every queue, for the board and the metrics: the battle queue it already
 * has, and views of the workers' queues on the same connection (no extra connection to Redis).
 */
export function openQueueViews(deps: { connection: RedisClient; redisPrefix: string; battles: Queue; logger: Logger }): QueueViews {
  const opened: Queue[] = [];
  const queues = ALL_QUEUES.map((name) => {
    if (name === deps.battles.name) return deps.battles;
    const queue = new Queue(name, { connection: deps.connection, prefix: bullPrefix(deps.redisPrefix, isCluster(deps.connection)) });
    queue.on('error', (err) => deps.logger.debug({ err: err.message, queue: name }, 'queue view error'));
    opened.push(queue);
    return queue;
  });
  return { queues, close: async () => void (await Promise.all(opened.map((q) => q.close()))) };
}

/**
 * Bull Board for operators, served at `basePath`; mount it behind the operator guard. Its pages
 * load only the gateway's own scripts and styles, so the app's Content-Security-Policy applies
 * unchanged.
 */
export function queueBoard(queues: readonly Queue[], basePath: string): Express {
  const serverAdapter = new ExpressAdapter().setBasePath(basePath);
  createBullBoard({
    queues: queues.map((q) => new BullMQAdapter(q)),
    serverAdapter,
    options: { uiConfig: { boardTitle: 'Duet queues', hideDocsLink: true } },
  });
  const board = serverAdapter.getRouter() as Express;
  board.disable('x-powered-by');
  return board;
}
