import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { AppError } from './errors.ts';

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/** The credential of an `Authorization: Bearer <credential>` header, if that is what it is. */
export const bearerCredential = (header: string | undefined): string | undefined => BEARER.exec(header ?? '')?.[1];

/** SHA-256, so both sides of the comparison have the same length whatever was sent. */
const digest = (token: string): Buffer => createHash('sha256').update(token, 'utf8').digest();

/**
 * A constant-time check of a presented token against ADMIN_TOKEN; null when none is configured.
 * The queue board's operator check uses it too.
 */
export function adminTokenCheck(adminToken: string | null): ((token: string) => boolean) | null {
  if (adminToken === null) return null;
  const expected = digest(adminToken);
  return (token) => timingSafeEqual(digest(token), expected);
}

/**
 * Guards operator routes with `Authorization: Bearer <ADMIN_TOKEN>`. With no token configured the
 * routes are off: 404 `not_found` (nothing to find without the setting). No bearer credential: 401
 * `unauthorized`; a wrong one: 403 `invalid_token`. The token is compared in constant time.
 */
export function adminAuth(adminToken: string | null): RequestHandler {
  const matches = adminTokenCheck(adminToken);
  return (req, res, next) => {
    if (!matches) {
      throw new AppError(404, 'not_found', 'The admin API is turned off on this server: set ADMIN_TOKEN (at least 32 characters) to use it.');
    }
    const token = bearerCredential(req.get('authorization'));
    if (token === undefined) {
      res.set('WWW-Authenticate', 'Bearer realm="duet-admin"');
      throw new AppError(401, 'unauthorized', 'The admin API needs an Authorization: Bearer <ADMIN_TOKEN> header.');
    }
    if (!matches(token)) throw new AppError(403, 'invalid_token', 'This admin token is not valid.');
    next();
  };
}
