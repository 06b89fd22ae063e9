import { z } from 'zod';

/** A budget in US dollars a day; null goes back to the setting (BUDGET_USD_PER_DAY, the roster's). */
const ZBudgetUsdSchema = z.number().nonnegative('a budget is never negative').max(10_000_000).nullable();

/** `PUT /api/admin/budgets`: the overall budget and models' own, over the settings, for every gateway. 0: none. */
export const ZBudgetsChangeSchema = z
  .object({
    overallUsdPerDay: ZBudgetUsdSchema.optional(),
    models: z.record(z.string().min(1).max(100), ZBudgetUsdSchema).optional(),
  })
  .strict();
export type BudgetsChange = z.infer<typeof ZBudgetsChangeSchema>;

/** The budgets in force, in US dollars a day (0: none). */
export const ZBudgetsSchema = z.object({ overallUsdPerDay: z.number(), models: z.record(z.string(), z.number()) });

/** `GET /api/admin/spend`: today's budgets and spend (reserved and settled, `*` for every model) and this hour's. */
export const ZSpendReportSchema = z.object({
  day: z.string(),
  timeZone: z.string(),
  budgets: ZBudgetsSchema,
  today: z.object({ reserved: z.record(z.string(), z.number()), settled: z.record(z.string(), z.number()) }),
  /** This UTC hour's spend per model (`*` for every model), from the spend ledger. */
  hour: z.object({ start: z.string(), settled: z.record(z.string(), z.number()) }),
});
export type SpendReport = z.infer<typeof ZSpendReportSchema>;

/** `GET /api/admin/models/health`: each roster model's breaker, its sliding window, and the breaker's settings. */
export const ZModelHealthReportSchema = z.object({
  models: z.array(
    z.object({
      id: z.string(),
      label: z.string(),
      /** `open`: out of the draw until `until`; `probing`: one battle is deciding whether it comes back. */
      state: z.enum(['closed', 'open', 'probing']),
      /** When an open model may be probed, or when an unanswered probe may be sent again. */
      until: z.string().nullable(),
      window: z.object({ ok: z.number().int(), failed: z.number().int() }),
    }),
  ),
  settings: z.object({ enabled: z.boolean(), failureShare: z.number(), minSides: z.number().int(), windowSeconds: z.number().int(), cooldownSeconds: z.number().int() }),
});
export type ModelHealthReport = z.infer<typeof ZModelHealthReportSchema>;
