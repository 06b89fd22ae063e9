import { z } from 'zod';
import { FAMILIES, PROVIDERS, ZModelSpecSchema } from '../roster.ts';

/** A roster model as PostgreSQL keeps it: its spec, whether battles draw it, and its last change. */
export const ZRosterModelSchema = ZModelSpecSchema.extend({
  /** Drawn into new battles (never while retired). */
  enabled: z.boolean(),
  /** Never drawn again; kept in history and the leaderboards. Final. */
  retired: z.boolean(),
  updatedAt: z.string(),
  /** Who made the last change (`token`, `firebase:<uid>`); null: as seeded from the environment. */
  updatedBy: z.string().nullable(),
});
export type RosterModel = z.infer<typeof ZRosterModelSchema>;

/** A model id: what answers, votes and the leaderboards keep (`openai:gpt-4o`). */
export const ZModelIdSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9][A-Za-z0-9:._/-]*$/, 'letters, digits and : . _ / - only, starting with a letter or digit');
const ZPriceSchema = z.number().nonnegative('a price is never negative').max(10_000);
const ZBudgetSchema = z.number().positive().max(10_000_000);

/** `POST /api/admin/models`: a new model, disabled unless `enabled`. */
export const ZModelCreateSchema = z
  .object({
    id: ZModelIdSchema,
    label: z.string().trim().min(1).max(100),
    provider: z.enum(PROVIDERS),
    model: z.string().trim().min(1).max(200),
    family: z.enum(FAMILIES).default('other'),
    weight: z.number().positive().max(1_000).default(1),
    baseURL: z.string().url().max(500).optional(),
    apiKeyEnv: ZModelSpecSchema.shape.apiKeyEnv,
    inputUsdPerMTok: ZPriceSchema.default(0),
    outputUsdPerMTok: ZPriceSchema.default(0),
    budgetUsdPerDay: ZBudgetSchema.optional(),
    enabled: z.boolean().default(false),
  })
  .strict();
export type ModelCreate = z.infer<typeof ZModelCreateSchema>;

/**
 * `PATCH /api/admin/models/:id`: what an operator may change of a model. `retired: true` is final.
 * `force` lets a change leave fewer than two models to draw from (new battles are then refused).
 */
export const ZModelPatchSchema = z
  .object({
    label: z.string().trim().min(1).max(100).optional(),
    weight: z.number().positive().max(1_000).optional(),
    enabled: z.boolean().optional(),
    retired: z.literal(true).optional(),
    inputUsdPerMTok: ZPriceSchema.optional(),
    outputUsdPerMTok: ZPriceSchema.optional(),
    budgetUsdPerDay: ZBudgetSchema.nullable().optional(),
    force: z.boolean().optional(),
  })
  .strict()
  .refine((p) => Object.keys(p).some((k) => k !== 'force'), 'Nothing to change');
export type ModelPatch = z.infer<typeof ZModelPatchSchema>;

/** Whether a model can run here, and if not why (shown beside it; enabling it is refused). */
export const ZRunnableSchema = z.object({ ok: z.boolean(), reason: z.string().nullable() });

/** `GET /api/admin/models`: every model, retired ones too, with whether each can run. */
export const ZRosterReportSchema = z.object({
  models: z.array(ZRosterModelSchema.extend({ runnable: ZRunnableSchema })),
});
export type RosterReport = z.infer<typeof ZRosterReportSchema>;
