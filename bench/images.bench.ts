/**
 * What cleaning images on arrival costs: the cleaning of a 4 MB phone JPEG on its own (median and
 * p99), each upload's answer time through a gateway process, and the gateway's memory while 20 such
 * photos arrive at once. The anchor, in the same gateway and run, is the same upload without
 * cleaning: sent to a tool that takes no image, the gateway reads it whole and judges its type,
 * then refuses it before anything is decoded. Traffic goes to 127.0.0.1 only, in bounded loops.
 *
 * The gateway runs with `MALLOC_ARENA_MAX=2`, as the image sets it (`--arenas 0`: glibc's default,
 * one arena per thread, which libvips's threads fragment).
 *
 *   npm run bench -- images [--uploads 30] [--burst 20] [--arenas 2]
 */
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { loadGatewayConfig } from '../server/src/config.ts';
import { createImageCleaner } from '../server/src/modules/battles/image-cleaner.ts';
import { startGatewayProcess } from '../test/helpers/gateway-process.ts';
import { rssMb, watchPeakRss } from './lib/proc.ts';
import { machineLine, pct } from './lib/stats.ts';

const { values } = parseArgs({
  options: {
    uploads: { type: 'string', default: '30' },
    burst: { type: 'string', default: '20' },
    arenas: { type: 'string', default: '2' },
    quick: { type: 'boolean', default: false },
  },
});
const UPLOADS = values.quick ? 3 : Number(values.uploads);
const BURST = values.quick ? 4 : Number(values.burst);

/**
 * A phone photo of about 4 MB: 12 megapixels (4032 × 3024) of fine detail, as a phone's JPEG at
 * quality 90 carries, with EXIF and GPS.
 */
async function phoneJpeg(): Promise<Buffer> {
  const [width, height] = [4032, 3024];
  const noise = await sharp({ create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 24 } } })
    .blur(0.6)
    .raw()
    .toBuffer();
  return sharp(noise, { raw: { width, height, channels: 3 } })
    .withExif({ IFD0: { Make: 'DuetCam', Model: 'Pocket X1' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '37/1 33/1 5940/100' } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

const photo = await phoneJpeg();
const defaults = loadGatewayConfig({}).images;

// 1. The cleaning alone, here, one image after another.
const clean = createImageCleaner({ ...defaults, concurrency: 1 });
await clean(photo, 'image/jpeg');
const cleanMs: number[] = [];
let cleanedBytes = 0;
for (let i = 0; i < UPLOADS; i++) {
  const t0 = performance.now();
  cleanedBytes = (await clean(photo, 'image/jpeg')).data.length;
  cleanMs.push(performance.now() - t0);
}

// 2. Through a gateway process: uploads one after another, then a burst at once; anchor first.
const gateway = await startGatewayProcess(values.arenas === '0' ? {} : { env: { MALLOC_ARENA_MAX: values.arenas } });
const pid = gateway.child.pid!;

/** Posts the photo to `tool`; its answer's status and time. */
async function upload(tool: 'title-academy' | 'game-ending-word'): Promise<{ status: number; ms: number }> {
  const form = new FormData();
  form.set('tool', tool);
  form.set('lang', 'en');
  if (tool === 'game-ending-word') form.set('text', 'apple');
  form.set('image', new Blob([photo], { type: 'image/jpeg' }), 'photo.jpg');
  const t0 = performance.now();
  const res = await fetch(`${gateway.url}/api/battles`, { method: 'POST', body: form });
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - t0 };
}

/** `count` uploads one after another, then `BURST` at once while the gateway's memory is watched. */
async function measure(tool: 'title-academy' | 'game-ending-word', expected: number) {
  await upload(tool);
  const sequential: number[] = [];
  for (let i = 0; i < UPLOADS; i++) {
    const r = await upload(tool);
    if (r.status !== expected) throw new Error(`${tool}: answered ${r.status}, expected ${expected}`);
    sequential.push(r.ms);
  }
  const rssBefore = rssMb(pid);
  const watch = watchPeakRss([pid], 20);
  const burst = await Promise.all(Array.from({ length: BURST }, () => upload(tool)));
  const peak = watch.stop().get(pid) ?? 0;
  if (burst.some((r) => r.status !== expected)) throw new Error(`${tool}: a burst upload was not ${expected}`);
  return {
    p50Ms: Math.round(pct(sequential, 50)),
    p99Ms: Math.round(pct(sequential, 99)),
    burstLastMs: Math.round(Math.max(...burst.map((r) => r.ms))),
    rssBeforeMb: Math.round(rssBefore),
    burstPeakRssMb: Math.round(peak),
  };
}

const anchor = await measure('game-ending-word', 400);
const cleaned = await measure('title-academy', 202);
await gateway.stop();

const figures = {
  uploads: UPLOADS,
  burst: BURST,
  photoBytes: photo.length,
  cleanedBytes,
  maxSidePx: defaults.maxSidePx,
  mallocArenaMax: values.arenas === '0' ? null : Number(values.arenas),
  cleanP50Ms: Math.round(pct(cleanMs, 50)),
  cleanP99Ms: Math.round(pct(cleanMs, 99)),
  anchor,
  cleaned,
};
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
console.log(`\n${await machineLine()} · 1 gateway (IMAGE_CLEAN_CONCURRENCY ${defaults.concurrency}, MALLOC_ARENA_MAX ${figures.mallocArenaMax ?? 'unset'})`);
console.log(`Photo: 4032 × 3024 JPEG, ${mb(photo.length)} MB; kept: ${defaults.maxSidePx} px long side, ${mb(cleanedBytes)} MB\n`);
console.log('| | p50 | p99 | last of a burst of ' + BURST + ' | gateway RSS before → peak in the burst |');
console.log('|---|---|---|---|---|');
console.log(`| cleaning alone (this process) | ${figures.cleanP50Ms} ms | ${figures.cleanP99Ms} ms | | |`);
for (const [name, r] of [['upload, not cleaned (anchor)', anchor], ['upload, cleaned and stored', cleaned]] as const) {
  console.log(`| ${name} | ${r.p50Ms} ms | ${r.p99Ms} ms | ${r.burstLastMs} ms | ${r.rssBeforeMb} → ${r.burstPeakRssMb} MB |`);
}
console.log(JSON.stringify(figures));
process.exit(0);
