-- stats --json "tools": per tool, the traces in which it is seen (named by any record, in the
-- final tools, among what a failed turn's pipeline left, or as the forced choice), final (the
-- final tools; a failed turn has none, its model was never called) and forced (the trace's
-- forced choice).
WITH final_names AS (
  SELECT DISTINCT trace, UNNEST(names) AS tool
  FROM traces
  WHERE error_kind IS NULL
),
left_names AS (
  SELECT DISTINCT trace, UNNEST(error_names) AS tool
  FROM traces
  WHERE error_kind IS NOT NULL
),
seen AS (
  SELECT trace, tool FROM tool_events
  UNION DISTINCT
  SELECT trace, tool FROM final_names
  UNION DISTINCT
  SELECT trace, tool FROM left_names
  UNION DISTINCT
  SELECT trace, forced_choice AS tool FROM traces WHERE forced_choice IS NOT NULL
)
SELECT s.tool AS name,
       COUNT(*) AS seen,
       COUNT(f.tool) AS final,
       COUNT(t.trace) AS forced
FROM seen s
LEFT JOIN final_names f ON f.trace = s.trace AND f.tool = s.tool
LEFT JOIN traces t ON t.trace = s.trace AND t.forced_choice = s.tool
GROUP BY s.tool
ORDER BY name;
