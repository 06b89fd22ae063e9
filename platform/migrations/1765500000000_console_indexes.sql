-- Up Migration

-- The operators' moderation queue: one state's battles, newest first, a page at a time.
CREATE INDEX battles_moderation_queue_idx ON battles (moderation, created_at DESC, id DESC)
  WHERE moderation IN ('pending', 'flagged', 'taken_down');

-- The console's last minutes (battles, votes and answers a minute): rows arrive in time order, so
-- a block-range index finds the newest few blocks at a fraction of a b-tree's size.
CREATE INDEX battles_created_brin ON battles USING brin (created_at);
CREATE INDEX votes_created_brin ON votes USING brin (created_at);
CREATE INDEX answers_created_brin ON answers USING brin (created_at);

-- Down Migration
DROP INDEX answers_created_brin;
DROP INDEX votes_created_brin;
DROP INDEX battles_created_brin;
DROP INDEX battles_moderation_queue_idx;
