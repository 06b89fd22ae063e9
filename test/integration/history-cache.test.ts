// Over 300 lines on purpose: the kept history pages against real Redis, hit, raised, raced, off, with Redis away and refusing writes.
import type { CreateBattleResponse, HistoryResponse, SpecHistoryResponse } from '@duet/contracts';
import { redisKeys } from '@duet/contracts';
import { raiseHistoryVersion, raiseHistoryVersions } from '@duet/platform/history-version';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../server/src/app.ts';
import { startGateway } from '../../server/src/app.ts';
import { loadGatewayConfig } from '../../server/src/config.ts';
import { createHistoryCache } from '../../server/src/modules/history/history-cache.ts';
import { getJson, postJson } from '../helpers/api.ts';
import { watchToEnd } from '../helpers/battle-viewer.ts';
import type { TestDuet } from '../helpers/duet.ts';
import { startTestDuet } from '../helpers/duet.ts';
import type { PrivateRedis } from '../helpers/private-services.ts';
import { startPrivateRedis } from '../helpers/private-services.ts';
import { rawGet } from '../helpers/raw-get.ts';
import { waitFor } from '../helpers/wait.ts';

const TOOL = 'quiz-solving';

/**
 * Runs a battle to its end and votes on it; returns its id. Before the vote, once the moderator's
 * verdict has raised the tool's history version (it lists the battle from then on), `beforeVote`
 * runs: pages it reads are kept under the version the vote alone must raise.
 */
async function runAndVote(duet: TestDuet, text: string, beforeVote: () => Promise<unknown> = async () => undefined): Promise<string> {
  const versionKey = redisKeys(duet.prefix).historyVersion(TOOL);
  const versionBefore = await duet.redis.get(versionKey);
  const created = await postJson<CreateBattleResponse>(`${duet.url}/api/battles`, { tool: TOOL, text, lang: 'en' });
  expect(created.status).toBe(202);
  await watchToEnd(duet.url, created.body.battleId);
  const id = created.body.battleId;
  await waitFor(
    async () => {
      const { rows } = await duet.db.pool.query<{ moderation: string }>('SELECT moderation FROM battles WHERE id = $1', [id]);
      return rows[0]?.moderation === 'ok' && (await duet.redis.get(versionKey)) !== versionBefore;
    },
    { what: 'the verdict and its raise of the history version' },
  );
  await beforeVote();
  const vote = await postJson(`${duet.url}/api/battles/${id}/vote`, { winner: 'a', voteToken: created.body.voteToken });
  expect(vote.status).toBe(200);
  return id;
}

const firstPage = async (url: string) => {
  const res = await getJson<HistoryResponse>(`${url}/api/tools/${TOOL}/history?limit=20`);
  expect(res.status).toBe(200);
  return res.body;
};
const specList = async (url: string) => {
  const res = await getJson<SpecHistoryResponse>(`${url}/api/v2/user/duet/list/${TOOL}?limit=20`);
  expect(res.status).toBe(200);
  return res.body.data;
};

/** Changes a stored question behind Duet's back: no version is raised, so only a fresh rendering shows it. */
const rewriteQuestion = (duet: TestDuet, id: string, text: string) => duet.db.pool.query('UPDATE battles SET text = $2 WHERE id = $1', [id, text]);

/**
 * Each gateway keeps the history pages it rendered under the tool's history version in Redis, so a
 * campaign's readers of the same pages cost one Redis read each instead of a rendering; every vote
 * raises the version before its response, so nobody (the voter first) is shown a page without it.
 */
describe('rendered history pages kept by the gateway', () => {
  let duet: TestDuet;
  let second: Gateway;

  beforeAll(async () => {
    duet = await startTestDuet({ env: { DEMO_SPEED: '400' } });
    // A second gateway on the same Redis and database, as behind a load balancer.
    second = await startGateway(loadGatewayConfig(duet.env), pino({ level: 'silent' }));
  }, 60_000);
  afterAll(async () => {
    await second?.close();
    await duet?.close();
  });

  it('serves a page again without rendering it, until a vote on the tool; the vote is on the voter’s very next read', async () => {
    const first = await runAndVote(duet, 'What is the capital of France?');
    const before = await firstPage(duet.url);
    expect(before.list.map((e) => e.id)).toEqual([first]);
    expect((await specList(duet.url)).list.map((e) => e.id)).toEqual([first]);

    await rewriteQuestion(duet, first, 'Rewritten behind the cache');
    // Kept: the same JSON as before, the stored change not rendered.
    expect(await firstPage(duet.url)).toEqual(before);
    expect((await specList(duet.url)).list[0]!.question.text).toBe('What is the capital of France?');

    // Read before the vote (not listed yet: no vote), kept under the version the moderator's verdict raised.
    const next = await runAndVote(duet, 'How many legs has a spider?', async () => expect((await firstPage(duet.url)).list.map((e) => e.id)).toEqual([first]));
    const after = await firstPage(duet.url);
    expect(after.list.map((e) => e.id)).toEqual([next, first]);
    expect(after.list[1]!.question.text).toBe('Rewritten behind the cache');
    expect(after.winRates.reduce((n, r) => n + r.battles, 0)).toBeGreaterThan(before.winRates.reduce((n, r) => n + r.battles, 0));
    expect((await specList(duet.url)).list.map((e) => e.id)).toEqual([next, first]);
    // Other tools keep their own versions.
    expect(await duet.redis.get(redisKeys(duet.prefix).historyVersion('poem'))).toBeNull();
  }, 60_000);

  it('shows a vote taken by another gateway on the next read of a page this one kept', async () => {
    let kept: HistoryResponse | undefined;
    const id = await runAndVote(duet, 'Which ocean is the largest?', async () => {
      kept = await firstPage(second.url);
      // Kept there now: a behind-the-back change does not show on it.
      await rewriteQuestion(duet, kept.list[0]!.id, 'Rewritten on the second gateway’s watch');
      expect(await firstPage(second.url)).toEqual(kept);
    });
    const seen = await firstPage(second.url);
    expect(seen.list[0]!.id).toBe(id);
    expect(seen.list.slice(1).map((e) => e.id)).toEqual(kept!.list.map((e) => e.id));
    expect(seen.list[1]!.question.text).toBe('Rewritten on the second gateway’s watch');
  }, 60_000);

  it('sends a kept page in the encoding each reader takes, the same JSON in each, and 304 to a reader who has it', async () => {
    const path = `${duet.url}/api/tools/${TOOL}/history?limit=20`;
    const get = (headers: Record<string, string>) => rawGet(path, headers);
    const plain = await get({ 'accept-encoding': 'identity' });
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['content-type']).toMatch(/^application\/json/);
    const json = plain.body.toString('utf8');
    expect((JSON.parse(json) as HistoryResponse).list.length).toBeGreaterThan(0);
    const etag = plain.headers.etag!;
    expect(etag).toMatch(/^W\/"/);
    for (const [accept, encoding, decode] of [
      ['gzip, deflate, br, zstd', 'br', brotliDecompressSync],
      ['gzip', 'gzip', gunzipSync],
    ] as const) {
      // Twice: the first reader of an encoding has it made, the second is sent the same bytes.
      for (let i = 0; i < 2; i++) {
        const res = await get({ 'accept-encoding': accept });
        expect(res.status).toBe(200);
        expect(res.headers['content-encoding']).toBe(encoding);
        expect(res.headers.vary).toMatch(/accept-encoding/i);
        expect(res.headers.etag).toBe(etag);
        expect(decode(res.body).toString('utf8')).toBe(json);
      }
    }
    const again = await get({ 'accept-encoding': 'br', 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    // HEAD: the headers alone.
    const head = await rawGet(path, { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.etag).toBe(etag);
    expect(head.body.length).toBe(0);
  });

  it('renders every page when its version is gone from Redis (a restart), and keeps pages again under a new one', async () => {
    const keys = redisKeys(duet.prefix);
    const page = await firstPage(duet.url);
    const old = await duet.redis.get(keys.historyVersion(TOOL));
    expect(old).not.toBeNull();
    await duet.redis.del(keys.historyVersion(TOOL));
    const id = page.list[0]!.id;
    await rewriteQuestion(duet, id, 'Changed while Redis was empty');
    // The version is started again, from a number no kept page is under.
    expect((await firstPage(duet.url)).list[0]!.question.text).toBe('Changed while Redis was empty');
    const fresh = await duet.redis.get(keys.historyVersion(TOOL));
    expect(fresh).not.toBeNull();
    expect(fresh).not.toBe(old);
    // A raise adds one; a raise of a version Redis lost starts it again at random, not at 1.
    await raiseHistoryVersion(duet.redis, keys, TOOL);
    expect(await duet.redis.get(keys.historyVersion(TOOL))).toBe(String(Number(fresh) + 1));
    await duet.redis.del(keys.historyVersion('poem'));
    await raiseHistoryVersion(duet.redis, keys, 'poem');
    expect(Number(await duet.redis.get(keys.historyVersion('poem')))).toBeGreaterThan(1_000);
    // Several tools in one raise (a turn of the gateway's loop with votes on several): each adds
    // one, and one whose version was lost starts again at random.
    const poem = Number(await duet.redis.get(keys.historyVersion('poem')));
    await duet.redis.del(keys.historyVersion('rap-lyrics'));
    await raiseHistoryVersions(duet.redis, keys, [TOOL, 'poem', 'rap-lyrics']);
    expect(await duet.redis.get(keys.historyVersion(TOOL))).toBe(String(Number(fresh) + 2));
    expect(await duet.redis.get(keys.historyVersion('poem'))).toBe(String(poem + 1));
    expect(Number(await duet.redis.get(keys.historyVersion('rap-lyrics')))).toBeGreaterThan(1_000);
    await firstPage(duet.url);
    await rewriteQuestion(duet, id, 'Changed once more');
    expect((await firstPage(duet.url)).list[0]!.question.text).toBe('Changed while Redis was empty');
  }, 60_000);
});

describe('a raise in flight', () => {
  let duet: TestDuet;
  beforeAll(async () => {
    duet = await startTestDuet({ noWorker: true });
  }, 60_000);
  afterAll(async () => {
    await duet?.close();
  });

  it('holds this gateway’s reads of the tool until the raise has landed or failed; after a failed one the tool is rendered', async () => {
    const keys = redisKeys(`${duet.prefix}raise-${Date.now()}:`);
    const cache = createHistoryCache({ redis: duet.redis, keys, maxBytes: 1 << 20, etagOf: (json) => `"${json.length}"`, logger: pino({ level: 'silent' }) });
    let renders = 0;
    const read = (tool: string) => cache.page(tool, 'first', async () => ({ renders: ++renders }));
    await read('poem'); // starts the version
    await read('poem'); // kept from here on
    expect((await read('poem')).json).toBe('{"renders":2}');
    expect(renders).toBe(2);

    // A vote's raise, still on its way to Redis when the voter's next read comes.
    let settle!: (ok: boolean) => void;
    cache.raising('poem', new Promise<boolean>((resolve) => (settle = resolve)));
    let answered = false;
    const held = read('poem').then((page) => {
      answered = true;
      return page;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(answered).toBe(false);
    settle(false); // Redis refused it: the version still names the kept page
    expect((await held).json).toBe('{"renders":3}');
    expect((await read('poem')).json).toBe('{"renders":4}');
    // Other tools are not held.
    await read('quiz-solving');
    await read('quiz-solving');
    expect((await read('quiz-solving')).json).toBe('{"renders":6}');

    // A raise that lands: the reader waits for it and then renders under the new version.
    cache.raising('quiz-solving', raiseHistoryVersion(duet.redis, keys, 'quiz-solving').then(() => true));
    expect((await read('quiz-solving')).json).toBe('{"renders":7}');
    expect((await read('quiz-solving')).json).toBe('{"renders":7}');
  });
});

describe('with HISTORY_CACHE_MB=0', () => {
  let duet: TestDuet;
  beforeAll(async () => {
    duet = await startTestDuet({ env: { DEMO_SPEED: '400', HISTORY_CACHE_MB: '0' } });
  }, 60_000);
  afterAll(async () => {
    await duet?.close();
  });

  it('renders every read', async () => {
    const id = await runAndVote(duet, 'What is two plus two?');
    expect((await firstPage(duet.url)).list[0]!.question.text).toBe('What is two plus two?');
    await rewriteQuestion(duet, id, 'Rewritten, and shown at once');
    expect((await firstPage(duet.url)).list[0]!.question.text).toBe('Rewritten, and shown at once');
  }, 60_000);
});

/**
 * A Duet on a Redis of its own for the calling `describe` block (which may stop it or fill it):
 * put back as it was, then closed and removed, after the block.
 */
function duetOnPrivateRedis(): { redis: PrivateRedis; duet: TestDuet } {
  const ctx = {} as { redis: PrivateRedis; duet: TestDuet };
  beforeAll(async () => {
    ctx.redis = await startPrivateRedis();
    ctx.duet = await startTestDuet({ redisUrl: ctx.redis.url, env: { DEMO_SPEED: '400' } });
  }, 60_000);
  afterAll(async () => {
    await ctx.redis?.start().catch(() => undefined);
    await ctx.duet?.redis.config('SET', 'maxmemory', '0').catch(() => undefined);
    await ctx.duet?.close();
    await ctx.redis?.remove();
  });
  return ctx;
}

describe('with its Redis away', () => {
  const ctx = duetOnPrivateRedis();

  it('renders every read from PostgreSQL: the pages kept under a version nobody can raise now are not served', async () => {
    const { redis, duet } = ctx;
    const id = await runAndVote(duet, 'Is the Moon a planet?');
    await firstPage(duet.url);
    expect((await firstPage(duet.url)).list[0]!.question.text).toBe('Is the Moon a planet?');
    await redis.stop();
    await rewriteQuestion(duet, id, 'Rewritten while Redis is away');
    const page = await firstPage(duet.url);
    expect(page.list[0]!.id).toBe(id);
    expect(page.list[0]!.question.text).toBe('Rewritten while Redis is away');
  }, 60_000);
});

describe('with its Redis refusing writes', () => {
  const ctx = duetOnPrivateRedis();

  it('shows a vote on the voter’s next read while Redis refuses writes (full): that gateway renders the tool’s pages', async () => {
    const { duet } = ctx;
    const admin = duet.redis;
    let kept: HistoryResponse | undefined;
    const id = await runAndVote(duet, 'Which metal is liquid at room temperature?', async () => {
      kept = await firstPage(duet.url);
      expect(await firstPage(duet.url)).toEqual(kept);
      // Past maxmemory with noeviction: reads answered, every write refused (the vote's raise too).
      await admin.config('SET', 'maxmemory-policy', 'noeviction');
      await admin.config('SET', 'maxmemory', '1');
    });
    try {
      const seen = await firstPage(duet.url);
      expect(seen.list[0]!.id).toBe(id);
      expect(seen.list.slice(1).map((e) => e.id)).toEqual(kept!.list.map((e) => e.id));
    } finally {
      await admin.config('SET', 'maxmemory', '0');
    }
  }, 60_000);
});
