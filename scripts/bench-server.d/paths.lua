-- wrk script for scripts/bench-server: cycles through a file of request paths (one per line), each thread from its
-- own offset so that the 64 connections do not ask for the same point at the same moment, and ends with one line
-- that the bench script parses:
--   RESULT requests=N seconds=S rps=R p50_ms=X p99_ms=Y errors=E non2xx=M bytes_per_response=B
-- (B: the bytes read per response, headers included, as sent: compressed when compressed).
-- Usage: wrk -t 2 -c 64 -d 30s --latency [-H 'Accept-Encoding: gzip'] -s paths.lua http://127.0.0.1:8080 -- PATHS_FILE
-- (wrk.format adds the -H headers to every request).

local threads = {}
local thread_count = 0

function setup(thread)
   thread:set("thread_number", thread_count)
   thread_count = thread_count + 1
   table.insert(threads, thread)
end

function init(args)
   -- Requests formatted once here: request() then only picks the next one (no string work per request).
   requests = {}
   for path in io.lines(args[1]) do
      requests[#requests + 1] = wrk.format("GET", path)
   end
   if #requests == 0 then
      error("no paths in " .. tostring(args[1]))
   end
   next_request = (thread_number * 7919) % #requests  -- a prime stride apart: threads start at different points
end

function request()
   next_request = next_request % #requests + 1
   return requests[next_request]
end

function done(summary, latency, _)
   local errors = summary.errors
   local seconds = summary.duration / 1e6
   io.write(string.format("RESULT requests=%d seconds=%.3f rps=%.1f p50_ms=%.3f p99_ms=%.3f errors=%d non2xx=%d bytes_per_response=%.0f\n",
      summary.requests, seconds, summary.requests / seconds,
      latency:percentile(50) / 1000, latency:percentile(99) / 1000,
      errors.connect + errors.read + errors.write + errors.timeout, errors.status,
      summary.bytes / math.max(summary.requests, 1)))
end
