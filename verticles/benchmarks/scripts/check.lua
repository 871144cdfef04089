-- wrk script: POST /v1/check, always the same key (after its first 5 requests every answer is a
-- 429: the read-decide path, no write).
--   wrk -t2 -c64 -d30s --latency -s verticles/benchmarks/scripts/check.lua http://127.0.0.1:9800/v1/check
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"policy":"per-key-5-per-10s","key":"bench"}'
