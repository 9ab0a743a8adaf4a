-- stats --json "tools[].missing": per tool, the traces in which it was seen but is not final,
-- keyed by the error's kind when a failed turn's pipeline left it (the model was never called),
-- else by the last stage that dropped it, or '?' when no record drops it.
WITH final_names AS (
  SELECT DISTINCT trace, UNNEST(names) AS tool
  FROM traces
  WHERE error_kind IS NULL
),
left_names AS (
  SELECT DISTINCT t.trace, UNNEST(t.error_names) AS tool, t.error_kind
  FROM traces t
  WHERE t.error_kind IS NOT NULL
),
seen AS (
  SELECT trace, tool FROM tool_events
  UNION DISTINCT
  SELECT trace, tool FROM final_names
  UNION DISTINCT
  SELECT trace, tool FROM left_names
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
SELECT s.tool AS name, COALESCE(l.error_kind, d.stage, '?') AS stage, COUNT(*) AS traces
FROM seen s
LEFT JOIN final_names f ON f.trace = s.trace AND f.tool = s.tool
LEFT JOIN left_names l ON l.trace = s.trace AND l.tool = s.tool
LEFT JOIN last_drop d ON d.trace = s.trace AND d.tool = s.tool
WHERE f.tool IS NULL
GROUP BY s.tool, COALESCE(l.error_kind, d.stage, '?')
ORDER BY name, stage;
