import { handleProcessFaults, startOrExit, stopOnSignals } from '@duet/platform/process-lifecycle';
import { pino } from 'pino';
import { loadWorkerConfig } from './config.ts';
import { startWorker } from './worker.ts';

const config = loadWorkerConfig();
// Lines leave asynchronously: those written while a write is under way go out with it, one write
// for many under load instead of one each; what is still buffered is written when the process exits.
const logger = pino({ level: config.logLevel }, pino.destination({ sync: false }));
handleProcessFaults(logger);
const worker = await startOrExit(logger, () => startWorker(config, logger));

stopOnSignals(logger, { name: 'worker', timeoutMs: config.shutdownTimeoutMs, close: () => worker.close(config.shutdownTimeoutMs - 3_000) });
