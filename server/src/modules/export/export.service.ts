import { Transform } from 'node:stream';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { maskPii, maskPiiDeep } from '@duet/contracts/pii';
import { stringify } from 'csv-stringify';
import { AppError } from '../../http/errors.ts';
import type { Db } from '../../infra/db.ts';
import type { ExportRow } from './export.repo.ts';
import { streamCountedBattles } from './export.repo.ts';

export type ExportFormat = 'jsonl' | 'csv';
export type ExportService = ReturnType<typeof createExportService>;

const CSV_COLUMNS = [
  'battle_id', 'tool', 'lang', 'model_a', 'model_b', 'winner', 'reasons', 'question', 'inputs',
  'answer_a', 'answer_b', 'finish_a', 'finish_b', 'asked_at', 'voted_at', 'follow_ups', 'prompt_rank', 'over_prompt_cap',
] as const;

/** A row as the open data set publishes it: personal data masked in the question, its inputs and both answers. */
export function publicRow(row: ExportRow): ExportRow {
  return {
    ...row,
    question: maskPii(row.question),
    inputs: maskPiiDeep(row.inputs),
    answer_a: maskPii(row.answer_a),
    answer_b: maskPii(row.answer_b),
    follow_ups: row.follow_ups.map((t) => ({ ...t, question: maskPii(t.question), answer_a: maskPii(t.answer_a), answer_b: maskPii(t.answer_b) })),
  };
}

const withIsoTimes = (r: ExportRow) => ({ ...r, asked_at: r.asked_at.toISOString(), voted_at: r.voted_at.toISOString() });

/** Rows to the bytes of one format. */
function encoder(format: ExportFormat): Transform {
  if (format === 'csv') return stringify({ header: true, columns: [...CSV_COLUMNS], bom: true });
  return new Transform({
    writableObjectMode: true,
    transform(row: ExportRow, _enc, done) {
      done(null, `${JSON.stringify(withIsoTimes(row))}\n`);
    },
  });
}

/** What the CSV writer takes of a row: its inputs as JSON text, times as ISO strings. */
const shaper = (format: ExportFormat) =>
  new Transform({
    objectMode: true,
    transform(row: ExportRow, _enc, done) {
      const shown = publicRow(row);
      done(
        null,
        format === 'csv'
          ? { ...withIsoTimes(shown), inputs: JSON.stringify(shown.inputs), reasons: shown.reasons.join(' '), follow_ups: JSON.stringify(shown.follow_ups), over_prompt_cap: String(shown.over_prompt_cap) }
          : shown,
      );
    },
  });

/**
 * Open data: every counted battle that passed moderation, personal data masked, streamed a page
 * at a time. A download's rows cost the gateway's CPU (masking, encoding) and PostgreSQL a query a
 * page: only `maxConcurrent` run at once, so downloads cannot take a gateway from its viewers.
 */
export function createExportService(deps: { db: Db; maxConcurrent?: number }) {
  const maxConcurrent = deps.maxConcurrent ?? 2;
  let running = 0;
  return {
    /** Throws 503 when `maxConcurrent` downloads are running already; call before answering. */
    reserve(): () => void {
      if (running >= maxConcurrent) throw new AppError(503, 'unavailable', 'Other downloads are running. Please try again in a minute.');
      running += 1;
      let released = false;
      return () => {
        if (!released) running -= 1;
        released = true;
      };
    },
    /** Writes the whole data set to `out` with back-pressure all the way: a slow reader slows the paging, never fills memory. */
    async writeTo(format: ExportFormat, out: Writable): Promise<void> {
      await pipeline(streamCountedBattles(deps.db), shaper(format), encoder(format), out);
    },
  };
}
