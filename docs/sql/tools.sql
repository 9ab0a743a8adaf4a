-- stats --json "tools": per tool, the traces in which it is seen (named by any record, in the
-- final tools or as the forced choice), final (the final tools; on a failed turn what the
-- pipeline left, error_names) and forced (the trace's forced choice).
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
