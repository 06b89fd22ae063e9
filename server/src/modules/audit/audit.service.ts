import { Readable } from 'node:stream';
import type { AuditFilter, AuditLogEntry, AuditPage, AuditQuery } from '@duet/contracts';
import { z } from 'zod';
import { decodeCursor, encodeCursor } from '../../http/page-cursor.ts';
import type { Db } from '../../infra/db.ts';
import type { StoredAuditEntry } from './audit.repo.ts';
import { listAudit } from './audit.repo.ts';

export type { AuditEntry } from './audit.repo.ts';
/**
 * Writes one entry: other modules record their operators' actions through here, in the
 * transaction of the change (modules never read each other's repositories).
 */
export { recordAudit } from './audit.repo.ts';

export type AuditService = ReturnType<typeof createAuditService>;

/** An audit cursor's key: the last entry's id (a positive `bigint`, in decimal). */
const ZAuditKeySchema = z.tuple([z.string().regex(/^[1-9][0-9]{0,18}$/).refine((id) => BigInt(id) <= 2n ** 63n - 1n)]);

/** Entries a download reads per query: it holds no connection between them. */
const EXPORT_PAGE_SIZE = 500;

const view = (e: StoredAuditEntry): AuditLogEntry => ({
  id: e.id,
  at: e.at.toISOString(),
  actor: e.actor,
  action: e.action,
  target: e.target,
  before: e.before,
  after: e.after,
});

/** The operators' audit log, read back: a page at a time, or every matching entry as JSON lines. */
export function createAuditService(deps: { db: Db }) {
  /**
   * Every entry matching `filter` as a JSON line, newest first, a page at a time from the newest
   * there was when it started; `first` is its first page, read before anything is sent.
   */
  async function* lines(filter: AuditFilter, first: StoredAuditEntry[]): AsyncGenerator<string> {
    let page = first;
    for (;;) {
      for (const e of page) yield `${JSON.stringify(view(e))}\n`;
      const last = page.at(-1);
      if (!last || page.length < EXPORT_PAGE_SIZE) return;
      page = await listAudit(deps.db, filter, EXPORT_PAGE_SIZE, last.id);
    }
  }

  return {
    /** One page, newest first. */
    async page(query: AuditQuery): Promise<AuditPage> {
      const { cursor, limit, ...filter } = query;
      // Refused (400) before anything is read.
      const before = cursor === undefined ? null : decodeCursor(cursor, ZAuditKeySchema)[0];
      const rows = await listAudit(deps.db, filter, limit + 1, before);
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return { entries: page.map(view), nextCursor: rows.length > limit && last ? encodeCursor([last.id]) : null };
    },
    /**
     * Every matching entry as JSON lines, one object a line, read a page at a time as the stream is
     * read: a slow reader slows the paging. The first page is read before it resolves, so a failure
     * to read is an error answer, not a download cut short.
     */
    async jsonl(filter: AuditFilter): Promise<Readable> {
      const first = await listAudit(deps.db, filter, EXPORT_PAGE_SIZE, null);
      return Readable.from(lines(filter, first), { objectMode: false });
    },
  };
}
