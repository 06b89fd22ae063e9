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

/**
 * Whether any of `schedules` is gone from Redis, or has lost its next run: a scheduler whose next
 * job is gone (a failover that kept some writes and not others) would never run again, since
 * each run adds the one after it. Writing the schedule again adds that job.
 */
export async function anyScheduleMissing(schedules: readonly Schedule[]): Promise<boolean> {
  const whole = await Promise.all(
    schedules.map(async (s) => {
      const scheduler = await s.queue.getJobScheduler(s.id);
      if (!scheduler) return false;
      // BullMQ names a scheduler's next job by its id and the time it is due.
      return typeof scheduler.next !== 'number' || (await s.queue.getJob(`repeat:${s.id}:${scheduler.next}`)) !== undefined;
    }),
  );
  return whole.some((present) => !present);
}
