import type { Db } from '../../infra/db.ts';

/** The last minute's battles, votes and output tokens, and each model's answers and failures over five. */
export async function recentActivity(db: Db): Promise<{
  battles: number;
  votes: number;
  outputTokens: number;
  models: Map<string, { answers: number; errors: number }>;
}> {
  const [counts, models] = await Promise.all([
    db.query<{ battles: number; votes: number; tokens: string | null }>(
      `SELECT (SELECT count(*)::int FROM battles WHERE created_at > now() - interval '1 minute') AS battles,
              (SELECT count(*)::int FROM votes WHERE created_at > now() - interval '1 minute') AS votes,
              (SELECT sum(output_tokens) FROM answers WHERE created_at > now() - interval '1 minute') AS tokens`,
    ),
    db.query<{ model: string; answers: number; errors: number }>(
      `SELECT model, count(*)::int AS answers, count(*) FILTER (WHERE error_code IS NOT NULL)::int AS errors
         FROM answers WHERE created_at > now() - interval '5 minutes' GROUP BY model`,
    ),
  ]);
  const row = counts.rows[0]!;
  return {
    battles: row.battles,
    votes: row.votes,
    outputTokens: Number(row.tokens ?? 0),
    models: new Map(models.rows.map((r) => [r.model, { answers: r.answers, errors: r.errors }])),
  };
}
