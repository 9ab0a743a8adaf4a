-- stats --json "traces": how many traces the set holds.
SELECT COUNT(*) AS traces
FROM traces;
