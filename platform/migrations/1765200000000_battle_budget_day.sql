-- Up Migration

-- The budget day a battle's worst case was reserved in (its keys in Redis are that day's), so the
-- worker settles each side there and the sweeper finds what a battle left reserved. Null for
-- battles stored before budgets.
ALTER TABLE battles ADD COLUMN budget_day text;

-- Down Migration
ALTER TABLE battles DROP COLUMN budget_day;
