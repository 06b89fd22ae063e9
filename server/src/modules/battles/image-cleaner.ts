import type { ImageMimeType } from '@duet/contracts';
import pLimit from 'p-limit';
import sharp from 'sharp';
import type { Sharp } from 'sharp';
import { AppError } from '../../http/errors.ts';

/** An image as Duet keeps it: cleaned, oriented and within the size cap. */
export interface CleanImage {
  mimeType: ImageMimeType;
  data: Buffer;
}

export interface ImageCleanerOptions {
  /** The longest side an image is kept at, in pixels; larger ones are scaled down to it. */
  maxSidePx: number;
  /** The most pixels an upload may decode to (width × height); more is refused with 413. */
  maxInputPixels: number;
  /** Images cleaned at once; the others wait their turn (decoding is what takes memory). */
  concurrency: number;
}

export type ImageCleaner = (data: Buffer, mimeType: ImageMimeType) => Promise<CleanImage>;

// libvips keeps decoded images in a cache for the next operation on the same input: a gateway
// never sees the same upload twice, so the cache would only hold memory.
sharp.cache(false);

/**
 * Cleans an upload once, on arrival, before anything keeps it: the EXIF orientation is applied
 * to the pixels, the long side is capped, and the image is encoded again in its own format
 * without any metadata (EXIF with its GPS position, XMP, IPTC, ICC, comments, PNG text chunks,
 * bytes after the image's end). The original bytes go no further than this function.
 *
 * An animated GIF or WebP keeps its first frame only: that frame is all the model providers read
 * of one, so what the visitor's history shows is what the models saw, and a pixel budget that
 * counts one frame cannot be beaten by a thousand small frames.
 */
export function createImageCleaner(opts: ImageCleanerOptions): ImageCleaner {
  const slots = pLimit(opts.concurrency);
  return (data, mimeType) => slots(() => clean(data, mimeType, opts));
}

async function clean(data: Buffer, mimeType: ImageMimeType, opts: ImageCleanerOptions): Promise<CleanImage> {
  const image = sharp(data, { limitInputPixels: opts.maxInputPixels, failOn: 'truncated', pages: 1, autoOrient: true }).resize(
    opts.maxSidePx,
    opts.maxSidePx,
    { fit: 'inside', withoutEnlargement: true },
  );
  try {
    return { mimeType, data: await encode(image, mimeType).toBuffer() };
  } catch (err) {
    throw refusal(err, opts.maxInputPixels);
  }
}

function encode(image: Sharp, mimeType: ImageMimeType): Sharp {
  switch (mimeType) {
    case 'image/jpeg':
      return image.jpeg({ quality: 90 });
    case 'image/png':
      return image.png();
    case 'image/webp':
      return image.webp({ quality: 90 });
    case 'image/gif':
      return image.gif();
  }
}

/** What the visitor is told of an image libvips would not take. */
function refusal(err: unknown, maxInputPixels: number): AppError {
  const message = err instanceof Error ? err.message : String(err);
  if (/pixel limit/i.test(message)) {
    const megapixels = Math.floor(maxInputPixels / 1_000_000);
    return new AppError(413, 'image_too_large', `The image has too many pixels: at most ${megapixels} megapixels are accepted`);
  }
  return new AppError(415, 'unsupported_image_type', 'The image could not be read: send a PNG, JPEG, GIF or WebP picture');
}
