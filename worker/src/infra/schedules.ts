import { oneAtATime } from '@duet/platform/one-at-a-time';
import type { RedisClient } from '@duet/platform/redis-connection';
import type { Queue } from 'bullmq';
import type { Logger } from 'pino';

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

/**
 * Keeps `schedules` in Redis: writes them now, again when the connection comes back after losing
 * Redis, and again whenever a check (every `checkMs`) finds one missing, since Redis can also lose
 * them with the link up (a flush, a failover that kept the connection, a write refused just after a
 * reconnection). Without the sweeper's, lost battle jobs would never be queued again. One writing
 * at a time, however often the connection comes back or a check finds one missing.
 */
export async function keepSchedules(deps: {
  schedules: readonly Schedule[];
  /** The connection the queues use: its losses and returns say when to write again. */
  connection: RedisClient;
  checkMs: number;
  logger: Logger;
}): Promise<{ stop: () => void }> {
  const writeSchedules = oneAtATime(async () => {
    for (const schedule of deps.schedules) await writeSchedule(schedule);
  });
  await writeSchedules();
  let lostRedis = false;
  deps.connection.on('close', () => {
    lostRedis = true;
  });
  deps.connection.on('ready', () => {
    if (!lostRedis) return;
    lostRedis = false;
    writeSchedules().then(
      () => deps.logger.warn('Redis is back: schedules written again'),
      (err: unknown) => deps.logger.error({ err }, 'could not restore the schedules'),
    );
  });
  const checkSchedules = oneAtATime(async () => {
    try {
      if (!(await anyScheduleMissing(deps.schedules))) return;
      await writeSchedules();
      deps.logger.warn('schedules were missing from Redis: written again');
    } catch (err) {
      deps.logger.warn({ err }, 'could not check the schedules');
    }
  });
  const check = setInterval(() => void checkSchedules(), deps.checkMs);
  check.unref();
  return { stop: () => clearInterval(check) };
}
