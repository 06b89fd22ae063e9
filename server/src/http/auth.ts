import type { RequestHandler, Response } from 'express';
import { AUTH_MESSAGES } from '@duet/contracts';
import { AppError } from './errors.ts';

const BEARER = /^Bearer[ \t]+([A-Za-z0-9._~+/=-]+)[ \t]*$/i;

/**
 * The token of an `Authorization: Bearer <token>` header: undefined when there is no header,
 * and 412 `invalid_token` when there is one but it is not a bearer token.
 */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = BEARER.exec(header);
  if (!match?.[1]) throw new AppError(412, 'invalid_token', AUTH_MESSAGES.invalidToken);
  return match[1];
}

/**
 * Signed-in-or-anonymous routes. No `Authorization` header: anonymous, as before. A header
 * with a valid session token: the request acts for that user (see `sessionUserId`). Any other
 * header (broken, expired, forged, a deleted account): 412 `invalid_token`, and the route never
 * runs, so a bad token is never silently treated as anonymous.
 */
export function optionalSession(authenticate: (sessionToken: string) => Promise<string>): RequestHandler {
  return async (req, res, next) => {
    const token = bearerToken(req.get('authorization'));
    if (token !== undefined) res.locals.userId = await authenticate(token);
    next();
  };
}

/** The signed-in user of a request that went through `optionalSession`, if any. */
export const sessionUserId = (res: Response): string | undefined =>
  typeof res.locals.userId === 'string' ? res.locals.userId : undefined;
