import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createOperatorSessions } from './operator-session.ts';

const secret = new Uint8Array(randomBytes(32));
const sessions = (adminToken: string | null, minutes?: number) => createOperatorSessions({ secret: async () => secret, adminToken, minutes });

describe('operator sessions', () => {
  it('gives back the operator of a session it issued', async () => {
    const s = sessions('t'.repeat(40));
    const { value, expiresAt } = await s.issue('firebase:abc');
    expect(await s.verify(value)).toBe('firebase:abc');
    expect(expiresAt.getTime()).toBeGreaterThan(Date.now() + 29 * 60_000);
  });

  it('refuses a session whose signature was tampered with, or that is not a token at all', async () => {
    const s = sessions('t'.repeat(40));
    const { value } = await s.issue('token');
    const [head, body, sig] = value.split('.');
    const forged = `${head}.${Buffer.from(JSON.stringify({ sub: 'firebase:evil', iss: 'duet', aud: 'duet-operator', exp: 9e9 })).toString('base64url')}.${sig}`;
    expect(await s.verify(forged)).toBeNull();
    expect(await s.verify(`${head}.${body}.`)).toBeNull();
    expect(await s.verify('not-a-token')).toBeNull();
  });

  it('refuses an expired session', async () => {
    const s = sessions('t'.repeat(40), -1);
    const { value } = await s.issue('token');
    expect(await s.verify(value)).toBeNull();
  });

  it('ends every open session when ADMIN_TOKEN changes', async () => {
    const { value } = await sessions('t'.repeat(40)).issue('token');
    expect(await sessions('u'.repeat(40)).verify(value)).toBeNull();
    expect(await sessions(null).verify(value)).toBeNull();
  });
});
