-- Up Migration

-- A tool's counters in shards. Each counted vote adds to its two models' rows and holds their row
-- locks until its commit is flushed; with one row per (tool, model), every vote of a tool waited
-- for the one before it, so a campaign on one activity was as fast as one commit at a time. Now
-- each vote adds to the rows of one shard, chosen by its database session (`pg_backend_pid()`,
-- so two votes on two of the gateway's pooled connections almost never meet), and readers sum the
-- shards. At most models × 16 rows per tool.
ALTER TABLE model_stats ADD COLUMN shard smallint NOT NULL DEFAULT 0 CHECK (shard >= 0 AND shard < 16);
ALTER TABLE model_stats DROP CONSTRAINT model_stats_pkey;
ALTER TABLE model_stats ADD PRIMARY KEY (tool, model, shard);

-- One row per tool and model, as the counters read: the shards summed, the label and family the
-- latest vote wrote (a model renamed in the roster shows its new name).
CREATE VIEW model_totals AS
  SELECT tool, model,
         (array_agg(label ORDER BY updated_at DESC))[1] AS label,
         (array_agg(family ORDER BY updated_at DESC))[1] AS family,
         sum(battles)::integer AS battles, sum(wins)::integer AS wins, sum(losses)::integer AS losses,
         sum(ties)::integer AS ties, sum(both_bad)::integer AS both_bad, max(updated_at) AS updated_at
    FROM model_stats
   GROUP BY tool, model;

CREATE OR REPLACE FUNCTION tool_win_rates(p_tool text) RETURNS json
LANGUAGE sql STABLE AS $$
  SELECT coalesce(json_agg(json_build_object(
           'model', model, 'label', label, 'family', family, 'battles', battles,
           'wins', wins, 'losses', losses, 'ties', ties, 'both_bad', both_bad)
         ORDER BY wins::float / GREATEST(battles, 1) DESC, battles DESC, model), '[]'::json)
    FROM model_totals WHERE tool = p_tool
$$;

-- As in migration 1764300000000 (the daily cap, the insert, the counters, the win rates after
-- it), with the counters added to this session's shard.
CREATE OR REPLACE FUNCTION cast_vote(
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
    -- Both rows in one shard, locked in model order: two votes that share a shard cannot deadlock.
    INSERT INTO model_stats AS s (tool, model, shard, label, family, battles, wins, losses, ties, both_bad)
    SELECT p_tool, d.model, pg_backend_pid() % 16, d.label, d.family, 1, d.wins, d.losses, d.ties, d.both_bad
      FROM jsonb_to_recordset(p_stats) AS d(model text, label text, family text, wins integer, losses integer, ties integer, both_bad integer)
     ORDER BY d.model
    ON CONFLICT (tool, model, shard) DO UPDATE SET
      label = EXCLUDED.label, family = EXCLUDED.family,
      battles = s.battles + 1, wins = s.wins + EXCLUDED.wins, losses = s.losses + EXCLUDED.losses,
      ties = s.ties + EXCLUDED.ties, both_bad = s.both_bad + EXCLUDED.both_bad, updated_at = now();
  END IF;

  RETURN QUERY SELECT true, v_counted, v_reason, tool_win_rates(p_tool);
END
$$;

-- Down Migration
CREATE OR REPLACE FUNCTION cast_vote(
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

CREATE OR REPLACE FUNCTION tool_win_rates(p_tool text) RETURNS json
LANGUAGE sql STABLE AS $$
  SELECT coalesce(json_agg(json_build_object(
           'model', model, 'label', label, 'family', family, 'battles', battles,
           'wins', wins, 'losses', losses, 'ties', ties, 'both_bad', both_bad)
         ORDER BY wins::float / GREATEST(battles, 1) DESC, battles DESC, model), '[]'::json)
    FROM model_stats WHERE tool = p_tool
$$;

-- The shards folded back into one row per tool and model.
CREATE TEMPORARY TABLE model_stats_folded ON COMMIT DROP AS SELECT * FROM model_totals;
DROP VIEW model_totals;
DELETE FROM model_stats;
ALTER TABLE model_stats DROP CONSTRAINT model_stats_pkey;
ALTER TABLE model_stats DROP COLUMN shard;
ALTER TABLE model_stats ADD PRIMARY KEY (tool, model);
INSERT INTO model_stats (tool, model, label, family, battles, wins, losses, ties, both_bad, updated_at)
SELECT tool, model, label, family, battles, wins, losses, ties, both_bad, updated_at FROM model_stats_folded;
