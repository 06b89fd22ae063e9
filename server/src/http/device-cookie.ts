import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { atMost } from '@duet/platform/timeout';
import type { RequestHandler, Response } from 'express';
import { cookieValue } from './cookies.ts';

/** The device cookie: a random id and its signature, set by the gateway and read back only by it. */
export const DEVICE_COOKIE = 'duet_device';

/** A year: the count of a device's questions outlives a browser session. */
const MAX_AGE_MS = 365 * 86_400_000;

const ID = /^[A-Za-z0-9_-]{22}$/;

/**
 * Gives every browser a device id in a signed HttpOnly cookie. The id a request came with, when its
 * signature holds, is put on `res.locals.deviceId`; without one a new id is set on the answer, for
 * the next requests (a request counts as its address until it comes back with its cookie, so a
 * client that never keeps cookies is never a new device). Quotas count a device's questions by it,
 * beside its address: clearing the cookie leaves the address's count, and changing address leaves
 * the device's. `key` signs the ids (generated once, shared by gateways).
 */
export function deviceCookie(key: () => Promise<Uint8Array>): RequestHandler {
  const sign = async (id: string) => createHmac('sha256', await key()).update(id).digest('base64url');
  return async (req, res, next) => {
    // The signing key is read from PostgreSQL once: while it cannot be (within a second), requests
    // go on without a device (counted by their address), and the page's other calls are not held up.
    if ((await atMost(1_000, key()).catch(() => undefined)) === undefined) return next();
    const sent = cookieValue(req.get('cookie'), DEVICE_COOKIE);
    const [id, signature] = (sent ?? '').split('.');
    if (id && signature && ID.test(id)) {
      const expected = Buffer.from(await sign(id));
      const given = Buffer.from(signature);
      if (given.length === expected.length && timingSafeEqual(given, expected)) {
        res.locals.deviceId = id;
        return next();
      }
    }
    const fresh = randomBytes(16).toString('base64url');
    res.cookie(DEVICE_COOKIE, `${fresh}.${await sign(fresh)}`, { httpOnly: true, sameSite: 'lax', secure: req.secure, maxAge: MAX_AGE_MS, path: '/api' });
    next();
  };
}

/** The device id the request came back with (`deviceCookie`), if any. */
export const deviceIdOf = (res: Response): string | undefined => (typeof res.locals.deviceId === 'string' ? res.locals.deviceId : undefined);
