-- Up Migration

-- Every vote is kept; only some count toward win rates and ratings, and the rest say why.
ALTER TABLE votes
  ADD COLUMN counted boolean NOT NULL DEFAULT true,
  ADD COLUMN uncounted_reason text CHECK (uncounted_reason IN ('named_mode', 'side_failed', 'model_named', 'daily_cap')),
  -- Who voted, for the daily cap: the account, else a keyed hash of the IP (never the IP itself).
  ADD COLUMN voter_key text,
  ADD CONSTRAINT votes_counted_reason CHECK (counted = (uncounted_reason IS NULL));

CREATE INDEX votes_counted_idx ON votes (created_at, battle_id) WHERE counted;
CREATE INDEX votes_voter_day_idx ON votes (voter_key, created_at) WHERE voter_key IS NOT NULL;

-- Down Migration
DROP INDEX votes_voter_day_idx;
DROP INDEX votes_counted_idx;
ALTER TABLE votes DROP CONSTRAINT votes_counted_reason,
  DROP COLUMN voter_key, DROP COLUMN uncounted_reason, DROP COLUMN counted;
