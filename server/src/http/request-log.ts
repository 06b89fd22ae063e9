import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';

/** A request id taken from `X-Request-Id` as it is: short, and of characters safe in logs and headers. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/** A battle id in the path of a battle's own routes (`/api/battles/:id/...`). */
const BATTLE_PATH = /^\/api\/battles\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:[/?]|$)/i;

/** Probes and scrapes come every few seconds: logging each would drown the log. */
const QUIET_PATHS = new Set(['/healthz', '/readyz']);

/**
 * The id of a request: the caller's `X-Request-Id` (a proxy's or a load balancer's, so one id
 * follows a request through every hop) when it is a sane value, else a new UUID.
 */
export function requestIdOf(header: string | string[] | undefined): string {
  const given = Array.isArray(header) ? header[0] : header;
  return given !== undefined && SANE_REQUEST_ID.test(given) ? given : randomUUID();
}

/** The request being served, as its log lines need it. */
interface RequestContext {
  log: Logger;
  /** Fields for the request's last line, added while it is served. */
  fields?: object;
}

const context = new AsyncLocalStorage<RequestContext>();
/** Where a request's context is kept for its last line (pino-http writes it outside the async context). */
const contexts = new WeakMap<IncomingMessage, RequestContext>();

/** A request's last log line, with the battle id when the request was about a battle, and the fields added while it was served. */
function lastLine(req: IncomingMessage & { originalUrl?: string }, line: object): object {
  // Express rewrites `url` inside routers; `originalUrl` is the path as it came.
  const battleId = BATTLE_PATH.exec(req.originalUrl ?? req.url ?? '')?.[1];
  const fields = contexts.get(req)?.fields;
  if (!battleId && !fields) return line;
  return { ...line, ...(battleId ? { battleId: battleId.toLowerCase() } : {}), ...fields };
}

/**
 * The logger of the request being served (it carries `reqId`), or `fallback` outside a request.
 * For code that runs inside a request without being handed it: event-bus subscribers.
 */
export const requestLogger = (fallback: Logger): Logger => context.getStore()?.log ?? fallback;

/**
 * Puts `fields` on the last line of the request being served, instead of a line of their own (a
 * vote is one line, not two, at thousands a second). Outside a request, logs them as `msg` with
 * `fallback`.
 */
export function logWithRequest(fallback: Logger, fields: object, msg: string): void {
  const request = context.getStore();
  if (request) request.fields = { ...request.fields, ...fields };
  else fallback.info(fields, msg);
}

/**
 * Request logs: every request gets an id (`reqId` on each of its log lines, `X-Request-Id` on its
 * response), one line when it ends (method, url, status, time; the battle id too on a battle's
 * routes, and what `logWithRequest` added), and `req.log` for anything logged while serving it.
 */
export function requestLogs(logger: Logger): RequestHandler[] {
  const logs = pinoHttp({
    logger,
    quietReqLogger: true,
    genReqId: (req: IncomingMessage, res: ServerResponse) => {
      const id = requestIdOf(req.headers['x-request-id']);
      res.setHeader('X-Request-Id', id);
      return id;
    },
    // The battle id goes on the request's last line as one of its fields, not as a binding of a
    // child logger made for every request (pino-http's `customProps` makes one when the request
    // comes and serializes the bindings again when it ends).
    customSuccessObject: (req: IncomingMessage, _res: ServerResponse, line: object) => lastLine(req, line),
    customErrorObject: (req: IncomingMessage, _res: ServerResponse, _err: Error, line: object) => lastLine(req, line),
    autoLogging: { ignore: (req) => QUIET_PATHS.has((req.url ?? '').split('?')[0] ?? '') },
    serializers: {
      req: (req: { method: string; url: string }) => ({ method: req.method, url: req.url }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  });
  return [
    logs,
    (req, _res, next) => {
      const request: RequestContext = { log: req.log };
      contexts.set(req, request);
      context.run(request, next);
    },
  ];
}
