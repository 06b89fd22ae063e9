-- Up Migration

-- The `multi-turn` board (votes on battles with a follow-up: battles.turns > 1 on the first turn's
-- row, which the vote is on) takes its votes from the same cells as the others, so whether the
-- battle had more than one turn becomes part of a cell's key. A vote's `turns` no longer changes
-- once it is stored (no follow-up after the vote), so a folded cell stays right.
ALTER TABLE leaderboard_cells ADD COLUMN multi_turn boolean NOT NULL DEFAULT false;
ALTER TABLE leaderboard_cells
  DROP CONSTRAINT leaderboard_cells_pkey,
  ADD PRIMARY KEY (tool, lang, has_image, multi_turn, model_a, model_b, winner);
-- The cells start over: the next refit folds every counted vote again (as the hourly recount reads
-- them all anyway), so the key is right whichever release brought the follow-ups.
DELETE FROM leaderboard_cells;
DELETE FROM leaderboard_fold;

-- The speeds get the slice too: null on the other slices' rows, true on the rows of the battles
-- with a follow-up (the one-turn battles' rows are not kept: no board shows them). Every slice's
-- figures come from the first turn's answers, one pair per battle, so they compare across boards.
ALTER TABLE leaderboard_speeds ADD COLUMN multi_turn boolean;

-- Down Migration
DELETE FROM leaderboard_speeds WHERE multi_turn IS NOT NULL;
ALTER TABLE leaderboard_speeds DROP COLUMN multi_turn;
DELETE FROM leaderboard_cells;
DELETE FROM leaderboard_fold;
ALTER TABLE leaderboard_cells
  DROP CONSTRAINT leaderboard_cells_pkey,
  ADD PRIMARY KEY (tool, lang, has_image, model_a, model_b, winner);
ALTER TABLE leaderboard_cells DROP COLUMN multi_turn;
