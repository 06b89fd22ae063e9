import { pino } from 'pino';
import { startGateway } from './app.ts';
import { loadGatewayConfig } from './config.ts';
import { migrate } from './infra/migrate.ts';

const config = loadGatewayConfig();
// Lines leave asynchronously: those written while a write is under way go out with it, one write
// for many under load instead of one each; what is still buffered is written when the process exits.
const logger = pino({ level: config.logLevel }, pino.destination({ sync: false }));
if (config.demoModels) logger.warn('no provider keys configured: the built-in demo models will answer');
if (config.accounts.mode === 'disabled') {
  logger.warn('accounts are off: set FIREBASE_AUTH_EMULATOR_HOST (development) or Firebase credentials to enable signup and login');
} else if (config.accounts.mode === 'emulator') {
  logger.warn({ emulator: config.accounts.emulatorHost }, 'accounts use the Firebase Auth Emulator: its tokens are unsigned, never run this in production');
}
if (config.migrateOnStart) await migrate(config.databaseUrl, (msg) => logger.debug(msg));

const gateway = await startGateway(config, logger);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, timeoutMs: config.shutdownTimeoutMs }, 'gateway shutting down');
    // Whatever happens, the process is gone within the bound.
    setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs).unref();
    gateway.close(config.shutdownTimeoutMs - 1_000).then(
      () => {
        // The last line before the exit: still written, from the buffer, as the process ends.
        logger.info('gateway stopped');
        process.exit(0);
      },
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}
