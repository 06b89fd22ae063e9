-- Up Migration

-- An account: a Firebase user who signed up through Duet. Profile fields are refreshed from the
-- Firebase ID token at every login.
CREATE TABLE users (
  id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  firebase_uid   text NOT NULL UNIQUE,
  email          text,
  display_name   text,
  picture        text,
  email_verified boolean NOT NULL DEFAULT false,
  provider       text NOT NULL DEFAULT 'firebase',
  -- The campaign tag the signup came with.
  signup_event   text,
  created_at     timestamptz NOT NULL DEFAULT now(),
  last_login_at  timestamptz
);

-- The signup gift (the sister services' writing months and drawing tokens). The primary key
-- makes it once per account, whatever races the signup calls run.
CREATE TABLE signup_benefits (
  user_id        uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  writing_months integer NOT NULL CHECK (writing_months >= 0),
  drawing_tokens integer NOT NULL CHECK (drawing_tokens >= 0),
  event          text NOT NULL,
  granted_at     timestamptz NOT NULL DEFAULT now()
);

-- Secrets the gateways generate once and share (the session-token key when SESSION_SECRET is unset).
CREATE TABLE app_secrets (
  name       text PRIMARY KEY,
  value      bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Who asked and who voted, when signed in; anonymous use leaves them null. Deleting an account
-- keeps its battles and votes (they are part of everyone's win rates), anonymously.
ALTER TABLE battles ADD COLUMN user_id uuid REFERENCES users (id) ON DELETE SET NULL;
CREATE INDEX battles_user_created_idx ON battles (user_id, created_at DESC) WHERE user_id IS NOT NULL;
ALTER TABLE votes ADD COLUMN user_id uuid REFERENCES users (id) ON DELETE SET NULL;
CREATE INDEX votes_user_created_idx ON votes (user_id, created_at DESC) WHERE user_id IS NOT NULL;

-- Down Migration
DROP INDEX votes_user_created_idx;
ALTER TABLE votes DROP COLUMN user_id;
DROP INDEX battles_user_created_idx;
ALTER TABLE battles DROP COLUMN user_id;
DROP TABLE app_secrets;
DROP TABLE signup_benefits;
DROP TABLE users;
