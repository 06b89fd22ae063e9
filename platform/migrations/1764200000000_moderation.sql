-- Up Migration

-- Whether a battle may be shown in public (history, open-data export). The worker decides once
-- both answers are stored: `ok` or `flagged`. An operator can take a battle down (`taken_down`)
-- and restore it (back to `ok`). Only `ok` battles are public.
--
-- Battles that exist already become `pending`, like new ones: none of them was ever checked, and
-- publishing them unchecked is what this migration exists to stop. The worker's periodic sweep
-- checks them, oldest first, a batch at a time (MODERATION_BATCH_SIZE every
-- MODERATION_INTERVAL_MS), and they reappear as they pass.
ALTER TABLE battles
  ADD COLUMN moderation text NOT NULL DEFAULT 'pending'
    CHECK (moderation IN ('pending', 'ok', 'flagged', 'taken_down')),
  -- When and by what the current state was decided: `wordlist`, `openai:<model>`, or an
  -- operator (`operator:api`, `operator:cli`). Null while pending.
  ADD COLUMN moderated_at timestamptz,
  ADD COLUMN moderated_by text,
  -- What the moderator found (e.g. {sexual,violence}); kept when an operator overrides it.
  ADD COLUMN moderation_categories text[] NOT NULL DEFAULT '{}',
  -- Checks tried, failed ones included: the sweep takes the least-tried first, so a battle the
  -- provider keeps refusing cannot hold up the others.
  ADD COLUMN moderation_attempts integer NOT NULL DEFAULT 0;

CREATE INDEX battles_moderation_pending_idx ON battles (moderation_attempts, created_at) WHERE moderation = 'pending';

-- Down Migration
DROP INDEX battles_moderation_pending_idx;
ALTER TABLE battles DROP COLUMN moderation_attempts, DROP COLUMN moderation_categories, DROP COLUMN moderated_by,
  DROP COLUMN moderated_at, DROP COLUMN moderation;
