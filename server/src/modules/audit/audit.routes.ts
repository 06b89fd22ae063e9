import { pipeline } from 'node:stream/promises';
import { ZAuditFilterSchema, ZAuditQuerySchema } from '@duet/contracts';
import { Router } from 'express';
import type { Logger } from 'pino';
import { parseOr400 } from '../../http/errors.ts';
import type { AuditService } from './audit.service.ts';

/** The operators' audit log: a page at a time, or whole as JSON lines; mount it behind the operators' API guard. */
export function auditRoutes(service: AuditService, deps: { logger: Logger }): Router {
  const router = Router();

  router.get('/audit', async (req, res) => {
    const query = parseOr400(ZAuditQuerySchema, req.query);
    res.set('Cache-Control', 'no-store').json(await service.page(query));
  });

  router.get('/audit.jsonl', async (req, res) => {
    const lines = await service.jsonl(parseOr400(ZAuditFilterSchema, req.query));
    res.status(200);
    res.set('Content-Type', 'application/x-ndjson; charset=utf-8');
    res.set('Content-Disposition', 'attachment; filename="duet-audit.jsonl"');
    res.set('Cache-Control', 'no-store');
    await pipeline(lines, res).catch((err: unknown) => {
      // Too late for an error answer: the download is cut short, which its reader sees.
      if (!req.socket.destroyed) (req.log ?? deps.logger).warn({ err }, 'audit export stopped');
      res.destroy();
    });
  });

  return router;
}
