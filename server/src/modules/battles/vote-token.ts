import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A fresh vote token: 256 random bits, URL-safe. */
export const newVoteToken = (): string => randomBytes(32).toString('base64url');

export const hashVoteToken = (token: string): Buffer => createHash('sha256').update(token, 'utf8').digest();

/** Compares a presented token with the stored hash in constant time. */
export const voteTokenMatches = (token: string, hash: Buffer): boolean => {
  const presented = hashVoteToken(token);
  return presented.length === hash.length && timingSafeEqual(presented, hash);
};
