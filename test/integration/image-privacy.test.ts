import { createHash } from 'node:crypto';
import type { ErrorResponse, ImageMimeType } from '@duet/contracts';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createImageCleaner } from '../../server/src/modules/battles/image-cleaner.ts';
import { cleanStoredImages } from '../../server/src/modules/battles/stored-images.ts';
import { fakeRosterEnv, startFakeLlmServer } from '../fakes/fake-llm-server.ts';
import type { FakeLlmServer } from '../fakes/fake-llm-server.ts';
import { postBattleWithImage, storedImage } from '../helpers/api.ts';
import type { TestDuet } from '../helpers/duet.ts';
import { startTestDuet } from '../helpers/duet.ts';
import { animatedGif, bombPng, gpsJpeg, leftovers, pngWithText, rotatedJpeg, webpWithExif } from '../helpers/image-fixtures.ts';
import { waitFor } from '../helpers/wait.ts';

const GPT = 'gpt-fake';
const CLAUDE = 'claude-fake';

/** What a visitor's photo becomes: the real gateway, worker and SDKs, the fake providers. */
describe('images are cleaned on arrival', () => {
  let fake: FakeLlmServer;
  let duet: TestDuet;

  beforeAll(async () => {
    fake = await startFakeLlmServer();
    duet = await startTestDuet({ env: { ...fakeRosterEnv(fake, { gpt: GPT, claude: CLAUDE }), IMAGE_MAX_MEGAPIXELS: '40' } });
  });
  afterAll(async () => {
    await duet?.close();
    await fake?.close();
  });
  afterEach(() => fake.reset());

  const counts = async () => {
    const { rows } = await duet.db.pool.query<{ battles: number; images: number }>(
      'SELECT (SELECT count(*)::int FROM battles) AS battles, (SELECT count(*)::int FROM battle_images) AS images',
    );
    return rows[0]!;
  };

  /** Asks the title tool about an image and waits for both answers; the battle's id. */
  async function ask(data: Buffer, type: ImageMimeType): Promise<string> {
    const res = await postBattleWithImage(duet.url, { tool: 'title-academy', lang: 'ko' }, { data, filename: 'photo', type });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const id = res.body.battleId;
    await waitFor(async () => (await duet.db.pool.query(`SELECT 1 FROM battles WHERE id = $1 AND status = 'finished'`, [id])).rowCount === 1, {
      what: 'the battle to finish',
    });
    return id;
  }

  /** The image the public URL serves. */
  async function served(battleId: string): Promise<{ type: string | null; data: Buffer }> {
    const res = await fetch(`${duet.url}/api/battles/${battleId}/image`);
    expect(res.status).toBe(200);
    return { type: res.headers.get('content-type'), data: Buffer.from(await res.arrayBuffer()) };
  }

  /** A short name of some bytes, for assertions that print well. */
  const digest = (data: Buffer | string) => createHash('sha256').update(typeof data === 'string' ? Buffer.from(data, 'base64') : data).digest('hex');

  /** The digest of the image each fake provider was sent (OpenAI's data URL, Anthropic's base64 source). */
  function sentToModels(): { gpt: string; claude: string } {
    const body = (model: string) => JSON.stringify(fake.requests.find((r) => r.model === model)?.body ?? null);
    const gpt = /data:image\/[a-z]+;base64,([A-Za-z0-9+/=]+)/.exec(body(GPT))?.[1] ?? '';
    const claude = /"data":"([A-Za-z0-9+/=]+)"/.exec(body(CLAUDE))?.[1] ?? '';
    return { gpt: digest(gpt), claude: digest(claude) };
  }

  it('drops EXIF with its GPS position, XMP, IPTC and comments from a phone JPEG, and sends the models what it keeps', async () => {
    const photo = await gpsJpeg();
    expect(await leftovers(photo)).toContain('metadata.exif');
    const id = await ask(photo, 'image/jpeg');

    const stored = await storedImage(duet.db.pool, id);
    expect(await leftovers(stored)).toEqual([]);
    expect(await served(id)).toEqual({ type: 'image/jpeg', data: stored });
    // Both models were sent the cleaned image, never the upload.
    expect(sentToModels()).toEqual({ gpt: digest(stored), claude: digest(stored) });
    const meta = await sharp(stored).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 1200, 900]);
  });

  it('drops the text chunks and EXIF of a PNG, and the EXIF and XMP of a WebP, keeping each format', async () => {
    for (const [image, type, format] of [
      [await pngWithText(), 'image/png', 'png'],
      [await webpWithExif(), 'image/webp', 'webp'],
    ] as const) {
      expect((await leftovers(image)).length).toBeGreaterThan(0);
      const id = await ask(image, type);
      const stored = await storedImage(duet.db.pool, id);
      expect(await leftovers(stored), format).toEqual([]);
      expect((await sharp(stored).metadata()).format).toBe(format);
      expect((await served(id)).type).toBe(type);
      expect(sentToModels().gpt).toBe(digest(stored));
      fake.reset();
    }
  });

  it('turns a photo taken sideways upright before its orientation tag goes', async () => {
    const id = await ask(await rotatedJpeg(), 'image/jpeg');
    const stored = await storedImage(duet.db.pool, id);
    const { data, info } = await sharp(stored).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([200, 400]);
    const pixel = (x: number, y: number) => [...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3)];
    // Red on top, blue below: the stored left half is now above.
    const [topRed, , topBlue] = pixel(100, 50);
    const [bottomRed, , bottomBlue] = pixel(100, 350);
    expect(topRed).toBeGreaterThan(180);
    expect(topBlue).toBeLessThan(80);
    expect(bottomBlue).toBeGreaterThan(180);
    expect(bottomRed).toBeLessThan(80);
    expect((await sharp(stored).metadata()).orientation).toBeUndefined();
  });

  it('scales a large photo down to the long-side cap', async () => {
    const id = await ask(await gpsJpeg(4000, 3000), 'image/jpeg');
    const meta = await sharp(await storedImage(duet.db.pool, id)).metadata();
    expect([meta.width, meta.height]).toEqual([2048, 1536]);
  });

  it('keeps the first frame of an animated GIF', async () => {
    const gif = await animatedGif();
    expect((await sharp(gif).metadata()).pages).toBe(2);
    const id = await ask(gif, 'image/gif');
    const stored = await storedImage(duet.db.pool, id);
    const meta = await sharp(stored, { animated: true }).metadata();
    expect([meta.format, meta.pages ?? 1, meta.width, meta.height]).toEqual(['gif', 1, 40, 40]);
    const { data } = await sharp(stored).raw().toBuffer({ resolveWithObject: true });
    expect(data[0]).toBeGreaterThan(180); // red: the first frame
  });

  it('refuses a decompression bomb with 413, stores nothing and keeps serving', async () => {
    const bomb = bombPng();
    expect(bomb.length).toBeLessThan(100_000);
    const before = await counts();
    const res = await postBattleWithImage(duet.url, { tool: 'title-academy', lang: 'en' }, { data: bomb, filename: 'bomb.png', type: 'image/png' });
    expect(res.status).toBe(413);
    expect((res.body as ErrorResponse).error).toMatchObject({ code: 'image_too_large', message: expect.stringContaining('40 megapixels') });
    expect(await counts()).toEqual(before);
    // The gateway is still there, and takes the next photo.
    await ask(await gpsJpeg(64, 48), 'image/jpeg');
  });

  it('refuses a file that looks like a PNG but decodes as no image with 415, storing nothing', async () => {
    const broken = Buffer.concat([(await pngWithText()).subarray(0, 60), Buffer.alloc(200, 7)]);
    const before = await counts();
    const res = await postBattleWithImage(duet.url, { tool: 'title-academy', lang: 'en' }, { data: broken, filename: 'x.png', type: 'image/png' });
    expect(res.status).toBe(415);
    expect((res.body as ErrorResponse).error.code).toBe('unsupported_image_type');
    expect(await counts()).toEqual(before);
  });

  it('serves an image stored before cleaning existed only once `clean-images` has cleaned it', async () => {
    const kept = await ask(await gpsJpeg(64, 48), 'image/jpeg');
    const unreadable = await ask(await gpsJpeg(64, 48), 'image/jpeg');
    // As an older Duet stored them: the upload's own bytes, one of them no image at all.
    await duet.db.pool.query('UPDATE battle_images SET data = $2, cleaned = false WHERE battle_id = $1', [kept, await gpsJpeg(300, 200)]);
    await duet.db.pool.query('UPDATE battle_images SET data = $2, cleaned = false WHERE battle_id = $1', [unreadable, Buffer.from('not an image')]);
    for (const id of [kept, unreadable]) expect((await fetch(`${duet.url}/api/battles/${id}/image`)).status).toBe(404);

    const done = await cleanStoredImages({ db: duet.db.pool, clean: createImageCleaner({ maxSidePx: 2048, maxInputPixels: 40e6, concurrency: 1 }), batchSize: 1 });
    expect(done).toEqual({ cleaned: 1, deleted: 1 });
    const image = await served(kept);
    expect(await leftovers(image.data)).toEqual([]);
    expect((await sharp(image.data).metadata()).width).toBe(300);
    expect((await fetch(`${duet.url}/api/battles/${unreadable}/image`)).status).toBe(404);
    // A second pass finds nothing left to do.
    expect(await cleanStoredImages({ db: duet.db.pool, clean: createImageCleaner({ maxSidePx: 2048, maxInputPixels: 40e6, concurrency: 1 }) })).toEqual({
      cleaned: 0,
      deleted: 0,
    });
  });
});
