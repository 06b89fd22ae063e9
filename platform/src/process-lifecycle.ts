import { Counter } from 'prom-client';
import type { Registry } from 'prom-client';

/** What these helpers log through (a pino logger; kept structural: platform does not load pino). */
export interface LifecycleLogger {
  info: (obj: object, msg: string) => void;
  error: (obj: object, msg: string) => void;
  fatal: (obj: object, msg: string) => void;
  /** Calls back once every line logged so far is written (pino's `flush`). */
  flush: (cb: (err?: Error) => void) => void;
}

/** The longest an exit waits for the log to be written. */
const FLUSH_BOUND_MS = 2_000;

/**
 * Exits with `code` once the lines logged so far are written. With an asynchronous destination the
 * last line may still be on its way when the process ends: pino's own flush at exit skips a write
 * already under way, so the process waits for it here (at most {@link FLUSH_BOUND_MS}).
 */
function exitAfterLog(logger: LifecycleLogger, code: number): void {
  const exit = () => process.exit(code);
  setTimeout(exit, FLUSH_BOUND_MS);
  logger.flush(exit);
}

/**
 * A start that cannot go on for a reason the operator fixes by changing a setting (a port another
 * process holds): its message says what to change, and `startOrExit` logs it as one line.
 */
export class StartError extends Error {
  override name = 'StartError';
}

/**
 * Runs a process's start. A `StartError` is logged as one fatal line, its message, and the process
 * exits with 1 once it is written; any other failure passes on (and ends the process as an
 * uncaught exception would, with its stack).
 */
export async function startOrExit<T>(logger: LifecycleLogger, start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (err) {
    if (!(err instanceof StartError)) throw err;
    logger.fatal({}, err.message);
    exitAfterLog(logger, 1);
    return new Promise<never>(() => undefined);
  }
}

/** Promise rejections nothing handled, in this process so far. */
let unhandledRejections = 0;

/**
 * What a gateway or worker process does with a failure nothing caught. A promise rejection
 * nobody handled failed one operation (a publish while Redis was away, a library's stray
 * promise): it is logged with its error and counted (`duet_unhandled_rejections_total`), and the
 * process goes on serving its viewers and battles instead of dropping them all, as Node would by
 * default. An exception nothing caught left the process in an unknown state: it is logged as
 * `fatal` and the process exits with 1 once its log is written, for its supervisor to start it
 * again.
 */
export function handleProcessFaults(logger: LifecycleLogger): void {
  process.on('unhandledRejection', (reason) => {
    unhandledRejections += 1;
    logger.error({ err: reason }, 'unhandled promise rejection: that operation failed, the process goes on');
  });
  process.on('uncaughtException', (err, origin) => {
    logger.fatal({ err, origin }, 'uncaught exception: exiting');
    exitAfterLog(logger, 1);
  });
}

/** `duet_unhandled_rejections_total` in `registry`, read from this process's count at each scrape. */
export function unhandledRejectionsCounter(registry: Registry): void {
  new Counter({
    name: 'duet_unhandled_rejections_total',
    help: 'Promise rejections nothing handled in this process (each logged; the process went on)',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(unhandledRejections);
    },
  });
}

export interface StopOptions {
  /** `gateway` or `worker`: its lines read `gateway shutting down`, `gateway stopped`. */
  name: string;
  /** The longest a shutdown may take: past it the process exits with 1 whatever is left. */
  timeoutMs: number;
  /** Stops the process's work (within the bound); the process exits once it settles. */
  close: () => Promise<void>;
}

/**
 * Stops the process on SIGINT or SIGTERM (the first one; later ones change nothing): `close`,
 * then exit 0, or 1 when it fails or outlasts `timeoutMs`. Its last line, `<name> stopped`, is
 * logged just before the exit, which waits for it to be written.
 */
export function stopOnSignals(logger: LifecycleLogger, o: StopOptions): void {
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      logger.info({ signal, timeoutMs: o.timeoutMs }, `${o.name} shutting down`);
      // Whatever happens, the process is gone within the bound.
      setTimeout(() => {
        logger.error({}, 'shutdown took too long; exiting');
        process.exit(1);
      }, o.timeoutMs).unref();
      o.close().then(
        () => {
          // The last line before the exit.
          logger.info({}, `${o.name} stopped`);
          exitAfterLog(logger, 0);
        },
        (err: unknown) => {
          logger.error({ err }, 'shutdown failed');
          exitAfterLog(logger, 1);
        },
      );
    });
  }
}
