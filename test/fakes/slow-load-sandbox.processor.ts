/**
 * A sandboxed processor that takes long to load, as the refit's processor does under tsx (its
 * imports compile on the way): it appends `loading <pid>` to the file `BUSY_MARK`, then finishes
 * loading only once its parent is gone (or `BUSY_MS` passed), so BullMQ's "ready" message to the
 * parent always comes after the parent's death.
 */
import { appendFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { parentGone } from '../../worker/src/jobs/sandbox-child.ts';

const parent = process.ppid;
const mark = process.env.BUSY_MARK;
if (mark) appendFileSync(mark, `loading ${process.pid}\n`);
const until = Date.now() + Number(process.env.BUSY_MS ?? 30_000);
while (Date.now() < until && !parentGone(parent)) await sleep(10);
if (mark) appendFileSync(mark, 'loaded\n');

export default async function loaded(): Promise<{ pid: number }> {
  return { pid: process.pid };
}
