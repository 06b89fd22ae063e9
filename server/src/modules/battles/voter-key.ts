import { createHmac } from 'node:crypto';
import type { Db } from '../../infra/db.ts';
import { loadOnce, storedSecret } from '../../infra/secrets.ts';

/** Who votes: the signed-in user, if any, and the client's address. */
export interface Voter {
  userId?: string | undefined;
  ip: string;
}

/**
 * The key the daily vote cap counts by: the account, else a keyed hash of the IP (never the
 * address itself). The hashing key is generated once and shared by every gateway.
 */
export function createVoterKeys(db: Db): (voter: Voter) => Promise<string> {
  const secret = loadOnce(() => storedSecret(db, 'voter-key'));
  return async (voter) => (voter.userId ? `user:${voter.userId}` : `ip:${createHmac('sha256', await secret()).update(voter.ip).digest('hex')}`);
}
