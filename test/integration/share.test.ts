import { randomUUID } from 'node:crypto';
import { DEMO_ROSTER } from '@duet/platform/roster-settings';
import type { SharedBattleResponse, Winner } from '@duet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashVoteToken, newVoteToken } from '../../server/src/modules/battles/vote-token.ts';
import type { TestDuet } from '../helpers/duet.ts';
import { startTestDuet } from '../helpers/duet.ts';

const [ATLAS, SONNET] = DEMO_ROSTER as [(typeof DEMO_ROSTER)[number], (typeof DEMO_ROSTER)[number]];
const ADMIN_TOKEN = 'share-'.repeat(8);
const CARD = '4111 1111 1111 1111';

/** The `content` of each `<meta property|name="…">` and the title, as a crawler reads them (no JavaScript). */
function tagsOf(html: string): Record<string, string> {
  const tags: Record<string, string> = {};
  for (const m of html.matchAll(/<meta (?:property|name)="([^"]+)" content="([^"]*)"/g)) tags[m[1] ?? ''] = m[2] ?? '';
  tags.title = /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '';
  tags.lang = /<html lang="([^"]+)"/.exec(html)?.[1] ?? '';
  return tags;
}

/** A PNG's width and height, from its IHDR chunk. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
  expect(png.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/**
 * A voted battle's public page: `GET /api/battles/:id/shared` for the app, `GET /b/:id` with the
 * link preview's tags in the HTML, and `GET /b/:id/preview.png`, rendered once and then kept. What
 * is not public (unknown, not voted, pending, flagged, taken down) is a 404 on all three.
 */
describe('a shared battle', () => {
  let duet: TestDuet;

  beforeAll(async () => {
    duet = await startTestDuet({ noWorker: true, env: { ADMIN_TOKEN } });
  });
  afterAll(async () => {
    await duet?.close();
  });

  async function battle(opts: { text?: string; moderation?: string; vote?: Winner | null } = {}) {
    const id = randomUUID();
    const voteToken = newVoteToken();
    await duet.db.pool.query(
      `INSERT INTO battles (id, tool, lang, text, model_a, label_a, family_a, model_b, label_b, family_b, mode, vote_token_hash, status, moderation)
       VALUES ($1, 'makeLyrics', 'en', $2, $3, $4, $5, $6, $7, $8, 'blind', $9, 'finished', $10)`,
      [id, opts.text ?? 'A poem about rain', ATLAS.id, ATLAS.label, ATLAS.family, SONNET.id, SONNET.label, SONNET.family, hashVoteToken(voteToken), opts.moderation ?? 'ok'],
    );
    for (const side of ['a', 'b'] as const) {
      await duet.db.pool.query(
        `INSERT INTO answers (battle_id, side, model, text, finish_reason, input_tokens, output_tokens, ttft_ms, duration_ms, names_model)
         VALUES ($1, $2, $3, $4, 'stop', 12, 80, 300, 4000, false)`,
        [id, side, side === 'a' ? ATLAS.id : SONNET.id, side === 'a' ? `Rain on the roof, pay with ${CARD}.` : 'Grey clouds, soft drums.'],
      );
    }
    const winner = opts.vote === undefined ? 'b' : opts.vote;
    if (winner) {
      const res = await fetch(`${duet.url}/api/battles/${id}/vote`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ winner, voteToken }),
      });
      expect(res.status).toBe(200);
    }
    return id;
  }

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${duet.url}${path}`, { headers });
  const page = async (id: string, headers: Record<string, string> = {}, query = '') => {
    const res = await get(`/b/${id}${query}`, headers);
    return { status: res.status, html: await res.text(), type: res.headers.get('content-type') };
  };

  it('gives the app the whole battle with the models and the verdict, personal numbers masked', async () => {
    const id = await battle({ text: `Card ${CARD}: a poem about it` });
    const res = await get(`/api/battles/${id}/shared`);
    expect(res.status).toBe(200);
    const { battle: shared } = (await res.json()) as SharedBattleResponse;
    expect(shared).toMatchObject({ id, tool: 'makeLyrics', winner: 'b', sides: { a: { model: ATLAS.id, label: ATLAS.label }, b: { model: SONNET.id, label: SONNET.label } } });
    expect(shared.sides.b.text).toBe('Grey clouds, soft drums.');
    expect(JSON.stringify(shared)).not.toContain(CARD);
    expect(shared.question.text).toBe('Card **** **** **** 1111: a poem about it');
    expect(shared.sides.a.text).toBe('Rain on the roof, pay with **** **** **** 1111.');
  });

  it('puts Open Graph and Twitter card tags in the HTML, in the language the reader asks for', async () => {
    const id = await battle({ text: 'Write about "rain" <script>alert(1)</script> & thunder\nsecond line' });
    const en = await page(id, { 'accept-language': 'en-GB,en;q=0.9' });
    expect(en.status).toBe(200);
    expect(en.type).toMatch(/^text\/html/);
    const tags = tagsOf(en.html);
    expect(tags.lang).toBe('en');
    expect(tags.title).toBe(`${ATLAS.label} vs ${SONNET.label} · Duet`);
    expect(tags['og:title']).toBe(tags.title);
    expect(tags['og:type']).toBe('article');
    expect(tags['og:url']).toBe(`${duet.url}/b/${id}`);
    expect(tags['og:image']).toBe(`${duet.url}/b/${id}/preview.png?lang=en`);
    expect(tags['og:image:width']).toBe('1200');
    expect(tags['og:image:height']).toBe('630');
    expect(tags['og:locale']).toBe('en_US');
    expect(tags['twitter:card']).toBe('summary_large_image');
    expect(tags['twitter:image']).toBe(tags['og:image']);
    // The question's first line, escaped: the visitor's text never becomes markup.
    expect(tags['og:description']).toContain('Write about &#34;rain&#34; &#60;script&#62;alert(1)&#60;/script&#62; &#38; thunder');
    expect(tags['og:description']).toContain(`The visitor picked ${SONNET.label}.`);
    expect(tags['og:description']).not.toContain('second line');
    expect(en.html).not.toContain('<script>alert(1)');
    // One title and one description: the shell's own are replaced.
    expect(en.html.match(/<title>/g)).toHaveLength(1);
    expect(en.html.match(/<meta name="description"/g)).toHaveLength(1);

    const ko = tagsOf((await page(id, { 'accept-language': 'ko-KR,ko;q=0.9,en;q=0.5' })).html);
    expect(ko.lang).toBe('ko');
    expect(ko['og:locale']).toBe('ko_KR');
    expect(ko['og:description']).toContain(`방문자는 ${SONNET.label}의 답을 골랐어요.`);
    expect(ko['og:image']).toBe(`${duet.url}/b/${id}/preview.png?lang=ko`);
    // A link made in one language keeps it, whatever the reader's browser says.
    expect(tagsOf((await page(id, { 'accept-language': 'ko' }, '?lang=en')).html).lang).toBe('en');
    expect(tagsOf((await page(id, { 'accept-language': 'en' }, '?lang=xx')).html).lang).toBe('en');
  });

  it('renders a 1200×630 preview once per language, then serves it from the cache', async () => {
    const id = await battle({ text: '비 오는 날에 대한 시를 써 주세요' });
    const first = await get(`/b/${id}/preview.png?lang=ko`);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('image/png');
    expect(first.headers.get('x-preview-cache')).toBe('miss');
    const png = Buffer.from(await first.arrayBuffer());
    expect(pngSize(png)).toEqual({ width: 1200, height: 630 });
    const again = await get(`/b/${id}/preview.png?lang=ko`);
    expect(again.headers.get('x-preview-cache')).toBe('hit');
    expect(Buffer.from(await again.arrayBuffer()).equals(png)).toBe(true);
    expect(await duet.redis.exists(`${duet.prefix}:share:{${id}}:preview:ko`)).toBe(1);

    const en = await get(`/b/${id}/preview.png`, { 'accept-language': 'en' });
    expect(en.headers.get('x-preview-cache')).toBe('miss');
    expect(Buffer.from(await en.arrayBuffer()).equals(png)).toBe(false);
    expect((await get(`/b/${id}/preview.png?lang=fr`)).status).toBe(400);
  });

  it('is a 404 for what is not public: unknown, not voted, pending, flagged, malformed', async () => {
    const unvoted = await battle({ vote: null });
    const pending = await battle({ moderation: 'pending' });
    const flagged = await battle({ moderation: 'flagged' });
    for (const id of [randomUUID(), unvoted, pending, flagged, 'not-a-battle', '..%2F..%2Fetc']) {
      expect((await get(`/api/battles/${id}/shared`)).status, id).toBe(404);
      const p = await page(id);
      expect(p.status, id).toBe(404);
      expect(tagsOf(p.html)['og:title'], id).toBeUndefined();
      expect((await get(`/b/${id}/preview.png`)).status, id).toBe(404);
    }
    expect(await duet.redis.keys(`${duet.prefix}:share:*${pending}*`)).toEqual([]);
  });

  it('is gone after a takedown, kept preview and all, and back after a restore', async () => {
    const id = await battle();
    expect((await page(id)).status).toBe(200);
    expect((await get(`/b/${id}/preview.png?lang=en`)).status).toBe(200);
    const admin = (action: string) =>
      fetch(`${duet.url}/api/admin/battles/${id}/${action}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ reason: 'test' }),
      });
    expect((await admin('takedown')).status).toBe(200);
    expect((await get(`/api/battles/${id}/shared`)).status).toBe(404);
    expect((await page(id)).status).toBe(404);
    expect((await get(`/b/${id}/preview.png?lang=en`)).status).toBe(404);
    expect((await admin('restore')).status).toBe(200);
    expect((await page(id)).status).toBe(200);
  });
});
