-- stats --against --json "changes": per tool seen in both periods, each period's seen, final,
-- forced and rate (final / seen), the change in points, the key of `missing` whose rate moved
-- most (ties by name; null when none moved) with its rate in each period, and the pooled
-- two-proportion z-test with its two-sided p-value (erfc by the polynomial docs/formats.md names).
-- Over `traces`, `stages` and `tool_events` with a `period` column, 'old' or 'new' (README.md).
WITH final_names AS (
  SELECT DISTINCT period, trace, UNNEST(names) AS tool
  FROM traces
  WHERE error_kind IS NULL
),
left_names AS (
  SELECT DISTINCT period, trace, UNNEST(error_names) AS tool, error_kind
  FROM traces
  WHERE error_kind IS NOT NULL
),
seen AS (
  SELECT period, trace, tool FROM tool_events
  UNION DISTINCT
  SELECT period, trace, tool FROM final_names
  UNION DISTINCT
  SELECT period, trace, tool FROM left_names
  UNION DISTINCT
  SELECT period, trace, forced_choice AS tool FROM traces WHERE forced_choice IS NOT NULL
),
last_drop AS (
  SELECT period, trace, tool, stage
  FROM (
    SELECT e.period, e.trace, e.tool, s.stage,
           ROW_NUMBER() OVER (PARTITION BY e.period, e.trace, e.tool ORDER BY e.stage_index DESC) AS n
    FROM tool_events e
    JOIN stages s ON s.period = e.period AND s.trace = e.trace AND s.stage_index = e.stage_index
    WHERE e.event = 'dropped'
  ) AS drops
  WHERE n = 1
),
counts AS (
  SELECT s.period, s.tool, COUNT(*) AS seen, COUNT(f.tool) AS final, COUNT(t.trace) AS forced
  FROM seen s
  LEFT JOIN final_names f ON f.period = s.period AND f.trace = s.trace AND f.tool = s.tool
  LEFT JOIN traces t ON t.period = s.period AND t.trace = s.trace AND t.forced_choice = s.tool
  GROUP BY s.period, s.tool
),
missing AS (
  SELECT s.period, s.tool, COALESCE(l.error_kind, d.stage, '?') AS stage, COUNT(*) AS traces
  FROM seen s
  LEFT JOIN final_names f ON f.period = s.period AND f.trace = s.trace AND f.tool = s.tool
  LEFT JOIN left_names l ON l.period = s.period AND l.trace = s.trace AND l.tool = s.tool
  LEFT JOIN last_drop d ON d.period = s.period AND d.trace = s.trace AND d.tool = s.tool
  WHERE f.tool IS NULL
  GROUP BY s.period, s.tool, COALESCE(l.error_kind, d.stage, '?')
),
pairs AS (
  SELECT o.tool AS name,
         o.seen AS old_seen, o.final AS old_final, o.forced AS old_forced,
         CAST(o.final AS DOUBLE) / o.seen AS old_rate,
         n.seen AS new_seen, n.final AS new_final, n.forced AS new_forced,
         CAST(n.final AS DOUBLE) / n.seen AS new_rate
  FROM counts o
  JOIN counts n ON n.tool = o.tool AND n.period = 'new'
  WHERE o.period = 'old'
),
moves AS (
  SELECT p.name, k.stage,
         CAST(COALESCE(mo.traces, 0) AS DOUBLE) / p.old_seen AS old_rate,
         CAST(COALESCE(mn.traces, 0) AS DOUBLE) / p.new_seen AS new_rate
  FROM pairs p
  JOIN (SELECT DISTINCT tool, stage FROM missing) k ON k.tool = p.name
  LEFT JOIN missing mo ON mo.period = 'old' AND mo.tool = p.name AND mo.stage = k.stage
  LEFT JOIN missing mn ON mn.period = 'new' AND mn.tool = p.name AND mn.stage = k.stage
),
most AS (
  SELECT name, stage, old_rate, new_rate
  FROM (
    SELECT *, ROW_NUMBER() OVER (PARTITION BY name ORDER BY ABS(new_rate - old_rate) DESC, stage) AS n
    FROM moves
    WHERE new_rate <> old_rate
  ) AS ranked
  WHERE n = 1
),
pooled AS (
  SELECT *, CAST(old_final + new_final AS DOUBLE) / (old_seen + new_seen) AS rate
  FROM pairs
),
tested AS (
  SELECT *,
         rate * (1 - rate) * (1.0 / old_seen + 1.0 / new_seen) AS variance
  FROM pooled
),
z AS (
  SELECT *,
         CASE WHEN variance = 0 THEN 0 ELSE (new_rate - old_rate) / SQRT(variance) END AS z
  FROM tested
),
erfc AS (
  SELECT *, 1 / (1 + 0.5 * (ABS(z) / SQRT(2))) AS t, ABS(z) / SQRT(2) AS x
  FROM z
)
SELECT e.name,
       e.old_seen, e.old_final, e.old_forced, e.old_rate,
       e.new_seen, e.new_final, e.new_forced, e.new_rate,
       100 * (e.new_rate - e.old_rate) AS points,
       m.stage, m.old_rate AS stage_old_rate, m.new_rate AS stage_new_rate,
       e.z,
       CASE WHEN e.variance = 0 THEN 1 ELSE LEAST(1, e.t * EXP(-e.x * e.x + (-1.26551223 + e.t * (1.00002368
         + e.t * (0.37409196 + e.t * (0.09678418 + e.t * (-0.18628806 + e.t * (0.27886807
         + e.t * (-1.13520398 + e.t * (1.48851587 + e.t * (-0.82215223 + e.t * 0.17087277)))))))))))
       END AS p
FROM erfc e
LEFT JOIN most m ON m.name = e.name
ORDER BY ABS(points) DESC, p, e.name;
