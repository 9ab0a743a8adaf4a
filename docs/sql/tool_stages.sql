-- stats --json "tools[].dropped_by", "added_by", "reinstated_by": per tool, event and stage, the
-- traces in which that stage's record lists the tool there.
SELECT e.tool AS name, e.event, s.stage, COUNT(DISTINCT e.trace) AS traces
FROM tool_events e
JOIN stages s ON s.trace = e.trace AND s.stage_index = e.stage_index
WHERE e.event IN ('dropped', 'added', 'reinstated')
GROUP BY e.tool, e.event, s.stage
ORDER BY name, e.event, s.stage;
