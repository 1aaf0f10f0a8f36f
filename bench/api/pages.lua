-- Cycles through every page of sort=name (page_size 20 over 10,000 releases: 500 pages), so no
-- two consecutive requests ask for the same OFFSET.
local page = 0
request = function()
  page = page % 500 + 1
  return wrk.format("GET", "/v1/releases?sort=name&page=" .. page)
end
