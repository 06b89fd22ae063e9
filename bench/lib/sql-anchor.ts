/**
 * The anchors, straight to PostgreSQL with nothing in between: `CONCURRENCY` callers over a pool
 * of `POOL` connections (the gateway's pool size, so both go through as many connections), for
 * `WARMUP_MS` and then `DURATION_MS`, each issuing its next statement as soon as the last one
 * answered. `MODE=insert`: a bare one-row `INSERT` into `bench_insert_anchor` (autocommit, so one
 * commit each, as a vote has). `MODE=select`: a bare primary-key `SELECT` of stored battle i, i
 * at random in 1..`STORED`. Prints a `LoopResult`.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { closedLoop } from './closed-loop.ts';
import { storedBattleId } from './vote-seed.ts';

const mode = process.env.MODE;
const stored = Number(process.env.STORED ?? 1);
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL!, max: Number(process.env.POOL) });
const WINNERS = ['a', 'b', 'tie', 'both_bad'];
let n = 0;

const result = await closedLoop({
  concurrency: Number(process.env.CONCURRENCY),
  warmupMs: Number(process.env.WARMUP_MS),
  durationMs: Number(process.env.DURATION_MS),
  call: async () => {
    if (mode === 'insert') {
      const { rowCount } = await pool.query('INSERT INTO bench_insert_anchor (battle_id, winner) VALUES ($1, $2)', [randomUUID(), WINNERS[n++ % 4]]);
      return rowCount === 1 ? true : 'not inserted';
    }
    const { rowCount } = await pool.query('SELECT * FROM battles WHERE id = $1', [storedBattleId(1 + Math.floor(Math.random() * stored))]);
    return rowCount === 1 ? true : 'not found';
  },
});
await pool.end();
console.log(JSON.stringify(result));
