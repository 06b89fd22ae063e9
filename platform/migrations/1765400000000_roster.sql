-- Up Migration

-- The models battles are drawn from, seeded from the environment (DUET_MODELS, the provider keys)
-- on the first start and changed by operators from then on. A key is never here: `api_key_env`
-- names the environment variable that holds it. A retired model is never drawn again and stays in
-- history and the leaderboards; `updated_by` null: as seeded.
CREATE TABLE models (
  id text PRIMARY KEY,
  -- The order models were added in (the console lists them so).
  ordinal bigint GENERATED ALWAYS AS IDENTITY,
  label text NOT NULL,
  provider text NOT NULL,
  model text NOT NULL,
  family text NOT NULL,
  base_url text,
  api_key_env text,
  weight double precision NOT NULL CHECK (weight > 0),
  input_usd_per_mtok double precision NOT NULL DEFAULT 0 CHECK (input_usd_per_mtok >= 0),
  output_usd_per_mtok double precision NOT NULL DEFAULT 0 CHECK (output_usd_per_mtok >= 0),
  budget_usd_per_day double precision CHECK (budget_usd_per_day > 0),
  enabled boolean NOT NULL,
  retired boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text,
  CHECK (NOT (retired AND enabled))
);

-- Down Migration
DROP TABLE models;
