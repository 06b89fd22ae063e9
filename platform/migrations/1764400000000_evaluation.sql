-- Up Migration

-- The style of each answer, counted when it is stored (worker/src/store/answer-style.ts): what the
-- style-controlled ratings compare. Null for answers stored before this migration: the leaderboard
-- refit counts them from their text, with the same parser, before it fits.
ALTER TABLE answers
  ADD COLUMN style_length integer,
  ADD COLUMN style_headers integer,
  ADD COLUMN style_list_items integer,
  ADD COLUMN style_bold integer,
  ADD COLUMN style_code_blocks integer;
CREATE INDEX answers_style_missing_idx ON answers (battle_id, side) WHERE style_length IS NULL;

-- Each leaderboard as it stood on a day (UTC): one row per board and day, written by the refit and
-- rewritten only when that day's votes changed it, so the ratings can be drawn over time.
CREATE TABLE leaderboard_snapshots (
  -- `*`, a tool slug, or `category:<name>` (shared boardScope).
  scope       text NOT NULL,
  control     text NOT NULL CHECK (control IN ('none', 'style')),
  day         date NOT NULL,
  votes       integer NOT NULL,
  -- [{model, label, rating, ciLow, ciHigh}], best first.
  models      jsonb NOT NULL,
  computed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (scope, control, day)
);

-- Down Migration
DROP TABLE leaderboard_snapshots;
DROP INDEX answers_style_missing_idx;
ALTER TABLE answers DROP COLUMN style_code_blocks, DROP COLUMN style_bold, DROP COLUMN style_list_items,
  DROP COLUMN style_headers, DROP COLUMN style_length;
