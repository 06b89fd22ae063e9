import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { redisKeys } from '@duet/shared';
import type { WinRate } from '@duet/shared';
import compression from 'compression';
import express from 'express';
import helmet from 'helmet';
import { pino } from 'pino';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import type { AccountsConfig, GatewayConfig } from './config.ts';
import { createDb } from './infra/db.ts';
import { createBattleQueue, enqueueBattle } from './infra/queue.ts';
import { createRedis } from './infra/redis.ts';
import { optionalSession } from './http/auth.ts';
import { errorHandler, notFoundHandler } from './http/errors.ts';
import { perMinuteLimit } from './http/rate-limit.ts';
import { battleRoutes } from './modules/battles/battle.routes.ts';
import { createBattleService } from './modules/battles/battle.service.ts';
import { historyRoutes } from './modules/history/history.routes.ts';
import { createHistoryService } from './modules/history/history.service.ts';
import { toolsRoutes } from './modules/tools/tools.routes.ts';
import { createFirebaseAuth } from './modules/users/firebase-auth.ts';
import { createSessionTokens } from './modules/users/session.ts';
import { userRoutes } from './modules/users/user.routes.ts';
import { createUserService } from './modules/users/user.service.ts';
import { createRealtime } from './realtime/socket.ts';
import { loadOnce, storedSecret } from './infra/secrets.ts';
import { leaderboardRoutes } from './modules/leaderboard/leaderboard.routes.ts';
import { exportRoutes } from './modules/export/export.routes.ts';

export interface Gateway {
  /** Where it listens, e.g. `http://127.0.0.1:8080`. */
  url: string;
  logger: Logger;
  /** Stops taking connections, then closes sockets, queue, Redis and PostgreSQL. */
  close: () => Promise<void>;
}

/**
 * The Content-Security-Policy sources the Firebase web SDK needs: its script loader and sign-in
 * popup frames, its REST endpoints, and the emulator's origin when there is one. With accounts
 * off, none of them.
 */
function accountsCsp(accounts: AccountsConfig): { script: string[]; connect: string[]; frame: string[] } {
  if (accounts.mode === 'disabled') return { script: [], connect: [], frame: [] };
  const emulator = accounts.mode === 'emulator' ? [`http://${accounts.emulatorHost}`] : [];
  return {
    script: ['https://apis.google.com'],
    connect: ['https://identitytoolkit.googleapis.com', 'https://securetoken.googleapis.com', ...emulator],
    frame: [...new Set(['https://*.firebaseapp.com', `https://${accounts.web.authDomain}`]), ...emulator],
  };
}

/** Builds and starts the gateway: REST API, Socket.IO, and the built client when present. */
export async function startGateway(config: GatewayConfig, logger: Logger = pino({ level: config.logLevel })): Promise<Gateway> {
  // First, so a refused Firebase set-up stops the start before any connection is opened.
  const firebase = config.accounts.mode === 'disabled' ? null : createFirebaseAuth(config.accounts, logger);
  const db = createDb(config.databaseUrl);
  // An idle connection dropped by PostgreSQL (restart, failover) must not crash the gateway.
  db.on('error', (err) => logger.warn({ err }, 'idle PostgreSQL connection lost'));
  const redis = createRedis(config.redisUrl, 'duet-gateway');
  const adapterPub = createRedis(config.redisUrl, 'duet-gateway-io-pub');
  const adapterSub = createRedis(config.redisUrl, 'duet-gateway-io-sub');
  const eventsSub = createRedis(config.redisUrl, 'duet-gateway-events');
  const keys = redisKeys(config.redisPrefix);
  const queue = createBattleQueue(redis, config.redisPrefix);

  let announce: (tool: string, winRates: WinRate[]) => void = () => undefined;
  const voterKeySecret = loadOnce(() => storedSecret(db, 'voter-key'));
  const battles = createBattleService({
    db,
    roster: config.roster,
    mode: config.mode,
    enqueue: (id) => enqueueBattle(queue, id),
    requestCancel: async (id) => {
      // The flag covers a battle still waiting in the queue; the message stops a running one.
      await redis.set(keys.battleCancelled(id), '1', 'EX', 24 * 3600);
      await redis.publish(keys.cancelChannel, id);
    },
    dailyVoteCap: config.dailyVoteCap,
    hashIp: async (ip) => createHmac('sha256', await voterKeySecret()).update(ip).digest('hex'),
    statsChanged: (tool, winRates) => {
      announce(tool, winRates);
      // The leaderboard job recomputes on its next tick.
      redis.set(keys.leaderboardDirty, String(Date.now())).catch((err: unknown) => logger.warn({ err }, 'could not mark the leaderboard'));
    },
  });
  const history = createHistoryService({ db });
  const users = createUserService({
    db,
    firebase,
    sessions: createSessionTokens({ db, secret: config.session.secret, ttlHours: config.session.ttlHours }),
  });
  const csp = accountsCsp(config.accounts);

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.use(
    helmet({
      // Google sign-in's popup reports back through window.opener (Firebase requires this).
      crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
      contentSecurityPolicy: {
        directives: {
          // Profile pictures come from the identity provider's image hosts.
          'img-src': ["'self'", 'data:', 'blob:', 'https:'],
          'script-src': ["'self'", ...csp.script],
          'connect-src': ["'self'", 'ws:', 'wss:', ...csp.connect],
          'frame-src': ["'self'", ...csp.frame],
          // Duet is often run over plain HTTP on localhost; TLS is the proxy's business.
          'upgrade-insecure-requests': null,
        },
      },
    }),
  );
  app.use(compression());
  app.use(
    pinoHttp({
      logger,
      autoLogging: { ignore: (req) => req.url === '/healthz' },
      serializers: {
        req: (req: { id: unknown; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
    }),
  );
  app.get('/healthz', async (_req, res) => {
    await Promise.all([db.query('SELECT 1'), redis.ping()]);
    res.json({ ok: true });
  });

  const api = express.Router();
  api.use(express.json({ limit: '64kb' }));
  api.use(toolsRoutes({ demoModels: config.demoModels, mode: config.mode, accounts: firebase !== null }));
  api.use(
    battleRoutes(
      battles,
      {
        create: perMinuteLimit(redis, config.redisPrefix, 'battles', config.rateLimits.battlesPerMinute),
        vote: perMinuteLimit(redis, config.redisPrefix, 'votes', config.rateLimits.votesPerMinute),
      },
      optionalSession(users.authenticate),
    ),
  );
  api.use(leaderboardRoutes({ redis, keys }));
  api.use(exportRoutes({ db, logger, limit: perMinuteLimit(redis, config.redisPrefix, 'export', config.rateLimits.exportsPerMinute) }));
  api.use(
    userRoutes(users, {
      accounts: config.accounts,
      limit: perMinuteLimit(redis, config.redisPrefix, 'accounts', config.rateLimits.accountsPerMinute),
    }),
  );
  api.use(historyRoutes(history));
  api.use(notFoundHandler);
  app.use('/api', api);

  const clientDist = path.resolve(config.clientDist);
  if (config.clientDist && existsSync(path.join(clientDist, 'index.html'))) {
    app.use(express.static(clientDist, { index: false, maxAge: '1h' }));
    // Client-side routes: every other GET gets the app shell.
    app.get(/^(?!\/api\/|\/socket\.io\/).*/, (_req, res) => res.sendFile(path.join(clientDist, 'index.html')));
  }
  app.use(notFoundHandler);
  app.use(errorHandler(logger));

  const httpServer = createServer(app);
  const realtime = await createRealtime({ httpServer, adapterPub, adapterSub, eventsSub, db, redis, keys, battles, corsOrigins: config.corsOrigins, logger });
  announce = realtime.statsChanged;

  await new Promise<void>((resolve) => httpServer.listen(config.port, config.host, resolve));
  const { port } = httpServer.address() as AddressInfo;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const url = `http://${host}:${port}`;
  logger.info(
    { url, models: config.roster.map((m) => m.id), demo: config.demoModels, mode: config.mode, accounts: config.accounts.mode },
    'gateway listening',
  );

  return {
    url,
    logger,
    close: async () => {
      await new Promise<void>((resolve) => {
        realtime.io.close(() => resolve());
      });
      await queue.close();
      await Promise.all([redis, adapterPub, adapterSub, eventsSub].map((r) => r.quit().catch(() => undefined)));
      await firebase?.close();
      await db.end();
    },
  };
}
