-- stats --against --json "only_old" and "only_new": the tools seen in one period only, with that
-- period's seen, final, forced and rate, most seen first.
WITH final_names AS (
  SELECT DISTINCT period, trace, UNNEST(names) AS tool
  FROM traces
  WHERE error_kind IS NULL
),
seen AS (
  SELECT period, trace, tool FROM tool_events
  UNION DISTINCT
  SELECT period, trace, tool FROM final_names
  UNION DISTINCT
  SELECT DISTINCT period, trace, UNNEST(error_names) AS tool FROM traces WHERE error_kind IS NOT NULL
  UNION DISTINCT
  SELECT period, trace, forced_choice AS tool FROM traces WHERE forced_choice IS NOT NULL
),
counts AS (
  SELECT s.period, s.tool, COUNT(*) AS seen, COUNT(f.tool) AS final, COUNT(t.trace) AS forced
  FROM seen s
  LEFT JOIN final_names f ON f.period = s.period AND f.trace = s.trace AND f.tool = s.tool
  LEFT JOIN traces t ON t.period = s.period AND t.trace = s.trace AND t.forced_choice = s.tool
  GROUP BY s.period, s.tool
)
SELECT period, tool AS name, seen, final, forced, CAST(final AS DOUBLE) / seen AS rate
FROM counts c
WHERE NOT EXISTS (SELECT 1 FROM counts o WHERE o.tool = c.tool AND o.period <> c.period)
ORDER BY period, seen DESC, name;
