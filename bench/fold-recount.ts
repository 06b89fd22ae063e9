/**
 * What the style refit's recount of the folded cells costs, next to the frequent fold it stands
 * beside, on `--votes` synthetic votes (default 1,000,000, answers left out: the recount reads
 * votes and battles only), in the same run: the frequent fold of the last 1,000 votes, the
 * recount with nothing to correct, and the recount of cells one vote short (as a vote that
 * committed behind the watermark leaves them).
 *
 *   npx tsx bench/fold-recount.ts [--votes 1000000]
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { foldCountedVotes } from '../worker/src/store/leaderboard.repo.ts';
import type { FoldResult } from '../worker/src/store/leaderboard.repo.ts';
import { insertSyntheticVotes } from '../test/helpers/synthetic-votes.ts';
import { createTestDatabase } from '../test/helpers/test-db.ts';
import { machineLine, round } from './lib/stats.ts';

const { values } = parseArgs({ options: { votes: { type: 'string', default: '1000000' } } });
const VOTES = Number(values.votes);
const db = await createTestDatabase();
try {
  const client = await db.pool.connect();
  try {
    await insertSyntheticVotes(client, VOTES, { spreadSeconds: 3600 });
  } finally {
    client.release();
  }
  await db.pool.query('VACUUM ANALYZE');
  const timed = async (what: string, fn: () => Promise<FoldResult>) => {
    const t = performance.now();
    const { corrected } = await fn();
    return { what, ms: round(performance.now() - t, 1), corrected };
  };
  const rows = [await timed('first fold (every vote, once)', () => foldCountedVotes(db.pool, 0))];
  const c = await db.pool.connect();
  try {
    await insertSyntheticVotes(c, 1_000, { spreadSeconds: 0 });
  } finally {
    c.release();
  }
  rows.push(await timed('frequent fold of 1,000 new votes', () => foldCountedVotes(db.pool, 0)));
  for (let i = 0; i < 3; i++) rows.push(await timed('recount, nothing to correct', () => foldCountedVotes(db.pool, 0, { reconcile: true })));
  // A cell one vote short, as a vote that committed behind the watermark leaves it.
  await db.pool.query(`UPDATE leaderboard_cells SET n = n - 1 WHERE ctid = (SELECT ctid FROM leaderboard_cells WHERE n > 1 LIMIT 1)`);
  rows.push(await timed('recount, one cell to correct', () => foldCountedVotes(db.pool, 0, { reconcile: true })));
  console.log(`\n${await machineLine()} · ${VOTES.toLocaleString('en')} votes\n`);
  console.log('| step | ms | cells corrected |\n|---|---|---|');
  for (const r of rows) console.log(`| ${r.what} | ${r.ms} | ${r.corrected} |`);
  console.log(JSON.stringify({ votes: VOTES, steps: rows }));
} finally {
  await db.drop();
}
