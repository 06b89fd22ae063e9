import { DEMO_ROSTER } from '@duet/platform/roster-settings';
import { BATTLE_QUEUE, bullPrefix, LIMITS, TOOLS } from '@duet/contracts';
import type { CreateBattleResponse, ErrorResponse, Meta, PublicTool } from '@duet/contracts';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJson, postBattleWithImage, postJson, storedImage, TINY_PNG } from '../helpers/api.ts';
import type { TestDuet } from '../helpers/duet.ts';
import { startTestDuet } from '../helpers/duet.ts';

/** Battles are only stored and queued here: no worker runs them. */
describe('creating a battle', () => {
  let duet: TestDuet;
  let queue: Queue;

  beforeAll(async () => {
    duet = await startTestDuet({ noWorker: true });
    queue = new Queue(BATTLE_QUEUE, { connection: duet.redis.duplicate(), prefix: bullPrefix(duet.prefix) });
  });
  afterAll(async () => {
    await queue?.close();
    await duet?.close();
  });

  const counts = async () => {
    const { rows } = await duet.db.pool.query<{ battles: number; images: number }>(
      'SELECT (SELECT count(*)::int FROM battles) AS battles, (SELECT count(*)::int FROM battle_images) AS images',
    );
    const jobs = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
    return { ...rows[0]!, jobs: Object.values(jobs).reduce((a, b) => a + b, 0) };
  };

  /** Sends a request that must be refused, and checks nothing was stored or queued. */
  const refused = async (send: () => Promise<{ status: number; body: unknown }>, status: number, code: string) => {
    const before = await counts();
    const res = await send();
    expect(res.status).toBe(status);
    expect((res.body as ErrorResponse).error.code).toBe(code);
    expect(typeof (res.body as ErrorResponse).error.message).toBe('string');
    expect(await counts()).toEqual(before);
    return res.body as ErrorResponse;
  };
  const post = (body: unknown) => () => postJson(`${duet.url}/api/battles`, body);

  it('serves the catalog of 13 tools with the specification’s routes', async () => {
    const res = await getJson<{ tools: PublicTool[] }>(`${duet.url}/api/tools`);
    expect(res.status).toBe(200);
    expect(res.body.tools.map((t) => t.route)).toEqual([
      '/title-academy-duet',
      '/makeLyrics-duet',
      '/quiz-solving-duet',
      '/game-ending-word-duet',
      '/netflix-recommend-duet',
      '/instagram-reels-idea-duet',
      '/math-solve-duet1',
      '/influencer-writing-duet',
      '/docent-duet',
      '/rap-lyrics-duet',
      '/accounting-solving-duet',
      '/excel-solving-duet',
      '/anything-question-duet',
    ]);
    expect(res.body.tools.find((t) => t.slug === 'math-solve')?.image).toBe('required');
    expect(res.body.tools[0]).not.toHaveProperty('prompt');
    const meta = await getJson<Meta>(`${duet.url}/api/meta`);
    // No emulator and no Firebase credentials in this suite's settings: accounts are off; no sister
    // service or contact detail is configured, so none is served.
    expect(meta.body).toEqual({
      demoModels: true,
      mode: 'blind',
      accounts: false,
      challenge: false,
      sisterLinks: {},
      contact: { company: {} },
      // The models a visitor may choose: the roster's drawable ones.
      models: DEMO_ROSTER.map((m) => ({ id: m.id, label: m.label, family: m.family })),
      // A battle's first question and its follow-ups (MAX_TURNS).
      maxTurns: 8,
    });
  });

  it('stores and queues a valid battle once, answering 202 with a vote token and blind labels', async () => {
    const before = await counts();
    const res = await postJson<CreateBattleResponse>(`${duet.url}/api/battles`, {
      tool: 'makeLyrics-duet',
      inputs: { poemTitle: 'Spring rain', keywords: ['rain', 'window'], language: 'en' },
      lang: 'en',
    });
    expect(res.status).toBe(202);
    expect(res.body.battleId).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.sides).toEqual({ a: { label: 'Model A' }, b: { label: 'Model B' } });
    expect(await counts()).toEqual({ ...before, battles: before.battles + 1, jobs: before.jobs + 1 });
    const job = await queue.getJob(res.body.battleId);
    expect(job?.data).toEqual({ battleId: res.body.battleId });
    const { rows } = await duet.db.pool.query('SELECT tool, model_a, model_b, vote_token_hash FROM battles WHERE id = $1', [
      res.body.battleId,
    ]);
    expect(rows[0].tool).toBe('makeLyrics');
    expect(rows[0].model_a).not.toBe(rows[0].model_b);
    // Only a hash of the token is stored.
    expect(Buffer.from(rows[0].vote_token_hash).toString('base64url')).not.toBe(res.body.voteToken);
  });

  it('puts each model on side a about half the time', async () => {
    const sideA = new Map<string, number>();
    for (let i = 0; i < 40; i++) {
      const res = await postJson<CreateBattleResponse>(`${duet.url}/api/battles`, { tool: 'quiz-solving', text: `Q${i}` });
      const { rows } = await duet.db.pool.query('SELECT model_a FROM battles WHERE id = $1', [res.body.battleId]);
      sideA.set(rows[0].model_a, (sideA.get(rows[0].model_a) ?? 0) + 1);
    }
    // Two models, 40 draws: each lands on side a at least 8 times unless the draw is broken (p < 1e-4).
    expect([...sideA.values()].every((n) => n >= 8)).toBe(true);
    expect(sideA.size).toBe(2);
  });

  it('refuses a question over 2,000 characters', async () => {
    const body = await refused(post({ tool: 'anything-question', text: 'x'.repeat(LIMITS.textMaxChars + 1) }), 400, 'validation_failed');
    expect(body.error.issues?.[0]?.path).toBe('text');
    const ok = await postJson(`${duet.url}/api/battles`, { tool: 'anything-question', text: 'x'.repeat(LIMITS.textMaxChars) });
    expect(ok.status).toBe(202);
  });

  it('refuses a sixth keyword and a keyword over 10 characters', async () => {
    const base = { tool: 'instagram-reels-idea', lang: 'ko' };
    await refused(post({ ...base, inputs: { keywords: ['a', 'b', 'c', 'd', 'e', 'f'] } }), 400, 'validation_failed');
    const long = await refused(post({ ...base, inputs: { keywords: ['abcdefghijk'] } }), 400, 'validation_failed');
    expect(long.error.issues?.[0]?.path).toBe('inputs.keywords.0');
  });

  it('refuses missing required fields and fields the tool does not take', async () => {
    await refused(post({ tool: 'makeLyrics', inputs: { keywords: ['rain'] } }), 400, 'validation_failed');
    await refused(post({ tool: 'makeLyrics', inputs: { poemTitle: 'Rain' } }), 400, 'validation_failed');
    await refused(post({ tool: 'quiz-solving', text: '   ' }), 400, 'validation_failed');
    await refused(post({ tool: 'netflix-recommend', inputs: { category: 'podcast' } }), 400, 'validation_failed');
    await refused(post({ tool: 'quiz-solving', text: 'Q', inputs: { category: 'film' } }), 400, 'validation_failed');
    await refused(post({ tool: 'quiz-solving', text: 'Q', lang: 'fr' }), 400, 'validation_failed');
    await refused(post({ tool: 'quiz-solving', text: 'Q', extra: { nested: true }, inputs: { unknown: 1 } }), 400, 'validation_failed');
  });

  it('refuses an unknown tool with 404', async () => {
    await refused(post({ tool: 'horoscope', text: 'Hi' }), 404, 'unknown_tool');
  });

  it('refuses malformed JSON and an oversized JSON body', async () => {
    await refused(
      () =>
        fetch(`${duet.url}/api/battles`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"tool":' }).then(
          async (r) => ({ status: r.status, body: await r.json() }),
        ),
      400,
      'validation_failed',
    );
    await refused(post({ tool: 'quiz-solving', text: 'y'.repeat(100_000) }), 413, 'payload_too_large');
  });

  it('accepts an image judged by its bytes and stores it with the battle', async () => {
    const res = await postBattleWithImage(duet.url, { tool: 'math-solve', lang: 'en' }, { data: TINY_PNG, filename: 'x.txt', type: 'text/plain' });
    expect(res.status).toBe(202);
    const stored = await storedImage(duet.db.pool, res.body.battleId);
    const { rows } = await duet.db.pool.query('SELECT mime_type, bytes FROM battle_images WHERE battle_id = $1', [res.body.battleId]);
    expect(rows[0]).toEqual({ mime_type: 'image/png', bytes: stored.length });
    const image = await fetch(`${duet.url}/api/battles/${res.body.battleId}/image`);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await image.arrayBuffer()).equals(stored)).toBe(true);
  });

  it('stores a battle and its image together or not at all', async () => {
    // The image's row cannot be written: the battle's must not stay behind without it.
    await duet.db.pool.query('ALTER TABLE battle_images ADD CONSTRAINT no_images_now CHECK (false) NOT VALID');
    try {
      const before = await counts();
      const res = await postBattleWithImage(duet.url, { tool: 'math-solve', lang: 'en' }, { data: TINY_PNG, filename: 'x.png', type: 'image/png' });
      expect(res.status).toBe(500);
      expect(await counts()).toEqual(before);
    } finally {
      await duet.db.pool.query('ALTER TABLE battle_images DROP CONSTRAINT no_images_now');
    }
    const res = await postBattleWithImage(duet.url, { tool: 'math-solve', lang: 'en' }, { data: TINY_PNG, filename: 'x.png', type: 'image/png' });
    expect(res.status).toBe(202);
    const { rows } = await duet.db.pool.query('SELECT b.has_image, i.bytes FROM battles b JOIN battle_images i ON i.battle_id = b.id WHERE b.id = $1', [res.body.battleId]);
    expect(rows).toEqual([{ has_image: true, bytes: (await storedImage(duet.db.pool, res.body.battleId)).length }]);
  });

  it('refuses a file that only claims to be an image with 415', async () => {
    await refused(
      () => postBattleWithImage(duet.url, { tool: 'math-solve' }, { data: Buffer.from('%PDF-1.7 not an image'), filename: 'photo.png', type: 'image/png' }),
      415,
      'unsupported_image_type',
    );
    // An SVG is an image to the eye but not one of the accepted types.
    await refused(
      () =>
        postBattleWithImage(
          duet.url,
          { tool: 'math-solve' },
          { data: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), filename: 'a.png', type: 'image/png' },
        ),
      415,
      'unsupported_image_type',
    );
  });

  it('refuses an image over 4.5 MB with 413', async () => {
    const big = Buffer.concat([TINY_PNG, Buffer.alloc(LIMITS.imageMaxBytes)]);
    await refused(() => postBattleWithImage(duet.url, { tool: 'math-solve' }, { data: big, filename: 'big.png', type: 'image/png' }), 413, 'image_too_large');
  });

  it('refuses a missing image where the tool needs one and an image where it takes none', async () => {
    await refused(post({ tool: 'docent', lang: 'en' }), 400, 'image_required');
    await refused(
      () => postBattleWithImage(duet.url, { tool: 'game-ending-word', text: '사과' }, { data: TINY_PNG, filename: 'a.png', type: 'image/png' }),
      400,
      'image_not_allowed',
    );
  });

  it('refuses bad multipart inputs JSON', async () => {
    const form = new FormData();
    form.set('tool', 'quiz-solving');
    form.set('text', 'Q');
    form.set('inputs', '{nope');
    await refused(
      () => fetch(`${duet.url}/api/battles`, { method: 'POST', body: form }).then(async (r) => ({ status: r.status, body: await r.json() })),
      400,
      'validation_failed',
    );
  });

  it('answers unknown battles and routes with 404 in the error shape', async () => {
    const res = await postJson<ErrorResponse>(`${duet.url}/api/battles/not-a-uuid/vote`, { winner: 'a', voteToken: 't' });
    expect(res.status).toBe(404);
    const missing = await postJson<ErrorResponse>(`${duet.url}/api/battles/${crypto.randomUUID()}/vote`, { winner: 'a', voteToken: 't' });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('not_found');
    const route = await getJson<ErrorResponse>(`${duet.url}/api/nothing-here`);
    expect(route.status).toBe(404);
    expect(route.body.error.code).toBe('not_found');
  });

  it('has a catalog entry with prompts in both languages for every tool', () => {
    expect(TOOLS).toHaveLength(13);
    for (const tool of TOOLS) {
      for (const lang of ['ko', 'en'] as const) {
        const p = tool.prompt({ inputs: { poemTitle: 'T', keywords: ['k'], category: 'film' }, text: 'Q', hasImage: tool.image !== 'none', lang });
        expect(p.system.length).toBeGreaterThan(50);
        expect(p.user.length).toBeGreaterThan(0);
      }
    }
  });
});
