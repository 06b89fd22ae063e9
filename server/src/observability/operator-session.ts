import { createHmac } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';

/** The cookie that lets an operator's browser open the queue board. */
export const OPERATOR_COOKIE = 'duet_operator';
/** How long a board session lasts: long enough to look into an incident, short if it leaks. */
export const OPERATOR_SESSION_MINUTES = 30;

const ISSUER = 'duet';
const AUDIENCE = 'duet-operator';

export interface OperatorSessions {
  /** A signed session for an operator (`token` for ADMIN_TOKEN, `firebase:<uid>` for a Firebase operator). */
  issue: (operator: string) => Promise<{ value: string; expiresAt: Date }>;
  /** The operator of a session, or null for a forged, expired or foreign one. */
  verify: (value: string) => Promise<string | null>;
}

/**
 * Board sessions: HS256 tokens in an HttpOnly cookie. The key is derived from a secret every
 * gateway shares (kept in PostgreSQL, so a session opened on one gateway works on all) and from
 * ADMIN_TOKEN: changing the token ends every open session at once.
 */
export function createOperatorSessions(deps: { secret: () => Promise<Uint8Array>; adminToken: string | null; minutes?: number }): OperatorSessions {
  const minutes = deps.minutes ?? OPERATOR_SESSION_MINUTES;
  const key = async () =>
    new Uint8Array(createHmac('sha256', await deps.secret()).update(`duet-operator-session\0${deps.adminToken ?? ''}`).digest());
  return {
    issue: async (operator) => {
      const now = Math.floor(Date.now() / 1000);
      const exp = now + Math.round(minutes * 60);
      const value = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(operator)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(now)
        .setExpirationTime(exp)
        .sign(await key());
      return { value, expiresAt: new Date(exp * 1000) };
    },
    verify: async (value) => {
      const verified = await jwtVerify(value, await key(), {
        algorithms: ['HS256'],
        issuer: ISSUER,
        audience: AUDIENCE,
        requiredClaims: ['sub', 'exp'],
      }).catch(() => null);
      return verified?.payload.sub ?? null;
    },
  };
}
