-- stats --json "stages[].actions": per stage and action, the traces in which the stage took it
-- (an action no trace took has no row; stats prints it as 0).
SELECT stage, action, COUNT(DISTINCT trace) AS traces
FROM stages
GROUP BY stage, action
ORDER BY stage, action;
