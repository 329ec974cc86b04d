#!/usr/bin/env python3
"""Edits through one replica, seen on another: for scripts/replica-figures.

Usage: edits.py --writer PORT --reader PORT --token TOKEN --psql-url URL [--rate 100] [--seconds 60] [--ids 1000]

PUTs `rate` edits a second for `seconds` seconds to the writer replica (on schedule, from a pool of 256 threads, so a
slow answer does not delay the next edit): edit i moves the feature probe-(i mod ids) to a point of its own in the
Southern Ocean, where no place is. One thread polls the reader replica's /healthz every millisecond and notes when
each generation first shows up there, for the index (`generation`) and for the clusters and tiles
(`clusters_generation`, which follow a moment later). An edit's latency is from sending its PUT to the reader first
serving the generation the PUT's answer names (the write's own): in its index (`p99_ms`) and in its clusters
(`clusters_p99_ms`). `put_p99_ms` and the like are the PUTs' own answer times (a write's answer waits for the
writer's clusters).

At the end, once the reader serves the table's generation in both: every probe id is read back from the reader and
must have its last location (else lost), the reader's box around the probes must list each probe once (else
duplicated), so must its clusters at zoom 20 (every point on its own), and the reader's feature count must be the
table's. Prints one RESULT line and exits 1 on any loss.
Only the standard library.
"""
import argparse
import bisect
import concurrent.futures
import http.client
import json
import subprocess
import sys
import threading
import time

sys.setswitchinterval(0.0005)  # the poller and the senders take turns often: latency resolution about 1 ms


def probe_location(i, ids):
    """A point per edit: longitude by id, latitude by round, so that the last edit of each id is told apart."""
    return -150.0 + (i % ids) * 0.001, -60.0 + (i // ids) * 0.0001


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--writer", type=int, required=True)
    parser.add_argument("--reader", type=int, required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--psql-url", required=True)
    parser.add_argument("--rate", type=float, default=100)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--ids", type=int, default=1000)
    args = parser.parse_args()
    count = int(args.rate * args.seconds)

    # (generation, monotonic time first seen on the reader), ascending in both: of the index, of the clusters
    observations, cluster_observations = [], []
    stop = threading.Event()

    def poll():
        connection = http.client.HTTPConnection("127.0.0.1", args.reader, timeout=10)
        while not stop.is_set():
            connection.request("GET", "/healthz")
            answer = connection.getresponse()
            health = json.loads(answer.read())
            now = time.monotonic()
            for seen, generation in ((observations, health["generation"]), (cluster_observations, health["clusters_generation"])):
                if not seen or generation > seen[-1][0]:
                    seen.append((generation, now))
            time.sleep(0.001)

    local = threading.local()
    sent = [None] * count  # (time sent, status, generation named by the answer)
    answered = [None] * count  # milliseconds from sending a PUT to its answer

    def send(i):
        if not hasattr(local, "connection"):
            local.connection = http.client.HTTPConnection("127.0.0.1", args.writer, timeout=30)
        longitude, latitude = probe_location(i, args.ids)
        body = json.dumps({"type": "Feature", "geometry": {"type": "Point", "coordinates": [longitude, latitude]},
                           "properties": {"id": f"probe-{i % args.ids}", "kind": "place"}})
        start = time.monotonic()
        try:
            local.connection.request("PUT", f"/features/probe-{i % args.ids}", body=body,
                                     headers={"Authorization": f"Bearer {args.token}", "Content-Type": "application/geo+json"})
            answer = local.connection.getresponse()
            text = answer.read()
            generation = json.loads(text).get("generation") if answer.status == 200 else None
            sent[i] = (start, answer.status, generation)
            answered[i] = (time.monotonic() - start) * 1000
        except OSError as error:  # a timeout or a closed connection: counted as a failed edit, not fatal
            del local.connection
            sent[i] = (start, f"{type(error).__name__}", None)

    poller = threading.Thread(target=poll, daemon=True)
    poller.start()
    time.sleep(0.2)
    begin = time.monotonic()
    late = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=256) as pool:
        futures = []
        for i in range(count):
            target = begin + i / args.rate
            delay = target - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            elif delay < -0.005:
                late += 1
            futures.append(pool.submit(send, i))
        for future in futures:
            future.result()
    elapsed = time.monotonic() - begin

    table_generation = int(subprocess.check_output(["psql", "-X", "-qAt", args.psql_url, "-c", "SELECT generation FROM cairn_generation"]))
    deadline = time.monotonic() + 30
    while (not cluster_observations or cluster_observations[-1][0] < table_generation or observations[-1][0] < table_generation) \
            and time.monotonic() < deadline:
        time.sleep(0.01)
    stop.set()
    poller.join()

    failed = [i for i, (_, status, _) in enumerate(sent) if status != 200]
    # An edit whose PUT failed may still have been stored: the last location of an id is its last stored edit's.
    stored = [i for i in range(count) if sent[i][1] == 200]

    def latencies_ms(seen):
        """Each stored edit's latency until `seen` first holds its generation, and how many it never did."""
        generations = [g for g, _ in seen]
        found, missing = [], 0
        for start, status, generation in sent:
            if status != 200:
                continue
            at = bisect.bisect_left(generations, generation)
            if at == len(generations):
                missing += 1
            else:
                found.append((seen[at][1] - start) * 1000)
        return found, missing

    latencies, unseen = latencies_ms(observations)
    cluster_latencies, clusters_unseen = latencies_ms(cluster_observations)

    # Nothing lost: each probe's last location; nothing duplicated: the box around the probes lists each once.
    reader = http.client.HTTPConnection("127.0.0.1", args.reader, timeout=30)
    lost = 0
    last_stored = {}
    for i in stored:
        last_stored[i % args.ids] = i
    for k, last in sorted(last_stored.items()):
        reader.request("GET", f"/features/probe-{k}")
        answer = reader.getresponse()
        text = answer.read()
        if answer.status != 200 or json.loads(text)["geometry"]["coordinates"] != list(probe_location(last, args.ids)):
            lost += 1
    reader.request("GET", "/features?bbox=-151,-61,-148,-59&limit=10000")
    listed = [feature.get("id") or feature["properties"]["id"] for feature in json.loads(reader.getresponse().read())["features"]]
    duplicated = len(listed) - len(set(listed))
    reader.request("GET", "/clusters?bbox=-151,-61,-148,-59&zoom=20")
    clustered = [feature.get("id") for feature in json.loads(reader.getresponse().read())["features"]]
    clustered_probes = len(set(clustered)) if len(clustered) == len(set(clustered)) else -1  # -1: one listed twice
    reader.request("GET", "/healthz")
    health = json.loads(reader.getresponse().read())
    table_count = int(subprocess.check_output(["psql", "-X", "-qAt", args.psql_url, "-c", "SELECT count(*) FROM cairn_feature"]))

    def figures(values, prefix):
        if not values:
            return f"{prefix}p50_ms=- {prefix}p90_ms=- {prefix}p99_ms=- {prefix}max_ms=-"
        return (f"{prefix}p50_ms={percentile(values, 0.5):.1f} {prefix}p90_ms={percentile(values, 0.9):.1f} "
                f"{prefix}p99_ms={percentile(values, 0.99):.1f} {prefix}max_ms={max(values):.1f}")

    print(f"RESULT edits={count} seconds={elapsed:.1f} late_sends={late} failed_puts={len(failed)} unseen={unseen} "
          f"{figures(latencies, '')} clusters_unseen={clusters_unseen} {figures(cluster_latencies, 'clusters_')} "
          f"{figures([ms for ms in answered if ms is not None], 'put_')} "
          f"lost={lost} duplicated={duplicated} probes_listed={len(listed)} probes_clustered={clustered_probes} "
          f"reader_features={health['features']} table_features={table_count} "
          f"reader_generation={health['generation']} reader_clusters_generation={health['clusters_generation']} "
          f"table_generation={table_generation}")
    ok = not failed and not unseen and not clusters_unseen and lost == 0 and duplicated == 0 \
        and health["features"] == table_count and health["generation"] == table_generation \
        and health["clusters_generation"] == table_generation \
        and len(set(listed)) == min(args.ids, count) and clustered_probes == min(args.ids, count)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
