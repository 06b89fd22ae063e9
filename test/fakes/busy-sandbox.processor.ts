/**
 * A sandboxed processor that computes without a pause, as a refit's fit does (its event loop never
 * polls, so it cannot see its parent go), until its parent is gone (or `BUSY_MS` passed), then
 * returns. It appends `computing <pid>` to the file `BUSY_MARK` when it starts and `computed` when
 * it is done.
 */
import { appendFileSync } from 'node:fs';
import { parentGone } from '../../worker/src/jobs/sandbox-child.ts';

export default async function busy(): Promise<{ pid: number }> {
  const parent = process.ppid;
  const mark = process.env.BUSY_MARK;
  if (mark) appendFileSync(mark, `computing ${process.pid}\n`);
  const until = Date.now() + Number(process.env.BUSY_MS ?? 30_000);
  let checked = 0;
  while (Date.now() < until) {
    if (Date.now() - checked < 10) continue;
    checked = Date.now();
    if (parentGone(parent)) break;
  }
  if (mark) appendFileSync(mark, 'computed\n');
  return { pid: process.pid };
}
