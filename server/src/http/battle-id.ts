import { z } from 'zod';
import { AppError } from './errors.ts';

const ZBattleIdSchema = z.string().uuid();

/** A battle id from a route's parameter; anything that is not one is a 404 (`message`), never a 400. */
export function battleIdParam(raw: unknown, message = 'No such battle'): string {
  const parsed = ZBattleIdSchema.safeParse(raw);
  if (!parsed.success) throw new AppError(404, 'not_found', message);
  return parsed.data;
}
