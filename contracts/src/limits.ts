/** Product limits from the specification (section 9). Enforced by the gateway and hinted by the client. */
export const LIMITS = {
  /** Longest free-text question, in characters. */
  textMaxChars: 2_000,
  /** Largest uploaded image: 4.5 MB. */
  imageMaxBytes: Math.floor(4.5 * 1024 * 1024),
  /** Image types accepted, judged by the file's magic bytes. */
  imageMimeTypes: ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const,
  /** Keyword fields on a form. */
  keywordsMax: 5,
  /** Longest keyword, in characters. */
  keywordMaxChars: 10,
  /** Longest short field (poem title, genre). */
  shortFieldMaxChars: 100,
} as const;

export type ImageMimeType = (typeof LIMITS.imageMimeTypes)[number];

export const LANGUAGES = ['ko', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const FALLBACK_LANGUAGE: Language = 'ko';

/** The product slug that suffixes every tool route (`/title-academy-duet`). */
export const PRODUCT = 'duet';
