-- Up Migration

-- Sessions whose client vanished without a word (its host died, or a network partition) are ended
-- by PostgreSQL within minutes instead of holding their locks for hours. Until PostgreSQL notices, a
-- worker host lost in the middle of a leaderboard fold keeps `leaderboard_fold` locked and every
-- later refit waits on it; a migrating host lost mid-migration keeps the migration lock. PostgreSQL
-- notices through TCP keepalive, by default after two hours of silence.
--   idle_in_transaction_session_timeout: a session in a transaction that sends nothing for 60 s is
--     ended, its locks released (no Duet transaction waits on its client between statements);
--   tcp_keepalives_*: a silent client is probed after 60 s, every 10 s, and given up after 6
--     unanswered probes (about 2 minutes in all).
-- Defaults of this database, for every new session of any role (through PgBouncer too). Setting
-- them takes the database's owner: a role that does not own it gets a warning, and the operator
-- sets them (docs/operations.md, "PostgreSQL connections").
DO $$
BEGIN
  EXECUTE format('ALTER DATABASE %I SET idle_in_transaction_session_timeout = %L', current_database(), '60s');
  EXECUTE format('ALTER DATABASE %I SET tcp_keepalives_idle = 60', current_database());
  EXECUTE format('ALTER DATABASE %I SET tcp_keepalives_interval = 10', current_database());
  EXECUTE format('ALTER DATABASE %I SET tcp_keepalives_count = 6', current_database());
EXCEPTION WHEN insufficient_privilege THEN
  RAISE WARNING 'Duet could not set its database''s session defaults (its role does not own the database): see docs/operations.md, "PostgreSQL connections"';
END
$$;

-- Down Migration

DO $$
BEGIN
  EXECUTE format('ALTER DATABASE %I RESET idle_in_transaction_session_timeout', current_database());
  EXECUTE format('ALTER DATABASE %I RESET tcp_keepalives_idle', current_database());
  EXECUTE format('ALTER DATABASE %I RESET tcp_keepalives_interval', current_database());
  EXECUTE format('ALTER DATABASE %I RESET tcp_keepalives_count', current_database());
END
$$;
