import { Router } from 'express';
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { AppError } from '../../http/errors.ts';
import type { ExportFormat, ExportService } from './export.service.ts';

/** `GET /api/export/votes.jsonl|.csv`: the open data set, only when `enabled` (EXPORT_ENABLED). */
export function exportRoutes(service: ExportService, deps: { logger: Logger; limit: RequestHandler; enabled: boolean; stallMs: number }): Router {
  const router = Router();

  const enabled: RequestHandler = (_req, _res, next) => {
    if (!deps.enabled) throw new AppError(404, 'not_found', 'The open-data export is turned off on this server (EXPORT_ENABLED is not set).');
    next();
  };

  const send = (format: ExportFormat) => async (req: Request, res: Response) => {
    const release = service.reserve();
    try {
      res.status(200);
      res.set('Content-Type', format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8');
      res.set('Content-Disposition', `attachment; filename="duet-votes.${format}"`);
      res.set('Cache-Control', 'no-store');
      // Only `maxConcurrent` downloads run at once: a reader that stops reading but stays
      // connected would keep its slot for good. Nothing written or read on the connection for
      // `stallMs` (60 s as shipped; a page of rows comes in milliseconds): it is cut.
      res.setTimeout(deps.stallMs, () => {
        (req.log ?? deps.logger).warn({ stallMs: deps.stallMs }, 'vote export cut: nothing sent or taken');
        res.destroy();
      });
      await service.writeTo(format, res).catch((err: unknown) => {
        // The request's own logger: the line carries its request id.
        if (!req.socket.destroyed) (req.log ?? deps.logger).warn({ err }, 'vote export stopped');
        res.destroy();
      });
    } finally {
      release();
    }
  };

  router.get('/export/votes.jsonl', enabled, deps.limit, send('jsonl'));
  router.get('/export/votes.csv', enabled, deps.limit, send('csv'));
  return router;
}
