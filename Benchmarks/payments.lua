-- wrk script: every request is a new payment with its own Idempotency-Key (so each one is a
-- durable commit, never a stored replay). The key is thread number + counter + a per-run nonce.
local counter = 0
local thread_id = 0
local nonce = tostring(os.time())
local threads = {}

function setup(thread)
  thread:set("thread_id", #threads + 1)
  table.insert(threads, thread)
end

function request()
  counter = counter + 1
  local headers = {
    ["Content-Type"] = "application/json",
    ["Idempotency-Key"] = "bench-" .. nonce .. "-" .. thread_id .. "-" .. counter,
  }
  local body = '{"account":"alice","productId":"com.example.storefront.gems.100","quantity":1}'
  return wrk.format("POST", "/v1/payments", headers, body)
end

function response(status, headers, body)
  if status ~= 201 then
    bad = (bad or 0) + 1
  end
end

function done(summary, latency, requests)
  local bad_total = 0
  for _, thread in ipairs(threads) do bad_total = bad_total + (thread:get("bad") or 0) end
  io.write(string.format('WRKJSON {"requests":%d,"seconds":%.3f,"errors":%d,"non201":%d,"p50_us":%d,"p99_us":%d,"mean_us":%.1f}\n',
    summary.requests, summary.duration / 1e6,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout + summary.errors.status,
    bad_total, latency:percentile(50), latency:percentile(99), latency.mean))
end
