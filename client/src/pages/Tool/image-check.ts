import { LIMITS } from '@duet/contracts/limits';
import type { ImageMimeType } from '@duet/contracts/limits';

export type ImageProblem = 'unsupported_image_type' | 'image_too_large' | 'image_empty';

const starts = (bytes: Uint8Array, sig: number[], at = 0) => sig.every((b, i) => bytes[at + i] === b);

/** The image type the file's first bytes say it is, or null. */
export function sniffImageType(bytes: Uint8Array): ImageMimeType | null {
  if (starts(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (starts(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (starts(bytes, [0x47, 0x49, 0x46, 0x38]) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61) {
    return 'image/gif';
  }
  if (starts(bytes, [0x52, 0x49, 0x46, 0x46]) && starts(bytes, [0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp';
  return null;
}

/**
 * Checks a picked file the way the gateway will: at most 4.5 MB, and a PNG, JPEG, GIF or WebP
 * both by its declared type and by its first bytes. Answers the problem, or null when fine.
 */
export async function checkImage(file: File): Promise<ImageProblem | null> {
  if (file.size === 0) return 'image_empty';
  if (!(LIMITS.imageMimeTypes as readonly string[]).includes(file.type)) return 'unsupported_image_type';
  if (file.size > LIMITS.imageMaxBytes) return 'image_too_large';
  const head = new Uint8Array(await file.slice(0, 16).arrayBuffer());
  return sniffImageType(head) ? null : 'unsupported_image_type';
}
