import type pg from 'pg';
import { insertSyntheticVotes } from '../../test/helpers/synthetic-votes.ts';

/** Votes per INSERT statement: one statement of ten million would hold its whole draw in memory at once. */
const BATCH = 1_000_000;

/**
 * Stores `votes` counted votes with their answers (test/helpers/synthetic-votes.ts), a million per
 * statement, each batch with its own seed (the first with the helper's default, so the first
 * million are the `leaderboard` benchmark's), all spread over the hour before each batch.
 */
export async function seedScaleVotes(client: pg.ClientBase, votes: number, onBatch?: (stored: number) => void): Promise<void> {
  for (let stored = 0, k = 0; stored < votes; k++) {
    const n = Math.min(BATCH, votes - stored);
    await insertSyntheticVotes(client, n, { answers: true, spreadSeconds: 3600, seed: k === 0 ? 0.42 : (k % 100) / 100 - 0.5 });
    stored += n;
    onBatch?.(stored);
  }
}
