-- Up Migration

-- What each answer cost, from its model's prices and the provider's reported usage; estimated
-- from its characters when the provider reported none. Null for answers stored before prices.
ALTER TABLE answers
  ADD COLUMN cost_usd numeric(12, 6),
  ADD COLUMN cost_estimated boolean NOT NULL DEFAULT false;

-- The spend per model per hour (UTC) and per day (in BUDGET_TIME_ZONE), kept in the statement
-- that stores each answer: reading a period's spend is one row a model.
CREATE TABLE spend_ledger (
  period            text NOT NULL CHECK (period IN ('hour', 'day')),
  period_start      timestamptz NOT NULL,
  model             text NOT NULL,
  usd               numeric(14, 6) NOT NULL DEFAULT 0,
  answers           integer NOT NULL DEFAULT 0,
  estimated_answers integer NOT NULL DEFAULT 0,
  PRIMARY KEY (period, period_start, model)
);

-- Down Migration
DROP TABLE spend_ledger;
ALTER TABLE answers DROP COLUMN cost_estimated, DROP COLUMN cost_usd;
