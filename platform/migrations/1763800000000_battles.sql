-- Up Migration

-- One question put to two models.
CREATE TABLE battles (
  id              uuid PRIMARY KEY,
  tool            text NOT NULL,
  lang            text NOT NULL CHECK (lang IN ('ko', 'en')),
  text            text NOT NULL,
  inputs          jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- Which model is side a and which is side b, drawn at random per battle.
  model_a         text NOT NULL,
  label_a         text NOT NULL,
  family_a        text NOT NULL,
  model_b         text NOT NULL,
  label_b         text NOT NULL,
  family_b        text NOT NULL,
  mode            text NOT NULL CHECK (mode IN ('blind', 'named')),
  -- SHA-256 of the vote token; the token itself is only ever in the creator's hands.
  vote_token_hash bytea NOT NULL,
  status          text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'finished')),
  has_image       boolean NOT NULL DEFAULT false,
  created_at      timestamptz NOT NULL DEFAULT now(),
  finished_at     timestamptz,
  CHECK (model_a <> model_b)
);
CREATE INDEX battles_tool_created_idx ON battles (tool, created_at DESC, id DESC);

CREATE TABLE battle_images (
  battle_id uuid PRIMARY KEY REFERENCES battles (id) ON DELETE CASCADE,
  mime_type text NOT NULL,
  bytes     integer NOT NULL,
  data      bytea NOT NULL
);

-- A side's answer, written once when that side ends (done, error or cancelled).
CREATE TABLE answers (
  battle_id     uuid NOT NULL REFERENCES battles (id) ON DELETE CASCADE,
  side          text NOT NULL CHECK (side IN ('a', 'b')),
  model         text NOT NULL,
  text          text NOT NULL,
  finish_reason text NOT NULL CHECK (finish_reason IN ('stop', 'length', 'content_filter', 'cancelled', 'error')),
  input_tokens  integer,
  output_tokens integer,
  ttft_ms       integer,
  duration_ms   integer NOT NULL,
  error_code    text,
  error_message text,
  created_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (battle_id, side)
);

-- At most one vote per battle (the primary key enforces it).
CREATE TABLE votes (
  battle_id  uuid PRIMARY KEY REFERENCES battles (id) ON DELETE CASCADE,
  tool       text NOT NULL,
  winner     text NOT NULL CHECK (winner IN ('a', 'b', 'tie', 'both_bad')),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX votes_tool_created_idx ON votes (tool, created_at DESC, battle_id DESC);

-- Running totals per tool per model, bumped in the vote's transaction: win rates are one read.
CREATE TABLE model_stats (
  tool       text NOT NULL,
  model      text NOT NULL,
  label      text NOT NULL,
  family     text NOT NULL,
  battles    integer NOT NULL DEFAULT 0,
  wins       integer NOT NULL DEFAULT 0,
  losses     integer NOT NULL DEFAULT 0,
  ties       integer NOT NULL DEFAULT 0,
  both_bad   integer NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tool, model)
);

-- Down Migration
DROP TABLE model_stats;
DROP TABLE votes;
DROP TABLE answers;
DROP TABLE battle_images;
DROP TABLE battles;
