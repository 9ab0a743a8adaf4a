-- stats --json "errors": traces by their logged error kind.
SELECT error_kind, COUNT(*) AS traces
FROM traces
WHERE error_kind IS NOT NULL
GROUP BY error_kind
ORDER BY error_kind;
