-- Up Migration

-- Every operator action (the roster, budgets, quotas, moderation, takedowns and restores): who
-- (`token` for ADMIN_TOKEN, `firebase:<uid>`, `cli`), what (`model.update`, `battle.approve`, ...),
-- on what, and the state before and after. Read newest first, by id.
CREATE TABLE operator_audit (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  actor text NOT NULL,
  action text NOT NULL,
  target text,
  before jsonb,
  after jsonb
);
CREATE INDEX operator_audit_action_idx ON operator_audit (action, id);

-- Why an operator hid or approved a battle, shown in the console's moderation queue.
ALTER TABLE battles ADD COLUMN moderation_reason text;

-- Down Migration
ALTER TABLE battles DROP COLUMN moderation_reason;
DROP TABLE operator_audit;
