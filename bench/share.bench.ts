/**
 * What a shared battle's page costs the gateway, and its preview image.
 *
 * 1. `GET /b/:id` at `--rate` requests a second (open loop, over `--battles` voted battles, half the
 *    readers asking for Korean) against a gateway process serving the built client, alternating
 *    round by round with the anchor: the same gateway's app shell for a client-side route
 *    (`/leaderboard`), which reads nothing from PostgreSQL. The share page reads the battle
 *    (one primary-key lookup) and writes its tags into the shell.
 * 2. `GET /b/:id/preview.png`: the first request of each battle and language renders it (resvg, in
 *    Noto Sans CJK), the next is served from Redis; both timed from this process, one at a time.
 *
 *   npm run bench -- share [--rate 200] [--seconds 10] [--rounds 4] [--battles 200] [--previews 10] [--build] [--quick]
 */
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEMO_ROSTER } from '@duet/platform/roster-settings';
import pg from 'pg';
import { startGatewayProcess } from '../test/helpers/gateway-process.ts';
import { ensureClientBuilt } from './landing-bundle.ts';
import { runChild } from './lib/child.ts';
import { machineLine, pct, round } from './lib/stats.ts';

const { values } = parseArgs({
  options: {
    rate: { type: 'string', default: '200' },
    seconds: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '4' },
    battles: { type: 'string', default: '200' },
    previews: { type: 'string', default: '10' },
    build: { type: 'boolean', default: false },
    quick: { type: 'boolean', default: false },
  },
});
const RATE = values.quick ? 50 : Number(values.rate);
const SECONDS = values.quick ? 2 : Number(values.seconds);
const ROUNDS = values.quick ? 1 : Number(values.rounds);
const BATTLES = values.quick ? 20 : Number(values.battles);
const PREVIEWS = values.quick ? 2 : Number(values.previews);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const [A, B] = DEMO_ROSTER as [(typeof DEMO_ROSTER)[number], (typeof DEMO_ROSTER)[number]];

/** `count` voted battles that moderation passed, written straight to the gateway's database. */
async function seed(databaseUrl: string, count: number): Promise<string[]> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const ids: string[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const id = randomUUID();
      ids.push(id);
      const text = i % 2 ? `비 오는 날에 대한 짧은 시를 써 주세요 (${i})` : `Write a short poem about the rain, number ${i}`;
      await db.query(
        `INSERT INTO battles (id, tool, lang, text, model_a, label_a, family_a, model_b, label_b, family_b, mode, vote_token_hash, status, moderation)
         VALUES ($1, 'makeLyrics', 'en', $2, $3, $4, $5, $6, $7, $8, 'blind', $9, 'finished', 'ok')`,
        [id, text, A.id, A.label, A.family, B.id, B.label, B.family, randomUUID()],
      );
      await db.query(
        `INSERT INTO answers (battle_id, side, model, text, finish_reason, input_tokens, output_tokens, ttft_ms, duration_ms, names_model)
         VALUES ($1, 'a', $2, 'Rain on the roof.', 'stop', 12, 80, 300, 4000, false), ($1, 'b', $3, 'Grey clouds.', 'stop', 12, 60, 250, 3000, false)`,
        [id, A.id, B.id],
      );
      await db.query(`INSERT INTO votes (battle_id, tool, winner) VALUES ($1, 'makeLyrics', $2)`, [id, ['a', 'b', 'tie'][i % 3]]);
    }
  } finally {
    await db.end();
  }
  return ids;
}

interface LoadResult {
  ms: number[];
  statuses: Record<string, number>;
  lateMs: number;
}

async function main() {
  const gateway = await startGatewayProcess({ env: { CLIENT_DIST: ensureClientBuilt(ROOT, values.build), RATE_LIMIT_BATTLES_PER_MINUTE: '0' } });
  try {
    const ids = await seed(gateway.env.DATABASE_URL!, BATTLES);
    const paths = { share: ids.map((id) => `/b/${id}`), anchor: ['/leaderboard'] };
    const ms: Record<'share' | 'anchor', number[]> = { share: [], anchor: [] };
    const rounds: Record<'share' | 'anchor', number[]> = { share: [], anchor: [] };
    const statuses: Record<'share' | 'anchor', Record<string, number>> = { share: {}, anchor: {} };
    let lateMs = 0;
    const load = (which: 'share' | 'anchor', seconds: number) =>
      runChild<LoadResult>('bench/lib/get-load.ts', { GATEWAY_URL: gateway.url, PATHS: JSON.stringify(paths[which]), RATE: String(RATE), SECONDS: String(seconds) }).result;
    for (const which of ['anchor', 'share'] as const) await load(which, values.quick ? 1 : 3);
    for (let turn = 0; turn < ROUNDS; turn++) {
      for (const which of turn % 2 === 0 ? (['anchor', 'share'] as const) : (['share', 'anchor'] as const)) {
        const r = await load(which, SECONDS);
        ms[which].push(...r.ms);
        rounds[which].push(round(pct(r.ms, 99), 1));
        for (const [status, n] of Object.entries(r.statuses)) statuses[which][status] = (statuses[which][status] ?? 0) + n;
        lateMs = Math.max(lateMs, r.lateMs);
      }
    }

    const timed = async (path: string) => {
      const t0 = performance.now();
      const res = await fetch(`${gateway.url}${path}`);
      await res.arrayBuffer();
      return { ms: performance.now() - t0, cache: res.headers.get('x-preview-cache'), status: res.status };
    };
    const misses: number[] = [];
    const hits: number[] = [];
    for (let i = 0; i < PREVIEWS; i++) {
      const path = `/b/${ids[i]}/preview.png?lang=${i % 2 ? 'ko' : 'en'}`;
      const first = await timed(path);
      const again = await timed(path);
      if (first.cache !== 'miss' || again.cache !== 'hit' || first.status !== 200) throw new Error(`preview ${path}: ${JSON.stringify([first, again])}`);
      misses.push(first.ms);
      hits.push(again.ms);
    }

    const figures = (xs: number[]) => ({ requests: xs.length, p50Ms: round(pct(xs, 50), 2), p99Ms: round(pct(xs, 99), 2) });
    const result = {
      rate: RATE,
      share: { ...figures(ms.share), roundsP99Ms: rounds.share, statuses: statuses.share },
      anchor: { ...figures(ms.anchor), roundsP99Ms: rounds.anchor, statuses: statuses.anchor },
      lateMs: round(lateMs, 1),
      preview: { renders: misses.length, firstP50Ms: round(pct(misses, 50), 1), firstMaxMs: round(Math.max(...misses), 1), cachedP50Ms: round(pct(hits, 50), 2), cachedMaxMs: round(Math.max(...hits), 2) },
    };
    console.log(await machineLine());
    console.log(`GET /b/:id at ${RATE}/s: p50 ${result.share.p50Ms} ms, p99 ${result.share.p99Ms} ms (rounds ${result.share.roundsP99Ms.join(', ')})`);
    console.log(`anchor, the shell of /leaderboard: p50 ${result.anchor.p50Ms} ms, p99 ${result.anchor.p99Ms} ms (rounds ${result.anchor.roundsP99Ms.join(', ')})`);
    console.log(`preview: first render p50 ${result.preview.firstP50Ms} ms (max ${result.preview.firstMaxMs}), from the cache p50 ${result.preview.cachedP50Ms} ms`);
    console.log(JSON.stringify(result));
  } finally {
    await gateway.stop();
  }
}

await main();
