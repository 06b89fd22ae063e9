import { z } from 'zod';

/**
 * `GET /api/admin/now`: the campaign at a glance, as the console's first screen shows it, read at
 * most a few seconds ago: the battle queue, the pace of battles, votes and tokens, each model's
 * health, and today's spend against the budgets.
 */
export const ZAdminNowSchema = z.object({
  /** When these figures were read (ISO). */
  at: z.string(),
  battles: z.object({
    running: z.number().int(),
    waiting: z.number().int(),
    /** How long the oldest waiting battle has waited, in seconds (0: none waits). */
    oldestWaitingSeconds: z.number(),
    /** Battles created over the last minute. */
    perMinute: z.number().int(),
  }),
  /** Votes stored over the last minute. */
  votesPerMinute: z.number().int(),
  /** Output tokens of the answers stored over the last minute, a second. */
  tokensPerSecond: z.number(),
  models: z.array(
    z.object({
      id: z.string(),
      label: z.string(),
      /** Drawn into new battles. */
      enabled: z.boolean(),
      breaker: z.enum(['closed', 'open', 'probing']),
      /** Answers stored over the last five minutes, and how many of them failed. */
      answers5m: z.number().int(),
      errors5m: z.number().int(),
    }),
  ),
  spend: z.object({
    day: z.string(),
    timeZone: z.string(),
    /** Settled today in US dollars, by model id and `*` for every model. */
    settled: z.record(z.string(), z.number()),
    /** Reserved for battles under way, the same way. */
    reserved: z.record(z.string(), z.number()),
    budgets: z.object({ overallUsdPerDay: z.number(), models: z.record(z.string(), z.number()) }),
  }),
});
export type AdminNow = z.infer<typeof ZAdminNowSchema>;

/** A daily quota, 0 for none, at most a million. */
const ZQuotaSchema = z.number().int().min(0).max(1_000_000);

/** `PUT /api/admin/quotas`: quotas over the settings for every gateway; null goes back to the setting. */
export const ZQuotasChangeSchema = z
  .object({ anonPerDay: ZQuotaSchema.nullable().optional(), userPerDay: ZQuotaSchema.nullable().optional() })
  .strict()
  .refine((q) => Object.keys(q).length > 0, 'Nothing to change');
export type QuotasChange = z.infer<typeof ZQuotasChangeSchema>;

/** `GET /api/admin/quotas` (and what `PUT` answers): the quotas in force, the settings, and today's refusals. */
export const ZQuotasReportSchema = z.object({
  anonPerDay: z.number().int(),
  userPerDay: z.number().int(),
  /** QUOTA_ANON_PER_DAY and QUOTA_USER_PER_DAY, what `null` goes back to. */
  settings: z.object({ anonPerDay: z.number().int(), userPerDay: z.number().int() }),
  /** Today (the budgets' day): questions asked within the quotas, and refused past them. */
  today: z.object({ day: z.string(), asked: z.number().int(), refused: z.number().int() }),
});
export type QuotasReport = z.infer<typeof ZQuotasReportSchema>;
