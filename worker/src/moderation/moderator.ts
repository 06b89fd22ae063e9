import type { ImageMimeType } from '@duet/contracts';

/** What is checked of one battle: the visitor's question and inputs, both answers, and its image. */
export interface ModerationContent {
  /** The question, each input value, and the two answers, in that order; empty ones left out. */
  texts: string[];
  image?: { mimeType: ImageMimeType; data: Buffer } | undefined;
}

/** A moderator's decision on one battle. */
export interface ModerationVerdict {
  flagged: boolean;
  /** The categories found, e.g. `sexual`, `violence` (OpenAI's names where it has one). */
  categories: string[];
  /** Who decided, stored with the decision: `wordlist`, or `openai:<model that answered>`. */
  decidedBy: string;
}

/**
 * Judges a battle's content. Throws when it cannot decide (the provider is down, answers an
 * error, or times out): the caller leaves the battle pending and tries again later.
 */
export interface Moderator {
  /** `wordlist` or `openai`, for logs. */
  readonly kind: 'wordlist' | 'openai';
  moderate(content: ModerationContent): Promise<ModerationVerdict>;
}
