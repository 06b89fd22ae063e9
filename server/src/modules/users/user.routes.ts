import { ZDeleteAccountRequestSchema, ZLoginRequestSchema, ZSignupRequestSchema } from '@duet/contracts';
import type { AuthConfig } from '@duet/contracts';
import { Router } from 'express';
import type { RequestHandler } from 'express';
import type { AccountsConfig } from '../../accounts-config.ts';
import { bearerToken } from '../../http/auth.ts';
import { parseOr400 } from '../../http/errors.ts';
import { invalidToken } from './session.ts';
import { accountsOff } from './user.service.ts';
import type { UserService } from './user.service.ts';

/** What the browser needs to start Firebase Authentication; null when accounts are off. */
export function authConfigFor(accounts: AccountsConfig): AuthConfig | null {
  if (accounts.mode === 'disabled') return null;
  return {
    apiKey: accounts.web.apiKey,
    authDomain: accounts.web.authDomain,
    projectId: accounts.projectId,
    ...(accounts.web.appId ? { appId: accounts.web.appId } : {}),
    emulatorUrl: accounts.mode === 'emulator' ? `http://${accounts.emulatorHost}` : null,
  };
}

/** The specification's account calls, and the browser's Firebase settings. */
export function userRoutes(service: UserService, opts: { accounts: AccountsConfig; limit: RequestHandler }): Router {
  const router = Router();
  const authConfig = authConfigFor(opts.accounts);

  const accountsOn: RequestHandler = (_req, res, next) => {
    // Sessions and profiles are personal: never cached by a browser or a proxy.
    res.set('Cache-Control', 'no-store');
    if (!authConfig) throw accountsOff();
    next();
  };

  router.get('/auth/config', accountsOn, (_req, res) => {
    res.json(authConfig);
  });

  router.post('/v2/user/signup', accountsOn, opts.limit, async (req, res) => {
    const body = parseOr400(ZSignupRequestSchema, req.body);
    res.json(await service.signup(body));
  });

  router.post('/v2/user/login', accountsOn, opts.limit, async (req, res) => {
    const body = parseOr400(ZLoginRequestSchema, req.body);
    res.json(await service.login(body));
  });

  router.get('/v2/user/profile', accountsOn, async (req, res) => {
    const token = bearerToken(req.get('authorization'));
    if (token === undefined) throw invalidToken();
    res.json(await service.profile(token));
  });

  router.delete('/v2/user/profile', accountsOn, opts.limit, async (req, res) => {
    const token = bearerToken(req.get('authorization'));
    if (token === undefined) throw invalidToken();
    const userId = await service.authenticate(token);
    parseOr400(ZDeleteAccountRequestSchema, req.body);
    res.json(await service.deleteAccount(userId));
  });

  return router;
}
