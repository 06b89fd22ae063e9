import express, { Router } from 'express';
import type { Request, RequestHandler, Response } from 'express';
import { z } from 'zod';
import { adminTokenCheck, bearerCredential } from '../http/admin-auth.ts';
import { AppError } from '../http/errors.ts';
import type { OperatorSessions } from './operator-session.ts';
import { cookieValue } from '../http/cookies.ts';
import { OPERATOR_COOKIE, OPERATOR_SESSION_MINUTES } from './operator-session.ts';

export interface OperatorAuthDeps {
  /** ADMIN_TOKEN, or null. */
  adminToken: string | null;
  /** Firebase, when accounts are on: a user whose ID token carries the claim `admin: true` is an operator. */
  firebase: { verifyIdToken: (idToken: string) => Promise<{ uid: string; admin: boolean }> } | null;
  sessions: OperatorSessions;
  /** Where the operator routes are mounted (`/admin`): the board at `/queues`, the sign-in at `/session`. */
  basePath: string;
}

export interface OperatorAuth {
  /** Lets operators through: a bearer credential, or a board session cookie. */
  guard: RequestHandler;
  /**
   * The admin API's guard: a bearer credential only (ADMIN_TOKEN, or a Firebase ID token with the
   * `admin` claim), never the board's cookie, so no page of another site can act with it.
   */
  api: RequestHandler;
  /** `GET /session` (the sign-in form) and `POST /session` (a credential in, a session cookie out). */
  routes: Router;
}

const ZSignInSchema = z.object({ token: z.string().trim().min(1).max(8_192) });
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A browser navigating (it asks for HTML first) gets pages and redirects; anything else gets JSON. */
const wantsPage = (req: Request) => req.accepts(['json', 'html']) === 'html';

const notAnOperator = () => new AppError(403, 'invalid_token', 'This credential is not an operator credential.');

/**
 * The operators' credential for the queue board: ADMIN_TOKEN, or a Firebase ID token whose user
 * has the custom claim `admin`. Presented as `Authorization: Bearer <credential>` (scripts), or
 * once to `POST /admin/session`, which answers with a short-lived signed HttpOnly cookie (a
 * browser cannot add a header when it navigates). No credential configured: 404. No credential
 * presented: 401 (a browser gets the sign-in form); a wrong one, or a user without the claim: 403.
 */
export function operatorAuth(deps: OperatorAuthDeps): OperatorAuth {
  const matchesAdminToken = adminTokenCheck(deps.adminToken);
  const configured = matchesAdminToken !== null || deps.firebase !== null;
  const signInPath = `${deps.basePath}/session`;

  /** Who a credential belongs to (`token`, `firebase:<uid>`), or a 403. */
  const operatorOf = async (credential: string): Promise<string> => {
    if (matchesAdminToken?.(credential)) return 'token';
    if (!deps.firebase || !JWT_SHAPE.test(credential)) throw notAnOperator();
    const identity = await deps.firebase.verifyIdToken(credential).catch((err: unknown) => {
      // A token that proves nothing is a wrong credential; an unreachable Firebase stays a 503.
      throw err instanceof AppError && err.status === 401 ? notAnOperator() : err;
    });
    if (!identity.admin) throw new AppError(403, 'invalid_token', 'This account is not an operator: its ID token has no `admin` claim.');
    return `firebase:${identity.uid}`;
  };

  const off = () =>
    new AppError(404, 'not_found', 'The queue board is off on this server: set ADMIN_TOKEN, or turn accounts on and give operators the `admin` claim.');

  const guard: RequestHandler = async (req, res, next) => {
    if (!configured) throw off();
    const bearer = bearerCredential(req.get('authorization'));
    if (bearer !== undefined) {
      await operatorOf(bearer);
      return next();
    }
    const session = cookieValue(req.get('cookie'), OPERATOR_COOKIE);
    if (session !== undefined && (await deps.sessions.verify(session)) !== null) {
      // The cookie is SameSite=Strict; a changing request from another origin is refused all the same.
      if (!SAFE_METHODS.has(req.method) && !sameOrigin(req)) throw new AppError(403, 'origin_not_allowed', 'This request comes from another site.');
      return next();
    }
    res.set('WWW-Authenticate', 'Bearer realm="duet-operator"');
    if (req.method === 'GET' && wantsPage(req)) {
      return void sendSignIn(res, 401, signInPath, session === undefined ? null : 'Your session ended. Sign in again.');
    }
    throw new AppError(401, 'unauthorized', 'The queue board needs an operator credential: Authorization: Bearer <ADMIN_TOKEN or Firebase ID token>, or the cookie POST /admin/session sets.');
  };

  const api: RequestHandler = async (req, res, next) => {
    if (!configured) {
      throw new AppError(404, 'not_found', 'The admin API is turned off on this server: set ADMIN_TOKEN (at least 32 characters), or turn accounts on and give operators the `admin` claim.');
    }
    const bearer = bearerCredential(req.get('authorization'));
    if (bearer === undefined) {
      res.set('WWW-Authenticate', 'Bearer realm="duet-admin"');
      throw new AppError(401, 'unauthorized', 'The admin API needs an Authorization: Bearer <ADMIN_TOKEN or Firebase ID token> header.');
    }
    res.locals.operator = await operatorOf(bearer);
    next();
  };

  const routes = Router();
  routes.get('/session', (_req, res) => {
    if (!configured) throw off();
    sendSignIn(res, 200, signInPath, null);
  });
  routes.post(
    '/session',
    express.json({ limit: '16kb' }),
    express.urlencoded({ extended: false, limit: '16kb' }),
    async (req, res) => {
      if (!configured) throw off();
      const browser = wantsPage(req);
      const credential = bearerCredential(req.get('authorization')) ?? ZSignInSchema.safeParse(req.body).data?.token;
      try {
        if (credential === undefined) throw new AppError(401, 'unauthorized', 'Send the operator credential as `token`, or as Authorization: Bearer.');
        const operator = await operatorOf(credential);
        const session = await deps.sessions.issue(operator);
        req.log.info({ operator, expiresAt: session.expiresAt }, 'operator session opened');
        res.cookie(OPERATOR_COOKIE, session.value, {
          httpOnly: true,
          sameSite: 'strict',
          secure: req.secure,
          path: deps.basePath,
          maxAge: OPERATOR_SESSION_MINUTES * 60_000,
        });
        if (browser) return res.redirect(303, `${deps.basePath}/queues`);
        res.json({ expiresAt: session.expiresAt.toISOString() });
      } catch (err) {
        if (!browser || !(err instanceof AppError) || err.status >= 500) throw err;
        sendSignIn(res, err.status, signInPath, err.message);
      }
    },
  );
  return { guard, api, routes };
}

/** The request's `Origin`, when it sent one, is this host. */
function sameOrigin(req: Request): boolean {
  const origin = req.get('origin');
  if (origin === undefined) return true;
  try {
    return new URL(origin).host === req.get('host');
  } catch {
    return false;
  }
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The sign-in form: plain HTML that posts the credential, no script (it lives under the app's CSP). */
function sendSignIn(res: Response, status: number, action: string, problem: string | null): void {
  res
    .status(status)
    .type('html')
    .set('Cache-Control', 'no-store')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex">` +
        `<meta name="viewport" content="width=device-width, initial-scale=1"><title>Duet operators</title>` +
        `<style>body{font:16px system-ui,sans-serif;max-width:28rem;margin:4rem auto;padding:0 1rem}` +
        `input{width:100%;box-sizing:border-box;padding:.5rem;margin:.5rem 0 1rem}button{padding:.5rem 1rem}` +
        `.problem{color:#b00020}</style></head><body><h1>Duet operators</h1>` +
        (problem ? `<p class="problem" role="alert">${escapeHtml(problem)}</p>` : '') +
        `<form method="post" action="${escapeHtml(action)}"><label for="token">ADMIN_TOKEN, or the Firebase ID token of an operator</label>` +
        `<input id="token" name="token" type="password" autocomplete="off" required autofocus>` +
        `<button type="submit">Open the queue board</button></form></body></html>`,
    );
}
