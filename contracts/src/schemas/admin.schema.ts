import { z } from 'zod';
import { FAMILIES } from '../roster.ts';
import { ZFinishReasonSchema } from './battle.schema.ts';
import { ZBattleInputsSchema, ZLanguageSchema } from './inputs.schema.ts';
import { ZRequestTextSchema } from './text.schema.ts';

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

/** The moderation states an operator's queue lists: never `ok` (public already) nor `erased` (nobody's to show). */
export const MODERATION_QUEUE_STATES = ['flagged', 'pending', 'taken_down'] as const;

/** `GET /api/admin/moderation`: one state's battles, newest first (`flagged` when none is named). */
export const ZModerationQueueQuerySchema = z
  .object({
    state: z.enum(MODERATION_QUEUE_STATES).default('flagged'),
    cursor: ZRequestTextSchema.max(200).optional(),
    limit: z.coerce.number().int().min(1).max(50).default(20),
  })
  .strict();
export type ModerationQueueQuery = z.infer<typeof ZModerationQueueQuerySchema>;

/** One side of a battle in the queue: its model, and its answer as stored (null fields: not stored yet). */
export const ZModerationQueueSideSchema = z.object({
  model: z.string(),
  label: z.string(),
  family: z.enum(FAMILIES),
  text: z.string().nullable(),
  finishReason: ZFinishReasonSchema.nullable(),
  /** Why the side failed (`SIDE_ERROR_CODES`), when it did. */
  errorCode: z.string().nullable(),
});

/** A battle as an operator judges it: question, inputs, image and answers as stored, not masked. */
export const ZModerationQueueItemSchema = z.object({
  id: z.string().uuid(),
  tool: z.string(),
  lang: ZLanguageSchema,
  /** `queued` and `running` battles have no answers yet; only a `finished` one may be approved. */
  status: z.enum(['queued', 'running', 'finished']),
  createdAt: z.string(),
  question: z.object({
    text: z.string(),
    inputs: ZBattleInputsSchema,
    hasImage: z.boolean(),
    /** The operators' image route (`GET /api/admin/battles/:id/image`), whatever the battle's state; null without an image. */
    imageUrl: z.string().nullable(),
  }),
  sides: z.object({ a: ZModerationQueueSideSchema, b: ZModerationQueueSideSchema }),
  moderation: z.object({
    state: z.enum(MODERATION_QUEUE_STATES),
    /** What the moderator found (`sexual`, `violence`, ...), kept when an operator overrides it. */
    categories: z.array(z.string()),
    /** By what the state was decided: `wordlist`, `openai:<model>`, `operator:<actor>`; null while pending. */
    by: z.string().nullable(),
    at: z.string().nullable(),
    /** Why an operator decided it, when they said. */
    reason: z.string().nullable(),
  }),
});
export type ModerationQueueItem = z.infer<typeof ZModerationQueueItemSchema>;

export const ZModerationQueuePageSchema = z.object({
  state: z.enum(MODERATION_QUEUE_STATES),
  battles: z.array(ZModerationQueueItemSchema),
  nextCursor: z.string().nullable(),
});
export type ModerationQueuePage = z.infer<typeof ZModerationQueuePageSchema>;

/** The longest reason an operator may give for a decision. */
export const OPERATOR_REASON_MAX_CHARS = 500;

/** `POST /api/admin/battles/:id/approve|takedown|restore` body, optional as a whole: why, shown in the queue. */
export const ZOperatorDecisionSchema = z
  .object({ reason: ZRequestTextSchema.trim().max(OPERATOR_REASON_MAX_CHARS, `A reason has at most ${OPERATOR_REASON_MAX_CHARS} characters`).optional() })
  .strict();
export type OperatorDecision = z.infer<typeof ZOperatorDecisionSchema>;

/** What an operator's decision on a battle answers. */
export const ZModerationChangeSchema = z.object({ battleId: z.string().uuid(), moderation: z.enum(['ok', 'taken_down']) });
export type ModerationChange = z.infer<typeof ZModerationChangeSchema>;

const ZAuditFieldSchema = ZRequestTextSchema.min(1).max(200);

/** Which audit entries to read: each filter is an exact match, all of them must hold. */
export const ZAuditFilterSchema = z
  .object({
    /** `<subject>.<verb>`: `battle.approve`, `battle.takedown`, `battle.restore`, `model.update`, ... */
    action: ZAuditFieldSchema.optional(),
    /** `token`, `firebase:<uid>`, `cli`. */
    actor: ZAuditFieldSchema.optional(),
    /** A battle id, a model id. */
    target: ZAuditFieldSchema.optional(),
  })
  .strict();
export type AuditFilter = z.infer<typeof ZAuditFilterSchema>;

/** `GET /api/admin/audit`: a page of entries, newest first. `GET /api/admin/audit.jsonl` takes the filters only. */
export const ZAuditQuerySchema = ZAuditFilterSchema.extend({
  cursor: ZRequestTextSchema.max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
}).strict();
export type AuditQuery = z.infer<typeof ZAuditQuerySchema>;

/** One operator action as the audit log shows it; also one line of `audit.jsonl`. */
export const ZAuditEntrySchema = z.object({
  /** Increasing with each entry (a decimal string: it may outgrow a JavaScript number). */
  id: z.string(),
  at: z.string(),
  actor: z.string(),
  action: z.string(),
  target: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
});
export type AuditLogEntry = z.infer<typeof ZAuditEntrySchema>;

export const ZAuditPageSchema = z.object({ entries: z.array(ZAuditEntrySchema), nextCursor: z.string().nullable() });
export type AuditPage = z.infer<typeof ZAuditPageSchema>;
