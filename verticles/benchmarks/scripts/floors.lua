-- wrk script for floors.sh: one request per key in turn over 10,000 keys (k0..k9999), GET
-- PATH?key=kN, or with BODY=1 a POST /v1/check {"policy":"tb","key":"kN"}. PATH comes from the
-- environment (default /v1/check/tb).
local keys = 10000
local n = 0
local path = os.getenv("FLOOR_PATH") or "/v1/check/tb"
local post = os.getenv("FLOOR_POST") == "1"

function request()
  n = n + 1
  if n >= keys then
    n = 0
  end
  if post then
    return wrk.format("POST", "/v1/check", {["Content-Type"] = "application/json"},
      '{"policy":"tb","key":"k' .. n .. '"}')
  end
  return wrk.format("GET", path .. "?key=k" .. n)
end
