import { z } from 'zod';

/**
 * De-duplication's setting, read by the worker: how many counted votes on one question (per tool,
 * compared by `promptKey`) the de-duplicated boards count; the later ones are kept, counted for
 * the win rates and marked as over the cap. 0 turns it off. Each counted vote stores its rank
 * among its question's counted votes (`votes.prompt_rank`), and the cap is applied when the boards
 * are computed, so changing it rewrites no vote; the refit records the cap it applied
 * (`leaderboard_fold.prompt_cap`), which the gateway's export marks votes by.
 */
export const ZPromptCapEnvSchema = z.object({
  DEDUP_MAX_PER_PROMPT: z.coerce.number().int().min(0).max(1_000_000).default(50),
});

/** The default of DEDUP_MAX_PER_PROMPT. */
export const DEFAULT_PROMPT_CAP: number = ZPromptCapEnvSchema.parse({}).DEDUP_MAX_PER_PROMPT;

/**
 * SQL: whether the vote `v` (a `votes` row) is over the cap, never null. The cap goes into the text
 * as a number literal (checked here), so the fragment fits any statement whatever its parameters.
 */
export function overPromptCapSql(cap: number, v = 'v'): string {
  if (!Number.isSafeInteger(cap) || cap < 0) throw new RangeError(`Not a prompt cap: ${cap}`);
  return cap === 0 ? 'false' : `coalesce(${v}.prompt_rank > ${cap}, false)`;
}
