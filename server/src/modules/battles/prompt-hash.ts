import { createHash } from 'node:crypto';
import { promptKey } from '@duet/contracts';

/**
 * What de-duplication compares a battle's question by (`battles.prompt_hash`): the SHA-256 of its
 * first turn's text as `promptKey` normalises it. Null, never capped, for a question with a
 * picture (the same words about another picture are another question) or with an empty key
 * (symbols only, which cannot be told apart).
 */
export function promptHashOf(text: string, hasImage: boolean): Buffer | null {
  if (hasImage) return null;
  const key = promptKey(text);
  return key === '' ? null : createHash('sha256').update(key, 'utf8').digest();
}
