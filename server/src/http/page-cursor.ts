import type { z } from 'zod';
import { AppError } from './errors.ts';

/**
 * The opaque cursor of a keyset page: the key of the last row given (texts, as PostgreSQL prints
 * them), as base64url JSON. The reader hands it back for the next page and never looks inside.
 */
export const encodeCursor = (key: readonly string[]): string => Buffer.from(JSON.stringify(key)).toString('base64url');

/**
 * A cursor exactly as `encodeCursor` wrote it, its key checked by `schema`; anything else is a
 * 400, refused before PostgreSQL sees it. The same text must come out again when written back: no
 * extra JSON whitespace, no stray base64 characters, so one position has one cursor.
 */
export function decodeCursor<S extends z.ZodType<readonly string[]>>(raw: string, schema: S): z.infer<S> {
  const refused = new AppError(400, 'validation_failed', 'cursor: not a cursor this API gave out');
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw refused;
  }
  const key = schema.safeParse(parsed);
  if (!key.success || encodeCursor(key.data) !== raw) throw refused;
  return key.data;
}

const UTC_MICROS = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})\.\d{6}\+00$/;

/**
 * A time as the keyset queries print it (`to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') || '+00'`),
 * to the microsecond (a JavaScript Date keeps milliseconds, and a page that started after a
 * rounded time would repeat or skip rows of that millisecond), with real calendar values.
 */
export function isUtcMicros(text: string): boolean {
  const m = UTC_MICROS.exec(text);
  if (!m) return false;
  const [year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0] = m.slice(1).map(Number);
  return (
    year >= 1 && month >= 1 && month <= 12 && day >= 1 && new Date(Date.UTC(year, month - 1, day)).getUTCDate() === day &&
    hour <= 23 && minute <= 59 && second <= 59
  );
}

/** How the keyset queries print a `timestamptz` for a cursor (see `isUtcMicros`). */
export const utcMicrosSql = (column: string): string => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') || '+00'`;
