import { pino } from 'pino';
import { loadWorkerConfig } from './config.ts';
import { startWorker } from './worker.ts';

const config = loadWorkerConfig();
const logger = pino({ level: config.logLevel });
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
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}
