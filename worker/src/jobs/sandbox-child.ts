/**
 * The end of a BullMQ sandboxed processor's child process when the battle worker that forked it
 * is gone (killed, crashed): nobody will take the result, the job's lock is lost and another
 * worker's refit starts over, so the child must not hold a core and a database connection on.
 *
 * Two ways it learns of it:
 * - the channel to the parent closes (`disconnect`), noticed the next time its event loop polls;
 * - a message to the parent fails (EPIPE, or the channel already closed). That one matters:
 *   BullMQ's child reports a job's end with a send, and on an uncaught error it reports the error
 *   with a send and only then exits. With the parent gone the report fails, the failure is itself
 *   unhandled, becomes an uncaught error, is reported again, and so on: a loop of microtasks that
 *   never lets the event loop poll, so `disconnect` never fires (measured: a child at 100 % of a
 *   core with its memory growing by ~100 MB/s, until the heap runs out).
 * Any other unhandled rejection is thrown again, as Node would: BullMQ reports it and exits.
 */
let installed = false;

const IPC_GONE = new Set(['EPIPE', 'ECONNRESET', 'ERR_IPC_CHANNEL_CLOSED', 'ERR_IPC_DISCONNECTED']);

/** Whether `reason` says the channel to the parent is gone. */
export function parentGone(reason: unknown): boolean {
  const code = reason && typeof reason === 'object' ? (reason as { code?: unknown }).code : undefined;
  return !process.connected || (typeof code === 'string' && IPC_GONE.has(code));
}

/** Ends this process when its parent is gone; once per process, from the processor's first job. */
export function endWithParent(): void {
  if (installed) return;
  installed = true;
  process.once('disconnect', () => process.exit(1));
  process.on('unhandledRejection', (reason) => {
    if (parentGone(reason)) process.exit(1);
    throw reason;
  });
}
