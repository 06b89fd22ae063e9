import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import { Router } from 'express';
import type { Request, RequestHandler, Response } from 'express';
import { AppError } from '../../http/errors.ts';
import type { Logger } from 'pino';
import type { Db } from '../../infra/db.ts';
import type { ExportRow } from './export.repo.ts';
import { streamCountedBattles } from './export.repo.ts';

const CSV_COLUMNS = [
  'battle_id', 'tool', 'lang', 'model_a', 'model_b', 'winner', 'question', 'inputs',
  'answer_a', 'answer_b', 'finish_a', 'finish_b', 'asked_at', 'voted_at',
] as const;

const toRecord = (r: ExportRow) => ({
  ...r,
  inputs: JSON.stringify(r.inputs),
  asked_at: r.asked_at.toISOString(),
  voted_at: r.voted_at.toISOString(),
});

/**
 * Open data: every counted battle, as JSON lines or CSV, streamed. Each download holds a
 * database connection for as long as the reader takes, so only `maxConcurrent` run at once.
 */
export function exportRoutes(deps: { db: Db; logger: Logger; limit: RequestHandler; maxConcurrent?: number }): Router {
  const router = Router();
  const maxConcurrent = deps.maxConcurrent ?? 2;
  let running = 0;

  const send = (format: 'jsonl' | 'csv') => async (req: Request, res: Response) => {
    if (running >= maxConcurrent) {
      throw new AppError(503, 'unavailable', 'Other downloads are running. Please try again in a minute.');
    }
    running += 1;
    try {
      await stream(format, req, res);
    } finally {
      running -= 1;
    }
  };

  const stream = async (format: 'jsonl' | 'csv', req: Request, res: Response) => {
    const client = await deps.db.connect();
    const rows = streamCountedBattles(client);
    res.status(200);
    res.set('Content-Type', format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8');
    res.set('Content-Disposition', `attachment; filename="duet-votes.${format}"`);
    res.set('Cache-Control', 'no-store');
    const encode =
      format === 'csv'
        ? stringify({ header: true, columns: [...CSV_COLUMNS], bom: true })
        : new Transform({
            writableObjectMode: true,
            transform(row: ExportRow, _enc, done) {
              done(null, `${JSON.stringify({ ...row, asked_at: row.asked_at.toISOString(), voted_at: row.voted_at.toISOString() })}\n`);
            },
          });
    const shape = new Transform({
      objectMode: true,
      transform(row: ExportRow, _enc, done) {
        done(null, format === 'csv' ? toRecord(row) : row);
      },
    });
    let failed = false;
    try {
      // Back-pressure all the way: a slow reader slows the cursor, never fills memory.
      await pipeline(rows, shape, encode, res);
    } catch (err) {
      failed = true;
      if (!req.socket.destroyed) deps.logger.warn({ err }, 'vote export stopped');
      res.destroy();
    } finally {
      // A connection whose cursor was cut off is closed rather than reused.
      client.release(failed);
    }
  };

  router.get('/export/votes.jsonl', deps.limit, send('jsonl'));
  router.get('/export/votes.csv', deps.limit, send('csv'));
  return router;
}
