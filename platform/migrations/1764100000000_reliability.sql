-- Up Migration

-- The battle sweeper: how often a battle was put back on the queue after its job went missing or
-- failed, and when it was first seen with no job and no worker holding it (it is re-queued only
-- when a later sweep still finds it so, which leaves a worker time to reclaim it after a Redis
-- restart).
ALTER TABLE battles
  ADD COLUMN requeues integer NOT NULL DEFAULT 0,
  ADD COLUMN orphaned_at timestamptz;

-- The sweeper's scan: unfinished battles, oldest first.
CREATE INDEX battles_unfinished_idx ON battles (created_at) WHERE status IN ('queued', 'running');

-- Down Migration
DROP INDEX battles_unfinished_idx;
ALTER TABLE battles DROP COLUMN orphaned_at, DROP COLUMN requeues;
