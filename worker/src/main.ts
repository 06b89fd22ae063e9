import { pino } from 'pino';
import { loadWorkerConfig } from './config.ts';
import { startWorker } from './worker.ts';

const config = loadWorkerConfig();
// Lines leave asynchronously: those written while a write is under way go out with it, one write
// for many under load instead of one each; what is still buffered is written when the process exits.
const logger = pino({ level: config.logLevel }, pino.destination({ sync: false }));
const worker = await startWorker(config, logger);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, timeoutMs: config.shutdownTimeoutMs }, 'worker shutting down');
    // Whatever happens, the process is gone within the bound.
    setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs).unref();
    worker.close(config.shutdownTimeoutMs - 3_000).then(
      () => {
        // The last line before the exit: still written, from the buffer, as the process ends.
        logger.info('worker stopped');
        process.exit(0);
      },
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}
