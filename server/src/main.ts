import { handleProcessFaults, startOrExit, stopOnSignals } from '@duet/platform/process-lifecycle';
import { pino } from 'pino';
import { startGateway } from './app.ts';
import { loadGatewayConfig } from './config.ts';
import { migrateWhenReachable } from './infra/migrate.ts';

const config = loadGatewayConfig();
// Lines leave asynchronously: those written while a write is under way go out with it, one write
// for many under load instead of one each; what is still buffered is written when the process exits.
const logger = pino({ level: config.logLevel }, pino.destination({ sync: false }));
handleProcessFaults(logger);
if (config.demoModels) logger.warn('no provider keys configured: the built-in demo models will answer');
if (config.accounts.mode === 'disabled') {
  logger.warn('accounts are off: set FIREBASE_AUTH_EMULATOR_HOST (development) or Firebase credentials to enable signup and login');
} else if (config.accounts.mode === 'emulator') {
  logger.warn({ emulator: config.accounts.emulatorHost }, 'accounts use the Firebase Auth Emulator: its tokens are unsigned, never run this in production');
}
if (config.migrateOnStart) await migrateWhenReachable(config.databaseUrl, logger);

const gateway = await startOrExit(logger, () => startGateway(config, logger));

stopOnSignals(logger, { name: 'gateway', timeoutMs: config.shutdownTimeoutMs, close: () => gateway.close(config.shutdownTimeoutMs - 1_000) });
