-- stats --against --json "stage_changes": per stage, the traces with a record of it, with each
-- action, and degraded, in each period (null where the period has no record of the stage), and
-- the change, new − old (a missing period counting 0).
WITH per AS (
  SELECT period, stage,
         COUNT(DISTINCT trace) AS records,
         COUNT(DISTINCT CASE WHEN action = 'select' THEN trace END) AS "select",
         COUNT(DISTINCT CASE WHEN action = 'abstain' THEN trace END) AS abstain,
         COUNT(DISTINCT CASE WHEN action = 'force' THEN trace END) AS force,
         COUNT(DISTINCT CASE WHEN action = 'error' THEN trace END) AS error,
         COUNT(DISTINCT CASE WHEN degraded THEN trace END) AS degraded
  FROM stages
  GROUP BY period, stage
),
o AS (SELECT * FROM per WHERE period = 'old'),
n AS (SELECT * FROM per WHERE period = 'new')
SELECT COALESCE(o.stage, n.stage) AS stage,
       o.records AS old_records, o."select" AS old_select, o.abstain AS old_abstain,
       o.force AS old_force, o.error AS old_error, o.degraded AS old_degraded,
       n.records AS new_records, n."select" AS new_select, n.abstain AS new_abstain,
       n.force AS new_force, n.error AS new_error, n.degraded AS new_degraded,
       COALESCE(n.records, 0) - COALESCE(o.records, 0) AS change_records,
       COALESCE(n."select", 0) - COALESCE(o."select", 0) AS change_select,
       COALESCE(n.abstain, 0) - COALESCE(o.abstain, 0) AS change_abstain,
       COALESCE(n.force, 0) - COALESCE(o.force, 0) AS change_force,
       COALESCE(n.error, 0) - COALESCE(o.error, 0) AS change_error,
       COALESCE(n.degraded, 0) - COALESCE(o.degraded, 0) AS change_degraded
FROM o
FULL OUTER JOIN n ON n.stage = o.stage
ORDER BY stage;
