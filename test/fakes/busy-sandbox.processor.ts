/**
 * A sandboxed processor that computes without a pause for `BUSY_MS` and returns, as a refit's fit
 * does: while it computes, its event loop never polls, so it cannot see its parent go. It appends
 * `computing <pid>` to the file `BUSY_MARK` when it starts and `computed` when it is done.
 */
import { appendFileSync } from 'node:fs';
import { endWithParent } from '../../worker/src/jobs/sandbox-child.ts';

export default async function busy(): Promise<{ pid: number }> {
  endWithParent();
  const mark = process.env.BUSY_MARK;
  if (mark) appendFileSync(mark, `computing ${process.pid}\n`);
  const until = Date.now() + Number(process.env.BUSY_MS ?? 3000);
  while (Date.now() < until) {
    // computing
  }
  if (mark) appendFileSync(mark, 'computed\n');
  return { pid: process.pid };
}
