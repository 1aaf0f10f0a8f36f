-- A different search on every request (a number inside release names), so neither the response
-- cache nor the per-project search memo can answer: each request scans all 10,000 releases.
local n = 0
request = function()
  n = n + 1
  return wrk.format("GET", "/v1/releases?search=" .. (n * 7 % 9973 + 1))
end
