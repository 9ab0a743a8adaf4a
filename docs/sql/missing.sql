-- stats --json "tools[].missing": per tool, the traces in which it was seen but is not final,
-- keyed by the last stage that dropped it, or '?' when no record drops it.
WITH final_names AS (
  SELECT DISTINCT trace, UNNEST(CASE WHEN error_kind IS NULL THEN names ELSE error_names END) AS tool
  FROM traces
),
seen AS (
  SELECT trace, tool FROM tool_events
  UNION DISTINCT
  SELECT trace, tool FROM final_names
  UNION DISTINCT
  SELECT trace, forced_choice AS tool FROM traces WHERE forced_choice IS NOT NULL
),
last_drop AS (
  SELECT trace, tool, stage
  FROM (
    SELECT e.trace, e.tool, s.stage,
           ROW_NUMBER() OVER (PARTITION BY e.trace, e.tool ORDER BY e.stage_index DESC) AS n
    FROM tool_events e
    JOIN stages s ON s.trace = e.trace AND s.stage_index = e.stage_index
    WHERE e.event = 'dropped'
  ) AS drops
  WHERE n = 1
)
SELECT s.tool AS name, COALESCE(d.stage, '?') AS stage, COUNT(*) AS traces
FROM seen s
LEFT JOIN final_names f ON f.trace = s.trace AND f.tool = s.tool
LEFT JOIN last_drop d ON d.trace = s.trace AND d.tool = s.tool
WHERE f.tool IS NULL
GROUP BY s.tool, COALESCE(d.stage, '?')
ORDER BY name, stage;
