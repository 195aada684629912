# Measures the browsing routes of the inspector on a running `mnemo serve` (loopback), as reported in
# docs/inspector.md: python3 bench-browse.py http://127.0.0.1:8080 "$MNEMO_ADMIN_KEY" 20000 50
# Writes N records over M owners into a new tenant "bench", then reports medians (ms).
import json, sys, time, statistics, urllib.request
base, admin, n_records, n_owners = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
def call(method, path, key, body=None):
    req = urllib.request.Request(base + path, method=method, data=None if body is None else json.dumps(body).encode(),
                                 headers={"Authorization": "Bearer " + key, "Content-Type": "application/json"})
    with urllib.request.urlopen(req) as r:
        return json.loads(r.read())
key = call("POST", "/v1/tenants/bench/keys", admin)["key"]
batch = []
for i in range(n_records):
    batch.append({"owner": "owner-%03d" % (i % n_owners), "text": "Record %d mentions topic %d and a few more words" % (i, i % 97)})
    if len(batch) == 256 or i == n_records - 1:
        call("POST", "/v1/memories", key, {"records": batch}); batch = []
def median_ms(path):
    for _ in range(3): call("GET", path, key)
    ts = []
    for _ in range(21):
        t0 = time.perf_counter(); call("GET", path, key); ts.append((time.perf_counter() - t0) * 1000)
    return statistics.median(ts)
def cold_owners_ms():
    ts = []
    for i in range(11):
        call("POST", "/v1/memories", key, {"owner": "zz-writer", "text": "one more %d" % i})
        t0 = time.perf_counter(); call("GET", "/v1/owners", key); ts.append((time.perf_counter() - t0) * 1000)
    return statistics.median(ts)
print("records=%d owners=%d" % (n_records, n_owners))
print("GET /v1/owners right after a write (a scan of the tenant): median %.1f ms" % cold_owners_ms())
print("GET /v1/owners again (no write since): median %.1f ms" % median_ms("/v1/owners"))
print("GET /v1/owners/owner-001/memories (%d records): median %.1f ms" % (n_records // n_owners, median_ms("/v1/owners/owner-001/memories")))
print("GET /v1/owners/owner-001/memories?q=topic%%205 : median %.1f ms" % median_ms("/v1/owners/owner-001/memories?q=topic%205"))
