-- Up Migration

-- The counted votes as the plain ratings take them: one row per tool, language, kind of question,
-- pairing (sides as shown) and verdict, with how many votes it holds. The leaderboard refit adds
-- the votes counted since its last run (leaderboard_fold) instead of aggregating every vote again.
-- Labels and families are the largest seen, as the aggregation over the votes takes them.
CREATE TABLE leaderboard_cells (
  tool      text NOT NULL,
  lang      text NOT NULL,
  has_image boolean NOT NULL,
  model_a   text NOT NULL,
  model_b   text NOT NULL,
  winner    text NOT NULL,
  label_a   text NOT NULL,
  family_a  text NOT NULL,
  label_b   text NOT NULL,
  family_b  text NOT NULL,
  n         integer NOT NULL,
  PRIMARY KEY (tool, lang, has_image, model_a, model_b, winner)
);

-- Up to which vote time the counted votes are in leaderboard_cells (one row). Votes after it are
-- read from the votes themselves on each refit. No row: nothing folded yet (the next refit folds
-- every vote; deleting the row and the cells makes it start over).
CREATE TABLE leaderboard_fold (
  id             boolean PRIMARY KEY DEFAULT true CHECK (id),
  folded_through timestamptz NOT NULL
);

-- The most recent folded counted votes (leaderboard_recent_votes_keep at most), each with what the
-- style-controlled ratings and the speed figures read of its battle and answers, copied when the
-- vote is folded: those figures come from the latest votes, and reading them here costs a scan of
-- one narrow table instead of three lookups per vote into battles and answers.
CREATE TABLE leaderboard_recent_votes (
  voted_at    timestamptz NOT NULL,
  battle_id   uuid NOT NULL,
  tool        text NOT NULL,
  lang        text NOT NULL,
  has_image   boolean NOT NULL,
  model_a     text NOT NULL,
  model_b     text NOT NULL,
  winner      text NOT NULL,
  -- length, headers, list items, bold, code blocks of answer a then of answer b (0: no style).
  style       integer[] NOT NULL,
  -- Per answer (a then b): model, time to first token, duration, output tokens, characters; null without the answer.
  model_sa    text,
  model_sb    text,
  speed       integer[] NOT NULL,
  PRIMARY KEY (voted_at, battle_id)
);

-- Down Migration
DROP TABLE leaderboard_recent_votes;
DROP TABLE leaderboard_fold;
DROP TABLE leaderboard_cells;
