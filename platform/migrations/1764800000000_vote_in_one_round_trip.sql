-- Up Migration

-- Whether an answer names a model or its maker, decided when the answer is stored (the word list
-- and its matching are TypeScript: `mentionedModelName` in shared/src/model-names.ts). NULL for an
-- answer stored before this column or written without it: the gateway decides those at the battle's
-- first vote and writes the flag back (`vote_on_battle()` answers 'unchecked' until then).
ALTER TABLE answers ADD COLUMN names_model boolean;

-- A vote in one round trip: the battle's facts are read here instead of by a query before
-- `cast_vote()`, which then stores the vote as before (the daily cap, the insert, the counters, the
-- win rates). Outcomes, in the order they are checked: 'not_found', 'invalid_vote_token',
-- 'already_voted', 'battle_not_finished' (fewer than two answers), 'unchecked' (an answer's
-- `names_model` is unknown), 'stored'. Nothing is written for any outcome but 'stored', and only
-- 'stored' fills the other columns.
--
-- p_token_hash is the SHA-256 of the presented vote token. Comparing it with `=` may take longer for
-- a longer common prefix; that tells a caller about hashes of tokens it chose, never the token.
-- p_deltas holds what the vote adds to each side's counters, {"a": {"wins", "losses", "ties",
-- "both_bad"}, "b": {...}}; the models they go to are the battle's.
--
-- A vote counts when the battle was blind, both sides finished (stop or length) and neither answer
-- names a model; the first rule broken is the reason. `cast_vote()` applies the daily cap.
CREATE FUNCTION vote_on_battle(
  p_battle_id uuid, p_token_hash bytea, p_winner text, p_user_id uuid, p_voter_key text,
  p_daily_cap integer, p_deltas jsonb
) RETURNS TABLE (
  outcome text, tool text, counted boolean, uncounted_reason text, win_rates json,
  model_a text, label_a text, family_a text, model_b text, label_b text, family_b text, answers json
)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  b record;
  n integer;
  unknown integer;
  failed boolean;
  named boolean;
  stats json;
  v_counted boolean := true;
  v_reason text;
  stored record;
BEGIN
  SELECT x.tool, x.mode, x.vote_token_hash, x.model_a, x.label_a, x.family_a, x.model_b, x.label_b, x.family_b
    INTO b FROM battles x WHERE x.id = p_battle_id;
  IF NOT FOUND THEN
    outcome := 'not_found';
    RETURN NEXT;
    RETURN;
  END IF;
  IF b.vote_token_hash IS DISTINCT FROM p_token_hash THEN
    outcome := 'invalid_vote_token';
    RETURN NEXT;
    RETURN;
  END IF;
  IF EXISTS (SELECT 1 FROM votes v WHERE v.battle_id = p_battle_id) THEN
    outcome := 'already_voted';
    RETURN NEXT;
    RETURN;
  END IF;

  SELECT count(*), count(*) FILTER (WHERE a.names_model IS NULL),
         coalesce(bool_or(a.finish_reason NOT IN ('stop', 'length')), false), coalesce(bool_or(a.names_model), false),
         json_agg(json_build_object('side', a.side, 'finish_reason', a.finish_reason, 'input_tokens', a.input_tokens,
                                    'output_tokens', a.output_tokens, 'ttft_ms', a.ttft_ms, 'duration_ms', a.duration_ms))
    INTO n, unknown, failed, named, stats
    FROM answers a WHERE a.battle_id = p_battle_id;
  IF n < 2 THEN
    outcome := 'battle_not_finished';
    RETURN NEXT;
    RETURN;
  END IF;
  IF unknown > 0 THEN
    outcome := 'unchecked';
    RETURN NEXT;
    RETURN;
  END IF;

  IF b.mode <> 'blind' THEN
    v_counted := false; v_reason := 'named_mode';
  ELSIF failed THEN
    v_counted := false; v_reason := 'side_failed';
  ELSIF named THEN
    v_counted := false; v_reason := 'model_named';
  END IF;

  SELECT * INTO stored FROM cast_vote(
    p_battle_id, b.tool, p_winner, p_user_id, p_voter_key, v_counted, v_reason, p_daily_cap,
    jsonb_build_array(
      jsonb_build_object('model', b.model_a, 'label', b.label_a, 'family', b.family_a) || (p_deltas -> 'a'),
      jsonb_build_object('model', b.model_b, 'label', b.label_b, 'family', b.family_b) || (p_deltas -> 'b')));
  IF NOT stored.inserted THEN
    -- Another vote on this battle committed between the check above and the insert.
    outcome := 'already_voted';
    RETURN NEXT;
    RETURN;
  END IF;
  outcome := 'stored';
  tool := b.tool; counted := stored.counted; uncounted_reason := stored.uncounted_reason; win_rates := stored.win_rates;
  model_a := b.model_a; label_a := b.label_a; family_a := b.family_a;
  model_b := b.model_b; label_b := b.label_b; family_b := b.family_b;
  answers := stats;
  RETURN NEXT;
END
$$;

-- Down Migration
DROP FUNCTION vote_on_battle(uuid, bytea, text, uuid, text, integer, jsonb);
ALTER TABLE answers DROP COLUMN names_model;
