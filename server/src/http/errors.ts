import type { ErrorCode, ErrorResponse, FieldIssue } from '@duet/shared';
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

export const sendError = (status: number, code: string, message: string, issues?: FieldIssue[]): ErrorResponse => ({
  error: { code, message, ...(issues ? { issues } : {}) },
});

export const notFoundHandler: RequestHandler = (req, res) => {
  res.status(404).json(sendError(404, 'not_found', `No route for ${req.method} ${req.path}`));
};

/** The last middleware: every error becomes `{ error: { code, message } }` with its status. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, _req, res, _next) => {
    if (err instanceof AppError) {
      res.status(err.status).json(sendError(err.status, err.code, err.message, err.issues));
      return;
    }
    const e = err as { type?: string; status?: number; message?: string };
    // body-parser's own failures: a JSON body too large or malformed.
    if (e.type === 'entity.too.large') {
      res.status(413).json(sendError(413, 'payload_too_large', 'The request body is too large'));
      return;
    }
    if (e.type === 'entity.parse.failed') {
      res.status(400).json(sendError(400, 'validation_failed', 'The request body is not valid JSON'));
      return;
    }
    logger.error({ err }, 'unhandled error');
    res.status(500).json(sendError(500, 'internal', 'Something went wrong on our side. Please try again.'));
  };
}
