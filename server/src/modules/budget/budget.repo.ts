import type { Db } from '../../infra/db.ts';

/** This UTC hour's spend per model and `*`, in US dollars, from the spend ledger; and when the hour began. */
export async function hourSpend(db: Db): Promise<{ start: Date; settled: Record<string, number> }> {
  const { rows } = await db.query<{ start: Date; model: string | null; usd: string | null }>(
    `WITH h AS (SELECT date_trunc('hour', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS start)
     SELECT h.start, l.model, l.usd FROM h LEFT JOIN spend_ledger l ON l.period = 'hour' AND l.period_start = h.start`,
  );
  const settled: Record<string, number> = { '*': 0 };
  for (const r of rows) {
    if (r.model === null) continue;
    settled[r.model] = Number(r.usd);
    settled['*'] = (settled['*'] ?? 0) + Number(r.usd);
  }
  return { start: rows[0]!.start, settled };
}
