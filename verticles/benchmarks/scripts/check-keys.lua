-- wrk script: POST /v1/check over 100 000 keys per thread in turn, so nearly every answer is a 200
-- that writes the key's new state (the read-decide-write path).
--   wrk -t2 -c64 -d30s --latency -s verticles/benchmarks/scripts/check-keys.lua http://127.0.0.1:9800/v1/check
local threads = 0

function setup(thread)
  threads = threads + 1
  thread:set("id", threads)
end

local n = 0

function request()
  n = n + 1
  if n >= 100000 then
    n = 0
  end
  return wrk.format("POST", nil, {["Content-Type"] = "application/json"},
    '{"policy":"per-key-5-per-10s","key":"t' .. id .. '-' .. n .. '"}')
end
