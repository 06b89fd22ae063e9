-- Up Migration

-- Why a visitor voted as they did, from a fixed list (`VOTE_REASONS` in contracts), given with the
-- vote or added once just after it.
ALTER TABLE votes ADD COLUMN reasons text[] NOT NULL DEFAULT '{}';

-- Running totals for the leaderboard's "picked for" and "passed over for", per tool and model,
-- counted votes only, bumped in the transaction that stores the reasons: reading them is one
-- small query whatever the number of votes.
CREATE TABLE model_reasons (
  tool   text NOT NULL,
  model  text NOT NULL,
  reason text NOT NULL,
  n      integer NOT NULL,
  PRIMARY KEY (tool, model, reason)
);

-- Stores a vote's reasons once. Outcomes, in the order they are checked: 'not_found',
-- 'invalid_vote_token', 'not_voted', 'reasons_given' (the vote has reasons already), 'too_late'
-- (the vote is older than p_window_seconds), 'not_fitting' (a reason for picking an answer on a
-- "both bad" vote), 'stored'. Nothing is written for any outcome but 'stored'.
--
-- A reason in p_picked is said of the winner (of both sides on a tie); any other of the loser (of
-- both sides on a tie or "both bad"). Only counted votes add to `model_reasons`.
CREATE FUNCTION add_vote_reasons(
  p_battle_id uuid, p_token_hash bytea, p_reasons text[], p_picked text[], p_window_seconds integer
) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  b record;
  v record;
BEGIN
  SELECT x.tool, x.vote_token_hash, x.model_a, x.model_b INTO b FROM battles x WHERE x.id = p_battle_id;
  IF NOT FOUND THEN RETURN 'not_found'; END IF;
  IF b.vote_token_hash IS DISTINCT FROM p_token_hash THEN RETURN 'invalid_vote_token'; END IF;
  SELECT y.winner, y.counted, y.reasons, y.created_at INTO v FROM votes y WHERE y.battle_id = p_battle_id FOR UPDATE;
  IF NOT FOUND THEN RETURN 'not_voted'; END IF;
  IF cardinality(v.reasons) > 0 THEN RETURN 'reasons_given'; END IF;
  IF v.created_at < now() - make_interval(secs => p_window_seconds) THEN RETURN 'too_late'; END IF;
  IF v.winner = 'both_bad' AND p_reasons && p_picked THEN RETURN 'not_fitting'; END IF;

  UPDATE votes SET reasons = p_reasons WHERE battle_id = p_battle_id;
  IF v.counted THEN
    INSERT INTO model_reasons AS m (tool, model, reason, n)
    SELECT DISTINCT b.tool, said.model, s.reason, 1
      FROM (
        SELECT r AS reason,
               CASE
                 WHEN v.winner IN ('tie', 'both_bad') THEN ARRAY[b.model_a, b.model_b]
                 WHEN (r = ANY (p_picked)) = (v.winner = 'a') THEN ARRAY[b.model_a]
                 ELSE ARRAY[b.model_b]
               END AS models
          FROM unnest(p_reasons) AS r
      ) s
      CROSS JOIN LATERAL unnest(s.models) AS said(model)
    ON CONFLICT (tool, model, reason) DO UPDATE SET n = m.n + 1;
  END IF;
  RETURN 'stored';
END
$$;

-- Down Migration
DROP FUNCTION add_vote_reasons(uuid, bytea, text[], text[], integer);
DROP TABLE model_reasons;
ALTER TABLE votes DROP COLUMN reasons;
