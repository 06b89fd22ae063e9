-- Up Migration

-- A tool's counters, as win rates read them: one JSON array, best win rate first. The vote and
-- the history page both read them through here, so the order is written once.
CREATE FUNCTION tool_win_rates(p_tool text) RETURNS json
LANGUAGE sql STABLE AS $$
  SELECT coalesce(json_agg(json_build_object(
           'model', model, 'label', label, 'family', family, 'battles', battles,
           'wins', wins, 'losses', losses, 'ties', ties, 'both_bad', both_bad)
         ORDER BY wins::float / GREATEST(battles, 1) DESC, battles DESC, model), '[]'::json)
    FROM model_stats WHERE tool = p_tool
$$;

-- Stores a battle's vote, in one round trip and one transaction (the caller's statement):
--
-- 1. When the vote would count (`p_counted`, decided by the gateway from the battle and its
--    answers) and there is a daily cap, it takes the voter's lock for the rest of the
--    transaction and counts the voter's votes since midnight UTC, counted or not, up to the cap.
--    Each statement of a PL/pgSQL function sees what was committed before it started, and the
--    lock is let go only after its holder's vote is visible: two votes of one voter cannot both
--    slip under the cap. At the cap the vote is kept, marked `daily_cap`.
-- 2. It inserts the vote. The primary key allows one per battle; when another vote got there
--    first (even one still committing), nothing is stored and `inserted` is false.
-- 3. A counted vote adds `p_stats` (what it adds to each model: model, label, family, wins,
--    losses, ties, both_bad) to the tool's counters. Rows are locked in model order, so two
--    votes on one tool whose models sit on opposite sides cannot deadlock.
-- 4. It returns the tool's win rates as they are now.
CREATE FUNCTION cast_vote(
  p_battle_id uuid, p_tool text, p_winner text, p_user_id uuid, p_voter_key text,
  p_counted boolean, p_uncounted_reason text, p_daily_cap integer, p_stats jsonb
) RETURNS TABLE (inserted boolean, counted boolean, uncounted_reason text, win_rates json)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_counted boolean := p_counted;
  v_reason text := p_uncounted_reason;
  v_today integer;
BEGIN
  IF v_counted AND p_daily_cap > 0 THEN
    PERFORM pg_advisory_xact_lock(hashtextextended(p_voter_key, 0));
    SELECT count(*) INTO v_today
      FROM (SELECT 1 FROM votes
             WHERE voter_key = p_voter_key
               AND created_at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
             LIMIT p_daily_cap) AS today;
    IF v_today >= p_daily_cap THEN
      v_counted := false;
      v_reason := 'daily_cap';
    END IF;
  END IF;

  INSERT INTO votes (battle_id, tool, winner, user_id, voter_key, counted, uncounted_reason)
  VALUES (p_battle_id, p_tool, p_winner, p_user_id, p_voter_key, v_counted, v_reason)
  ON CONFLICT (battle_id) DO NOTHING;
  IF NOT FOUND THEN
    RETURN QUERY SELECT false, false, NULL::text, NULL::json;
    RETURN;
  END IF;

  IF v_counted THEN
    INSERT INTO model_stats AS s (tool, model, label, family, battles, wins, losses, ties, both_bad)
    SELECT p_tool, d.model, d.label, d.family, 1, d.wins, d.losses, d.ties, d.both_bad
      FROM jsonb_to_recordset(p_stats) AS d(model text, label text, family text, wins integer, losses integer, ties integer, both_bad integer)
     ORDER BY d.model
    ON CONFLICT (tool, model) DO UPDATE SET
      label = EXCLUDED.label, family = EXCLUDED.family,
      battles = s.battles + 1, wins = s.wins + EXCLUDED.wins, losses = s.losses + EXCLUDED.losses,
      ties = s.ties + EXCLUDED.ties, both_bad = s.both_bad + EXCLUDED.both_bad, updated_at = now();
  END IF;

  RETURN QUERY SELECT true, v_counted, v_reason, tool_win_rates(p_tool);
END
$$;

-- Down Migration
DROP FUNCTION cast_vote(uuid, text, text, uuid, text, boolean, text, integer, jsonb);
DROP FUNCTION tool_win_rates(text);
