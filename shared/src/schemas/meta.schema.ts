import { z } from 'zod';
import { ZBattleModeSchema } from './battle.schema.ts';

/** `GET /api/meta`: what the browser needs to know about this deployment. */
export const ZMetaSchema = z.object({
  /** The built-in demo models answer (no provider key configured). */
  demoModels: z.boolean(),
  mode: ZBattleModeSchema,
  /** Signup and login are available (Firebase or its emulator configured). */
  accounts: z.boolean(),
});
export type Meta = z.infer<typeof ZMetaSchema>;
