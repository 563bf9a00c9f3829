-- wrk script for the health route: the same summary line as payments.lua.
function done(summary, latency, requests)
  io.write(string.format('WRKJSON {"requests":%d,"seconds":%.3f,"errors":%d,"non201":0,"p50_us":%d,"p99_us":%d,"mean_us":%.1f}\n',
    summary.requests, summary.duration / 1e6,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout + summary.errors.status,
    latency:percentile(50), latency:percentile(99), latency.mean))
end
