import type { ErrorCode, ErrorResponse, FieldIssue, QuotaFigures } from '@duet/contracts';
import { isQueryTimeout } from '@duet/platform/pg-pool';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { z } from 'zod';

/** An error meant for the client: its status, code and message are sent as they are. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly issues?: FieldIssue[],
    /** Seconds the client should wait before trying again (sent as `Retry-After`). */
    readonly retryAfterSeconds?: number,
    /** A quota's figures, with `quota_exceeded`: the client offers sign-up with them. */
    readonly quota?: QuotaFigures,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const validationError = (issues: FieldIssue[]): AppError =>
  new AppError(400, 'validation_failed', issues.map((i) => `${i.path}: ${i.message}`).join('; '), issues);

/** Turns zod issues into field issues (`inputs.keywords.5`). */
export const issuesFromZod = (error: z.ZodError): FieldIssue[] =>
  error.issues.map((i) => ({ path: i.path.join('.') || '(body)', message: i.message }));

/** Parses with a schema or throws a 400 listing every problem. */
export function parseOr400<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(issuesFromZod(result.error));
  return result.data;
}

export const sendError = (status: number, code: string, message: string, issues?: FieldIssue[], quota?: QuotaFigures): ErrorResponse => ({
  error: { code, message, ...(issues ? { issues } : {}), ...(quota ? { quota } : {}) },
});

export const notFoundHandler: RequestHandler = (req, res) => {
  res.status(404).json(sendError(404, 'not_found', `No route for ${req.method} ${req.path}`));
};

/**
 * SQLSTATEs, socket errors and messages that mean PostgreSQL or Redis cannot serve right now: down,
 * unreachable, out of room (PostgreSQL's class 53: disk full, out of memory, too many connections;
 * Redis past `maxmemory` with `noeviction` refusing writes with `OOM`, or with `MISCONF` when it
 * cannot save to its disk), a PostgreSQL that only reads (25006: a standby, or a primary set
 * read-only, as during a failover), or a statement PostgreSQL cancelled (57014: past a
 * `statement_timeout` an operator set, or cancelled by hand).
 */
const OUTAGE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', '57P01', '57P02', '57P03', '57014', '25006']);
const OUTAGE_MESSAGES =
  /Connection is closed|Connection terminated|enableOfflineQueue|Command timed out|timeout exceeded when trying to connect|Client has encountered a connection error|MaxRetriesPerRequest|OOM command not allowed|\bMISCONF\b/i;

/** Error codes for the 4xx statuses that body parsing and routing raise themselves. */
const CODE_OF_STATUS: Record<number, ErrorCode> = {
  400: 'validation_failed',
  404: 'not_found',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
};

/**
 * What an error means for the client, when it is not a bug of ours: an `AppError` as it is; a 4xx
 * raised by body-parser or the router (bad JSON, bad charset or encoding, malformed %-escapes); a
 * value PostgreSQL refused as data (SQLSTATE class 22: the request carried it); or an outage of
 * PostgreSQL or Redis, or a query PostgreSQL left unanswered past its bound (503, so the client
 * tries again). Null for anything else: that is a 500.
 */
export function clientErrorOf(err: unknown): AppError | null {
  if (err instanceof AppError) return err;
  if (typeof err !== 'object' || err === null) return null;
  const e = err as { status?: unknown; statusCode?: unknown; type?: unknown; code?: unknown; message?: unknown };
  const status = typeof e.status === 'number' ? e.status : typeof e.statusCode === 'number' ? e.statusCode : undefined;
  if (status !== undefined && status >= 400 && status < 500) {
    if (e.type === 'entity.parse.failed') return new AppError(400, 'validation_failed', 'The request body is not valid JSON');
    if (e.type === 'entity.too.large') return new AppError(413, 'payload_too_large', 'The request body is too large');
    const message = typeof e.message === 'string' && e.message ? e.message : 'The request could not be read';
    return new AppError(status, CODE_OF_STATUS[status] ?? 'validation_failed', message);
  }
  const code = typeof e.code === 'string' ? e.code : '';
  if (code.startsWith('22')) return new AppError(400, 'validation_failed', 'A value in the request is not valid');
  if (OUTAGE_CODES.has(code) || code.startsWith('08') || code.startsWith('53') || isQueryTimeout(err) || (typeof e.message === 'string' && OUTAGE_MESSAGES.test(e.message))) {
    return new AppError(503, 'unavailable', 'Duet cannot reach its database right now. Please try again in a moment.');
  }
  return null;
}

/**
 * The last middleware: every error becomes `{ error: { code, message } }` with its status. Its log
 * lines go through the request's own logger when there is one, so they carry the request id.
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    const log: Logger = (req as { log?: Logger }).log ?? logger;
    if (res.headersSent) {
      // Too late for an error body (a download failed midway): cut the response short.
      log.warn({ err }, 'response failed after it started');
      res.destroy();
      return;
    }
    const known = clientErrorOf(err);
    if (known) {
      if (known.status === 503 && known.code === 'unavailable') {
        // One line per refused request during an outage: the cause, not a stack trace each time.
        const { code, message } = err as { code?: unknown; message?: unknown };
        log.warn({ cause: { code, message } }, 'a backing service is unavailable');
      }
      if (known.retryAfterSeconds !== undefined || known.status === 503) res.set('Retry-After', String(known.retryAfterSeconds ?? 5));
      res.status(known.status).json(sendError(known.status, known.code, known.message, known.issues, known.quota));
      return;
    }
    log.error({ err }, 'unhandled error');
    res.status(500).json(sendError(500, 'internal', 'Something went wrong on our side. Please try again.'));
  };
}
