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

-- The speed figures of the last style refit (one row per model and slice: every key null, a tool,
-- a language or a kind of question). That job reads every counted vote with its answers, once an
-- hour; the frequent plain refit puts these figures on its boards instead of reading the answers.
CREATE TABLE leaderboard_speeds (
  model                  text NOT NULL,
  tool                   text,
  lang                   text,
  has_image              boolean,
  ttft_ms_p50            double precision,
  ttft_ms_p25            double precision,
  ttft_ms_p75            double precision,
  tokens_per_second_p50  double precision,
  answer_chars_p50       double precision,
  answers                integer NOT NULL
);

-- Down Migration
DROP TABLE leaderboard_speeds;
DROP TABLE leaderboard_fold;
DROP TABLE leaderboard_cells;
