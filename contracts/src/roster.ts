import { z } from 'zod';

export const PROVIDERS = ['openai', 'anthropic', 'openai-compatible', 'demo'] as const;
export type ProviderKind = (typeof PROVIDERS)[number];

/** The model families the specification's two-model views speak of. */
export const FAMILIES = ['gpt', 'claude', 'other'] as const;
export type ModelFamily = (typeof FAMILIES)[number];

/** One model a battle can draw. API keys are never part of it: adapters read them from their own config. */
export const ZModelSpecSchema = z.object({
  /** Stable id stored with every answer and vote, e.g. `openai:gpt-4o`. */
  id: z.string().min(1).max(100),
  /** Public name shown once the vote reveals it. */
  label: z.string().min(1).max(100),
  provider: z.enum(PROVIDERS),
  /** The provider's model name. */
  model: z.string().min(1).max(200),
  family: z.enum(FAMILIES).default('other'),
  /** Relative chance of being drawn into a battle. */
  weight: z.number().positive().default(1),
  /** Base URL for `openai-compatible` servers (and to point SDKs at a proxy). */
  baseURL: z.string().url().optional(),
  /**
   * Name of the environment variable holding this model's API key, ending in `_API_KEY` (so that no
   * other secret of the deployment can be named and sent to a provider).
   */
  apiKeyEnv: z
    .string()
    .regex(/^[A-Z][A-Z0-9_]{0,90}_API_KEY$/, 'an environment variable whose name ends in _API_KEY, such as OPENAI_API_KEY')
    .optional(),
  /** What the provider charges per million input tokens, in US dollars (0 when unset: free). */
  inputUsdPerMTok: z.number().nonnegative().max(10_000).optional(),
  /** What the provider charges per million output tokens, in US dollars (0 when unset: free). */
  outputUsdPerMTok: z.number().nonnegative().max(10_000).optional(),
  /** This model's own budget per day (`BUDGET_TIME_ZONE`), in US dollars; unset: only the overall one applies. */
  budgetUsdPerDay: z.number().positive().max(10_000_000).optional(),
});
export type ModelSpec = z.infer<typeof ZModelSpecSchema>;

export const ZRosterSchema = z.array(ZModelSpecSchema).min(2, 'The roster needs at least two models');
