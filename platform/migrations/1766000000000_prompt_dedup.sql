-- Up Migration

-- De-duplication (DEDUP_MAX_PER_PROMPT): a question asked over and over (a suggested example, a
-- viral prompt) counts on the de-duplicated boards at most that many times per tool.
--
-- `prompt_hash`: SHA-256 of the first turn's question as `promptKey()` (contracts/src/prompt-key.ts)
-- normalises it, written when the battle is stored (`insertBattle`). NULL on follow-up turns, on
-- battles with a picture (the same words about another picture are another question: never capped)
-- and on questions with an empty key (symbols only: they cannot be told apart).
ALTER TABLE battles ADD COLUMN prompt_hash bytea;

-- `prompt_rank`: a counted vote's place among the counted votes on its question in its tool (1, 2,
-- 3 …, in the order they committed), written as the vote is inserted (`rank_vote_on_prompt()`); NULL
-- when the vote did not count or its battle has no `prompt_hash`. The cap is applied when the boards
-- are computed (rank > cap: over the cap), so a new cap rewrites no vote; the ranks never move (a
-- vote erased with its battle leaves a gap: the cap counts the votes ever ranked, never more).
ALTER TABLE votes ADD COLUMN prompt_rank integer CHECK (prompt_rank > 0);

-- How many counted votes each question of a tool has had: the next vote's rank. One row per
-- question asked in a counted battle; its row lock orders the votes on that question.
CREATE TABLE prompt_votes (
  tool        text NOT NULL,
  prompt_hash bytea NOT NULL,
  votes       integer NOT NULL,
  PRIMARY KEY (tool, prompt_hash)
);

-- The battles stored before: the same rule in SQL (NFKC, lower case, without punctuation, symbols,
-- spacing and control characters as the database's character classes read them). For ordinary
-- text it is the TypeScript rule; on rare symbols the two may differ, and an old battle's question
-- then counts apart from the same question asked after this release.
UPDATE battles b SET prompt_hash = sha256(convert_to(k.key, 'UTF8'))
  FROM (SELECT id, regexp_replace(lower(normalize(text, NFKC)), '[[:punct:][:space:][:cntrl:]]+', '', 'g') AS key
          FROM battles WHERE root_id IS NULL AND NOT has_image) k
 WHERE b.id = k.id AND k.key <> '';
UPDATE votes v SET prompt_rank = r.rank
  FROM (SELECT v.battle_id, row_number() OVER (PARTITION BY v.tool, b.prompt_hash ORDER BY v.created_at, v.battle_id) AS rank
          FROM votes v JOIN battles b ON b.id = v.battle_id
         WHERE v.counted AND b.prompt_hash IS NOT NULL) r
 WHERE v.battle_id = r.battle_id;
INSERT INTO prompt_votes (tool, prompt_hash, votes)
SELECT v.tool, b.prompt_hash, max(v.prompt_rank)
  FROM votes v JOIN battles b ON b.id = v.battle_id
 WHERE v.prompt_rank IS NOT NULL
 GROUP BY v.tool, b.prompt_hash;

-- Whether a cell's votes are over the cap becomes part of its key, relative to the cap the cells
-- were folded with (`leaderboard_fold.prompt_cap`): a refit with another cap starts the cells over
-- (`foldCountedVotes`). The cells start over now, as in 1765900000000_multi_turn_cells.sql.
ALTER TABLE leaderboard_cells ADD COLUMN over_cap boolean NOT NULL DEFAULT false;
ALTER TABLE leaderboard_cells
  DROP CONSTRAINT leaderboard_cells_pkey,
  ADD PRIMARY KEY (tool, lang, has_image, multi_turn, over_cap, model_a, model_b, winner);
ALTER TABLE leaderboard_fold ADD COLUMN prompt_cap integer;
DELETE FROM leaderboard_cells;
DELETE FROM leaderboard_fold;

-- A counted vote on a battle with a `prompt_hash` takes its rank as it is inserted (by `cast_vote()`,
-- whichever path calls it, once its daily cap has decided whether it counts). The counter's row
-- lock is held to the commit, so two votes on one question never share a rank; the vote already
-- holds its battle's row lock, and takes this one before the win-rate counters' rows, in every
-- vote the same order. A second vote on one battle, refused by the insert's conflict clause after
-- this ran, leaves a gap in the ranks (as an erased vote does): the cap never counts more.
CREATE FUNCTION rank_vote_on_prompt() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  v_hash bytea;
BEGIN
  IF NEW.counted THEN
    SELECT b.prompt_hash INTO v_hash FROM battles b WHERE b.id = NEW.battle_id;
    IF v_hash IS NOT NULL THEN
      INSERT INTO prompt_votes AS p (tool, prompt_hash, votes) VALUES (NEW.tool, v_hash, 1)
      ON CONFLICT (tool, prompt_hash) DO UPDATE SET votes = p.votes + 1
      RETURNING p.votes INTO NEW.prompt_rank;
    END IF;
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER votes_prompt_rank BEFORE INSERT ON votes FOR EACH ROW EXECUTE FUNCTION rank_vote_on_prompt();

-- Down Migration
DROP TRIGGER votes_prompt_rank ON votes;
DROP FUNCTION rank_vote_on_prompt();
DELETE FROM leaderboard_cells;
DELETE FROM leaderboard_fold;
ALTER TABLE leaderboard_fold DROP COLUMN prompt_cap;
ALTER TABLE leaderboard_cells
  DROP CONSTRAINT leaderboard_cells_pkey,
  ADD PRIMARY KEY (tool, lang, has_image, multi_turn, model_a, model_b, winner);
ALTER TABLE leaderboard_cells DROP COLUMN over_cap;
DROP TABLE prompt_votes;
ALTER TABLE votes DROP COLUMN prompt_rank;
ALTER TABLE battles DROP COLUMN prompt_hash;
