-- stats --json "stages": per stage, the traces with a record of it and those in which it was
-- degraded, in order of first appearance (trace, then position in the trace).
WITH firsts AS (
  SELECT stage, ROW_NUMBER() OVER (ORDER BY trace, stage_index) AS position
  FROM stages
)
SELECT s.stage,
       COUNT(DISTINCT s.trace) AS records,
       COUNT(DISTINCT CASE WHEN s.degraded THEN s.trace END) AS degraded
FROM stages s
JOIN (SELECT stage, MIN(position) AS first FROM firsts GROUP BY stage) f ON f.stage = s.stage
GROUP BY s.stage, f.first
ORDER BY f.first;
