-- Up Migration

-- A battle is a conversation: its first question is the battle's own row (turn 1, root_id NULL),
-- each follow-up a row of its own (turn 2, 3 …, root_id the first turn's id) with the same models,
-- sides, mode, asker and vote token. A turn runs, streams, stores its answers and is swept like any
-- battle; the vote is the first turn's, for the whole conversation. `turns` (on the first turn's
-- row) counts the turns asked: raised with each follow-up, under the row lock the vote takes.
ALTER TABLE battles
  ADD COLUMN root_id uuid REFERENCES battles (id) ON DELETE CASCADE,
  ADD COLUMN turn integer NOT NULL DEFAULT 1,
  ADD COLUMN turns integer NOT NULL DEFAULT 1,
  ADD CONSTRAINT battles_turn_check CHECK ((root_id IS NULL) = (turn = 1) AND turns >= 1);
CREATE UNIQUE INDEX battles_root_turn_idx ON battles (root_id, turn) WHERE root_id IS NOT NULL;

-- As before (1764800000000_vote_in_one_round_trip.sql), over every turn of the conversation: the
-- vote is the first turn's ('not_found' for a follow-up's id), it waits until every turn has both
-- answers ('battle_not_finished'), and any side failed or naming a model in any turn keeps it from
-- counting. The first turn's row is locked, so a follow-up asked at the same moment either comes
-- before (and the vote waits for it) or is refused as already voted. The figures returned are the
-- first turn's.
CREATE OR REPLACE FUNCTION vote_on_battle(
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
  SELECT x.tool, x.mode, x.vote_token_hash, x.model_a, x.label_a, x.family_a, x.model_b, x.label_b, x.family_b, x.turns
    INTO b FROM battles x WHERE x.id = p_battle_id AND x.root_id IS NULL FOR UPDATE;
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
           FILTER (WHERE a.battle_id = p_battle_id)
    INTO n, unknown, failed, named, stats
    FROM answers a
   WHERE a.battle_id = p_battle_id OR a.battle_id IN (SELECT t.id FROM battles t WHERE t.root_id = p_battle_id);
  IF n < 2 * b.turns THEN
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
-- The vote of one question again, as 1764800000000_vote_in_one_round_trip.sql has it.
CREATE OR REPLACE FUNCTION vote_on_battle(
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
DROP INDEX battles_root_turn_idx;
ALTER TABLE battles DROP CONSTRAINT battles_turn_check, DROP COLUMN turns, DROP COLUMN turn, DROP COLUMN root_id;
