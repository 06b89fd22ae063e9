/**
 * The end of a BullMQ sandboxed processor's child process when the battle worker that forked it
 * is gone (killed, crashed): nobody will take the result, the job's lock is lost and another
 * worker's refit starts over, so the child must not hold a core and a database connection on.
 *
 * Two ways it learns of it:
 * - the channel to the parent closes (`disconnect`), noticed the next time its event loop polls;
 * - a message to the parent fails. That one matters: BullMQ's child reports a job's end with a
 *   send, and an uncaught error with a send before it exits. With the parent gone the report fails
 *   (EPIPE), the failure is itself unhandled, becomes an uncaught error, is reported again, and so
 *   on: a loop of microtasks that never lets the event loop poll, so `disconnect` never fires
 *   (the child spins a whole core with its memory growing until the heap runs out).
 * Any other unhandled rejection is thrown again, as Node would: BullMQ reports it and exits. An
 * EPIPE from a database or Redis socket while the parent lives is one of those.
 */
import { readFileSync } from 'node:fs';

const SEND_FAILED = new Set(['EPIPE', 'ECONNRESET', 'ERR_IPC_CHANNEL_CLOSED', 'ERR_IPC_DISCONNECTED']);

/** This process's parent now (Node's `process.ppid` is read once, at start): Linux's /proc, else null. */
export function currentParentPid(): number | null {
  try {
    // The fourth field of /proc/<pid>/stat is the parent's pid (after "pid (comm) state").
    return Number(readFileSync('/proc/self/stat', 'utf8').replace(/^.*\) /s, '').split(' ')[1]);
  } catch {
    return null;
  }
}

/** Whether the process that forked this one (pid `parent`) is gone: this one was handed to another parent. */
export function parentGone(parent: number): boolean {
  const now = currentParentPid();
  if (now !== null) return now !== parent;
  try {
    process.kill(parent, 0);
    return false;
  } catch {
    return true;
  }
}

/** Whether an unhandled rejection is a failed message to a parent that is gone. */
function sendToGoneParent(reason: unknown, parent: number): boolean {
  if (process.connected === false) return true;
  const code = reason && typeof reason === 'object' ? (reason as { code?: unknown }).code : undefined;
  return typeof code === 'string' && SEND_FAILED.has(code) && parentGone(parent);
}

/** Ends this process when its parent is gone. Installed once, as the process starts (sandbox-guard.ts). */
export function endWithParent(): void {
  const parent = process.ppid;
  process.once('disconnect', () => process.exit(1));
  process.on('unhandledRejection', (reason) => {
    if (sendToGoneParent(reason, parent)) process.exit(1);
    throw reason;
  });
}
