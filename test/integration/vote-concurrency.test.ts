import { randomUUID } from 'node:crypto';
import { DEMO_ROSTER } from '@duet/platform/roster-settings';
import { namesModel } from '@duet/contracts/model-names';
import pg from 'pg';
import type { ErrorResponse, HistoryResponse, StatsUpdate, VoteResponse, Winner } from '@duet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashVoteToken, newVoteToken } from '../../server/src/modules/battles/vote-token.ts';
import { getJson } from '../helpers/api.ts';
import { connectSocket } from '../helpers/battle-viewer.ts';
import type { TestDuet } from '../helpers/duet.ts';
import { startTestDuet } from '../helpers/duet.ts';
import { waitFor } from '../helpers/wait.ts';

const [ATLAS, SONNET] = DEMO_ROSTER as [(typeof DEMO_ROSTER)[number], (typeof DEMO_ROSTER)[number]];
const WINNERS: Winner[] = ['a', 'b', 'tie', 'both_bad'];

interface Battle {
  id: string;
  voteToken: string;
  tool: string;
  models: { a: string; b: string };
}

interface Counters {
  model: string;
  battles: number;
  wins: number;
  losses: number;
  ties: number;
  both_bad: number;
}

/**
 * What the vote path guarantees when votes arrive at once: one vote per battle, the daily cap
 * exact, counters bumped exactly once per counted vote and never a deadlock. The battles are
 * stored finished (both answers in place) straight in PostgreSQL; every vote goes through HTTP.
 */
describe('votes arriving at once', () => {
  let duet: TestDuet;

  beforeAll(async () => {
    // Voters are told apart by address: X-Forwarded-For is believed from loopback.
    duet = await startTestDuet({ noWorker: true, env: { VOTE_DAILY_CAP: '3', TRUST_PROXY: 'loopback' } });
  });
  afterAll(async () => {
    await duet?.close();
  });

  /** A battle with both answers stored, as a worker leaves it; `swapped` puts Sonnet on side a. */
  async function finishedBattle(tool: string, opts: { swapped?: boolean; answer?: string } = {}): Promise<Battle> {
    const id = randomUUID();
    const voteToken = newVoteToken();
    const [a, b] = opts.swapped ? [SONNET, ATLAS] : [ATLAS, SONNET];
    await duet.db.pool.query(
      `INSERT INTO battles (id, tool, lang, text, model_a, label_a, family_a, model_b, label_b, family_b, mode, vote_token_hash, status, moderation)
       VALUES ($1, $2, 'en', 'Why are there tides?', $3, $4, $5, $6, $7, $8, 'blind', $9, 'finished', 'ok')`,
      [id, tool, a.id, a.label, a.family, b.id, b.label, b.family, hashVoteToken(voteToken)],
    );
    const answer = opts.answer ?? 'The moon pulls the sea toward it.';
    await duet.db.pool.query(
      `INSERT INTO answers (battle_id, side, model, text, finish_reason, duration_ms, names_model)
       VALUES ($1, 'a', $2, $4, 'stop', 1000, $5), ($1, 'b', $3, $4, 'stop', 1000, $5)`,
      [id, a.id, b.id, answer, namesModel(answer)],
    );
    return { id, voteToken, tool, models: { a: a.id, b: b.id } };
  }

  const vote = async (battle: Battle, winner: Winner, from: string) => {
    const res = await fetch(`${duet.url}/api/battles/${battle.id}/vote`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': from },
      body: JSON.stringify({ winner, voteToken: battle.voteToken }),
    });
    return { status: res.status, body: (await res.json()) as VoteResponse & ErrorResponse };
  };

  const countersOf = async (tool: string): Promise<Counters[]> =>
    (await duet.db.pool.query<Counters>('SELECT model, battles, wins, losses, ties, both_bad FROM model_totals WHERE tool = $1 ORDER BY model', [tool])).rows;

  const reasonsOf = async (battles: Battle[]): Promise<Array<string | null>> =>
    (await duet.db.pool.query<{ uncounted_reason: string | null }>('SELECT uncounted_reason FROM votes WHERE battle_id = ANY ($1::uuid[])', [battles.map((b) => b.id)])).rows.map(
      (r) => r.uncounted_reason,
    );

  it('stores one vote and bumps the counters once when twenty votes on one battle arrive at once', async () => {
    const battle = await finishedBattle('docent');
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => vote(battle, WINNERS[i % 4]!, `198.51.100.${i + 1}`)));

    expect(results.map((r) => r.status).sort()).toEqual([200, ...Array<number>(19).fill(409)]);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.error.code).toBe('already_voted');
    const { rows } = await duet.db.pool.query<{ winner: Winner }>('SELECT winner FROM votes WHERE battle_id = $1', [battle.id]);
    expect(rows).toHaveLength(1);
    const counters = await countersOf('docent');
    expect(counters.map((c) => [c.model, c.battles])).toEqual([
      [ATLAS.id, 1],
      [SONNET.id, 1],
    ]);
    // The one vote stored is the one that was answered 200, and its win rates are the counters now.
    const accepted = results.find((r) => r.status === 200)!.body;
    expect(accepted.winner).toBe(rows[0]!.winner);
    expect(accepted.winRates.map((w) => [w.model, w.battles, w.wins, w.losses, w.ties, w.bothBad]).sort()).toEqual(
      counters.map((c) => [c.model, c.battles, c.wins, c.losses, c.ties, c.both_bad]).sort(),
    );
    const history = await getJson<HistoryResponse>(`${duet.url}/api/tools/docent/history`);
    expect(history.body.winRates).toEqual(accepted.winRates);
  });

  it('counts no more than the daily cap when one voter’s votes arrive at once', async () => {
    const battles = await Promise.all(Array.from({ length: 12 }, () => finishedBattle('rap-lyrics')));
    const results = await Promise.all(battles.map((b, i) => vote(b, WINNERS[i % 4]!, '203.0.113.7')));

    expect(results.map((r) => r.status)).toEqual(Array<number>(12).fill(200));
    const reasons = await reasonsOf(battles);
    expect(reasons.filter((r) => r === null)).toHaveLength(3);
    expect(reasons.filter((r) => r === 'daily_cap')).toHaveLength(9);
    expect((await countersOf('rap-lyrics')).map((c) => c.battles)).toEqual([3, 3]);
    const { rows } = await duet.db.pool.query('SELECT DISTINCT voter_key FROM votes WHERE battle_id = ANY ($1::uuid[])', [battles.map((b) => b.id)]);
    expect(rows).toHaveLength(1);
  });

  it('counts a voter’s uncounted votes of the day toward the cap too', async () => {
    const named = await finishedBattle('accounting-solving', { answer: 'As Claude, I would say the moon.' });
    const clean = await Promise.all(Array.from({ length: 3 }, () => finishedBattle('accounting-solving')));
    for (const b of [named, ...clean]) expect((await vote(b, 'a', '203.0.113.8')).status).toBe(200);

    const { rows } = await duet.db.pool.query<{ battle_id: string; uncounted_reason: string | null }>(
      'SELECT battle_id, uncounted_reason FROM votes WHERE battle_id = ANY ($1::uuid[])',
      [[named, ...clean].map((b) => b.id)],
    );
    const reason = (b: Battle) => rows.find((r) => r.battle_id === b.id)?.uncounted_reason;
    expect([named, ...clean].map(reason)).toEqual(['model_named', null, null, 'daily_cap']);
  });

  it('never deadlocks when votes on one tool put the same two models on opposite sides', async () => {
    const battles = await Promise.all(Array.from({ length: 40 }, (_, i) => finishedBattle('excel-solving', { swapped: i % 2 === 1 })));
    const winners = battles.map((_, i) => WINNERS[Math.floor(i / 2) % 4]!);
    const results = await Promise.all(battles.map((b, i) => vote(b, winners[i]!, `192.0.2.${i + 1}`)));

    expect(results.map((r) => r.status)).toEqual(Array<number>(40).fill(200));
    const expected = new Map<string, Counters>();
    for (const model of [ATLAS.id, SONNET.id]) expected.set(model, { model, battles: 0, wins: 0, losses: 0, ties: 0, both_bad: 0 });
    battles.forEach((b, i) => {
      const winner = winners[i]!;
      for (const side of ['a', 'b'] as const) {
        const c = expected.get(b.models[side])!;
        c.battles += 1;
        if (winner === side) c.wins += 1;
        else if (winner === 'a' || winner === 'b') c.losses += 1;
        else if (winner === 'tie') c.ties += 1;
        else c.both_bad += 1;
      }
    });
    expect(await countersOf('excel-solving')).toEqual([...expected.values()]);
  });

  it('tells a tool’s watchers the latest win rates without one broadcast per vote', async () => {
    const watcher = await connectSocket(duet.url);
    try {
      expect(await watcher.emitWithAck('tool:watch', { tool: 'netflix-recommend-duet' })).toEqual({ ok: true, data: { watching: 'netflix-recommend' } });
      const updates: StatsUpdate[] = [];
      watcher.on('stats:update', (u) => updates.push(u));
      const battles = await Promise.all(Array.from({ length: 30 }, (_, i) => finishedBattle('netflix-recommend', { swapped: i % 2 === 1 })));
      const results = await Promise.all(battles.map((b, i) => vote(b, 'a', `198.51.100.${i + 1}`)));
      expect(results.map((r) => r.status)).toEqual(Array<number>(30).fill(200));

      // The last update carries every vote: none is lost to the coalescing.
      const total = (u: StatsUpdate | undefined) => u?.winRates.find((w) => w.model === ATLAS.id)?.battles;
      await waitFor(() => total(updates.at(-1)) === 30 || undefined, { what: 'an update with all 30 votes' });
      expect(updates.every((u) => u.tool === 'netflix-recommend')).toBe(true);
      expect(updates[0]!.winRates.length).toBe(2);
      // Thirty votes at once were folded into a few updates (one each before).
      expect(updates.length).toBeLessThan(30);
      const counters = await countersOf('netflix-recommend');
      expect(updates.at(-1)!.winRates.map((w) => [w.model, w.battles, w.wins, w.losses]).sort()).toEqual(counters.map((c) => [c.model, c.battles, c.wins, c.losses]).sort());
    } finally {
      watcher.disconnect();
    }
  });

  it('lets two votes on one tool store at once: neither waits for the other to commit', async () => {
    const [first, second] = await Promise.all([finishedBattle('math-solve'), finishedBattle('math-solve')]);
    // Two sessions whose votes land in different shards of the counters (as two of a gateway's
    // pooled connections almost always do). One row per tool and model would make the second
    // wait for the first's commit: its lock timeout would end it with an error.
    const sessions: pg.PoolClient[] = [];
    const pool = new pg.Pool({ connectionString: duet.db.url, max: 20 });
    try {
      const shards = new Set<number>();
      while (sessions.length < 2) {
        const client = await pool.connect();
        const { rows } = await client.query<{ shard: number }>('SELECT pg_backend_pid() % 16 AS shard');
        if (shards.has(rows[0]!.shard)) {
          client.release();
          continue;
        }
        shards.add(rows[0]!.shard);
        sessions.push(client);
      }
      const [one, two] = sessions as [pg.PoolClient, pg.PoolClient];
      const stats = JSON.stringify([
        { model: ATLAS.id, label: ATLAS.label, family: ATLAS.family, wins: 1, losses: 0, ties: 0, both_bad: 0 },
        { model: SONNET.id, label: SONNET.label, family: SONNET.family, wins: 0, losses: 1, ties: 0, both_bad: 0 },
      ]);
      const cast = (client: pg.PoolClient, b: Battle) =>
        client.query<{ inserted: boolean; counted: boolean }>("SELECT inserted, counted FROM cast_vote($1, $2, 'a', NULL, $3, true, NULL, 0, $4)", [b.id, b.tool, `test:${b.id}`, stats]);
      await one.query('BEGIN');
      expect((await cast(one, first)).rows[0]).toEqual({ inserted: true, counted: true });
      await two.query("SET lock_timeout = '2s'");
      expect((await cast(two, second)).rows[0]).toEqual({ inserted: true, counted: true });
      await one.query('COMMIT');
    } finally {
      for (const s of sessions) s.release();
      await pool.end();
    }
    // Readers see the shards summed: one row per model, both votes in it.
    const counters = await countersOf('math-solve');
    expect(counters.map((c) => [c.model, c.battles, c.wins, c.losses])).toEqual(
      [
        [ATLAS.id, 2, 2, 0],
        [SONNET.id, 2, 0, 2],
      ].sort((x, y) => String(x[0]).localeCompare(String(y[0]))),
    );
    const { rows } = await duet.db.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM model_stats WHERE tool = 'math-solve'");
    expect(rows[0]!.n).toBe(4);
    const history = await getJson<HistoryResponse>(`${duet.url}/api/tools/math-solve/history`);
    expect(history.body.winRates.find((w) => w.model === ATLAS.id)).toMatchObject({ battles: 2, wins: 2 });
  });
});
