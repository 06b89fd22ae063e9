import type { Response } from 'express';

/** Who is acting, as the operators' API guard (`operator-auth.ts`) found: `token`, `firebase:<uid>`. */
export function actorOf(res: Response): string {
  const operator: unknown = res.locals.operator;
  // Only a route mounted without the guard gets here without one: a bug of ours, never the caller's.
  if (typeof operator !== 'string') throw new Error('an admin route ran without the operators guard');
  return operator;
}
