-- Up Migration

-- A tool's battles whose models the visitor chose (named from the start, never counted), newest
-- vote first: the history's "chosen" view walks this small index instead of every vote of the tool.
CREATE INDEX votes_named_idx ON votes (tool, created_at DESC, battle_id DESC) WHERE uncounted_reason = 'named_mode';

-- Down Migration
DROP INDEX votes_named_idx;
