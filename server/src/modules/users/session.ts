import { AUTH_MESSAGES } from '@duet/contracts';
import { jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
import type { Db } from '../../infra/db.ts';
import { loadOnce, storedSecret } from '../../infra/secrets.ts';
import { AppError } from '../../http/errors.ts';

/** The `iss` of every Duet session token. */
export const SESSION_ISSUER = 'duet';
/** Where the generated key is kept when SESSION_SECRET is unset. */
export const SESSION_SECRET_NAME = 'session-hs256';

const ZUserIdSchema = z.string().uuid();

export interface SessionTokens {
  /** A session token for a user: HS256, `sub` = user id, `exp` = now + the session lifetime. */
  issue: (userId: string) => Promise<{ token: string; expiresAt: Date }>;
  /** The user id a session token was issued to; a bad, forged or expired token throws 412 `invalid_token`. */
  verify: (token: string) => Promise<string>;
}

export const invalidToken = (): AppError => new AppError(412, 'invalid_token', AUTH_MESSAGES.invalidToken);

export function createSessionTokens(deps: { db: Db; secret: string | null; ttlHours: number }): SessionTokens {
  // Read lazily (the gateway starts without waiting for PostgreSQL) and once; a failed read is retried.
  const sessionKey = loadOnce(async () =>
    deps.secret !== null ? new TextEncoder().encode(deps.secret) : storedSecret(deps.db, SESSION_SECRET_NAME),
  );

  return {
    issue: async (userId) => {
      const now = Math.floor(Date.now() / 1000);
      const exp = now + Math.round(deps.ttlHours * 3600);
      const token = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(userId)
        .setIssuer(SESSION_ISSUER)
        .setIssuedAt(now)
        .setExpirationTime(exp)
        .sign(await sessionKey());
      return { token, expiresAt: new Date(exp * 1000) };
    },
    verify: async (token) => {
      const secret = await sessionKey();
      // Malformed, forged (another key, another algorithm, `alg: none`), expired, or not ours.
      const payload = await jwtVerify(token, secret, {
        algorithms: ['HS256'],
        issuer: SESSION_ISSUER,
        requiredClaims: ['sub', 'iat', 'exp'],
      }).then(
        (r) => r.payload,
        () => {
          throw invalidToken();
        },
      );
      const sub = ZUserIdSchema.safeParse(payload.sub);
      if (!sub.success) throw invalidToken();
      return sub.data;
    },
  };
}
