-- Up Migration

-- Images are cleaned on arrival (no metadata, oriented, capped). Rows stored before that were
-- kept as sent: they are not served until `npm run clean-images` has cleaned them. A gateway
-- that cleans says so on each insert, so an older gateway's rows during a rolling update are
-- held back and cleaned too.
ALTER TABLE battle_images ADD COLUMN cleaned boolean NOT NULL DEFAULT false;
CREATE INDEX battle_images_uncleaned_idx ON battle_images (battle_id) WHERE NOT cleaned;

-- A battle whose asker erased their account: its question and answers are emptied, its image
-- deleted, and it is never public again. Its vote stays counted, with no link to anyone.
ALTER TABLE battles DROP CONSTRAINT battles_moderation_check;
ALTER TABLE battles ADD CONSTRAINT battles_moderation_check
  CHECK (moderation IN ('pending', 'ok', 'flagged', 'taken_down', 'erased'));

-- Down Migration
ALTER TABLE battles DROP CONSTRAINT battles_moderation_check;
UPDATE battles SET moderation = 'taken_down' WHERE moderation = 'erased';
ALTER TABLE battles ADD CONSTRAINT battles_moderation_check
  CHECK (moderation IN ('pending', 'ok', 'flagged', 'taken_down'));
DROP INDEX battle_images_uncleaned_idx;
ALTER TABLE battle_images DROP COLUMN cleaned;
