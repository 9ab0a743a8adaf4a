-- stats --against --json "error_changes": traces per error kind in each period, and new − old.
WITH per AS (
  SELECT period, error_kind, COUNT(*) AS traces
  FROM traces
  WHERE error_kind IS NOT NULL
  GROUP BY period, error_kind
),
o AS (SELECT * FROM per WHERE period = 'old'),
n AS (SELECT * FROM per WHERE period = 'new')
SELECT COALESCE(o.error_kind, n.error_kind) AS kind,
       COALESCE(o.traces, 0) AS old,
       COALESCE(n.traces, 0) AS new,
       COALESCE(n.traces, 0) - COALESCE(o.traces, 0) AS change
FROM o
FULL OUTER JOIN n ON n.error_kind = o.error_kind
ORDER BY kind;
