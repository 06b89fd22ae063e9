import { createHash, timingSafeEqual } from 'node:crypto';

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/** The credential of an `Authorization: Bearer <credential>` header, if that is what it is. */
export const bearerCredential = (header: string | undefined): string | undefined => BEARER.exec(header ?? '')?.[1];

/** SHA-256, so both sides of the comparison have the same length whatever was sent. */
const digest = (token: string): Buffer => createHash('sha256').update(token, 'utf8').digest();

/**
 * A constant-time check of a presented token against ADMIN_TOKEN; null when none is configured.
 * The operators' checks (`operator-auth.ts`) use it.
 */
export function adminTokenCheck(adminToken: string | null): ((token: string) => boolean) | null {
  if (adminToken === null) return null;
  const expected = digest(adminToken);
  return (token) => timingSafeEqual(digest(token), expected);
}
