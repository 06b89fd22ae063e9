import { z } from 'zod';

/** Whether `zone` is a time zone this Node (and so PostgreSQL's IANA names) knows. */
function knownTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The spend settings gateway and worker both read: the overall budget, and the day it counts by. */
export const ZBudgetEnvSchema = z.object({
  /** What every model together may spend a day, in US dollars (0: no overall budget). */
  BUDGET_USD_PER_DAY: z.coerce.number().nonnegative('a budget is never negative').max(10_000_000).default(0),
  /** The time zone whose midnight starts a budget's day (an IANA name: `UTC`, `Asia/Seoul`). */
  BUDGET_TIME_ZONE: z.string().default('UTC').refine(knownTimeZone, { message: 'not a time zone this machine knows (an IANA name, e.g. Asia/Seoul)' }),
});
