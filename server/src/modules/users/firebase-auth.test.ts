import { generateKeyPairSync } from 'node:crypto';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createFirebaseAuth } from './firebase-auth.ts';

const logger = pino({ level: 'silent' });
const saved = process.env.FIREBASE_AUTH_EMULATOR_HOST;

afterEach(() => {
  if (saved === undefined) delete process.env.FIREBASE_AUTH_EMULATOR_HOST;
  else process.env.FIREBASE_AUTH_EMULATOR_HOST = saved;
});

const web = { apiKey: 'k', authDomain: 'duet-prod-1234.firebaseapp.com' };

describe('the Firebase admin app of a gateway', () => {
  it('refuses real credentials while the emulator variable is set in the process (it would accept unsigned tokens)', () => {
    process.env.FIREBASE_AUTH_EMULATOR_HOST = '127.0.0.1:9099';
    const privateKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(() =>
      createFirebaseAuth(
        {
          mode: 'firebase',
          projectId: 'duet-prod-1234',
          credentials: { clientEmail: 'gw@duet-prod-1234.iam.gserviceaccount.com', privateKey },
          web,
        },
        logger,
      ),
    ).toThrow(/FIREBASE_AUTH_EMULATOR_HOST is set in this process/);
  });

  it('starts with a service account when the emulator variable is unset, and refuses an unsigned token', async () => {
    delete process.env.FIREBASE_AUTH_EMULATOR_HOST;
    const privateKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const auth = createFirebaseAuth(
      { mode: 'firebase', projectId: 'duet-prod-1234', credentials: { clientEmail: 'gw@duet-prod-1234.iam.gserviceaccount.com', privateKey }, web },
      logger,
    );
    try {
      const now = Math.floor(Date.now() / 1000);
      const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
      // Exactly what the emulator would issue: without the emulator it must never pass.
      const unsigned = `${part({ alg: 'none', typ: 'JWT' })}.${part({
        aud: 'duet-prod-1234',
        iss: 'https://securetoken.google.com/duet-prod-1234',
        sub: 'someone',
        iat: now,
        exp: now + 3600,
        auth_time: now,
      })}.`;
      await expect(auth.verifyIdToken(unsigned)).rejects.toMatchObject({ status: 401, code: 'unauthorized' });
      await expect(auth.verifyIdToken('garbage')).rejects.toMatchObject({ status: 401 });
    } finally {
      await auth.close();
    }
  });

  it('refuses a second emulator address in the same process', () => {
    process.env.FIREBASE_AUTH_EMULATOR_HOST = '127.0.0.1:9099';
    expect(() => createFirebaseAuth({ mode: 'emulator', projectId: 'demo-duet', emulatorHost: '127.0.0.1:9199', web }, logger)).toThrow(
      /one process talks to one emulator/,
    );
  });

  it('points the admin SDK at the emulator and answers 401 to a token that is not one', async () => {
    delete process.env.FIREBASE_AUTH_EMULATOR_HOST;
    const auth = createFirebaseAuth({ mode: 'emulator', projectId: 'demo-duet', emulatorHost: '127.0.0.1:9099', web }, logger);
    try {
      expect(process.env.FIREBASE_AUTH_EMULATOR_HOST).toBe('127.0.0.1:9099');
      await expect(auth.verifyIdToken('not-a-token')).rejects.toMatchObject({ status: 401, code: 'unauthorized' });
    } finally {
      await auth.close();
    }
  });
});
