import type { Queue } from 'bullmq';

/** A periodic job: one scheduler in Redis for all workers (its id makes it one). */
export interface Schedule {
  queue: Queue;
  id: string;
  everyMs: number;
  /** The name of the job it adds. */
  job: string;
}

/** Writes the schedule (again: it lives in Redis, so after Redis lost it); the next run keeps its time. */
export async function writeSchedule(s: Schedule): Promise<void> {
  await s.queue.upsertJobScheduler(s.id, { every: s.everyMs }, { name: s.job, opts: { removeOnComplete: 50, removeOnFail: 50 } });
}

/** Whether any of `schedules` is gone from Redis. */
export async function anyScheduleMissing(schedules: readonly Schedule[]): Promise<boolean> {
  const found = await Promise.all(schedules.map((s) => s.queue.getJobScheduler(s.id)));
  return found.some((scheduler) => scheduler === undefined);
}
