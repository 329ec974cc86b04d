#!/usr/bin/env python3
"""Exactness of Redis's 1 km searches against Cairn's, for scripts/bench-server.

  exactness.py redis QUERIES.csv PORT COUNT          one line per query point: "n id id ..." from Redis's GEOSEARCH
  exactness.py http QUERIES.csv BASE_URL COUNT       the same from `cairn serve`'s /places/around_location (CSV)
  exactness.py compare REDIS.txt CAIRN.txt           prints the differences as key=value words

Redis measures on a sphere (radius 6,372,797.560856 m, its haversine); Cairn on the WGS84 ellipsoid (Karney's
geodesic), so a member near the 1 km edge may be in one answer and not in the other.
Only the standard library, like prepare.py.
"""
import csv
import http.client
import io
import socket
import sys
import urllib.parse

from prepare import resp  # the same RESP encoder that writes the GEOADD file


def read_queries(path, count):
    with open(path) as handle:
        rows = [(int(n), lat, lon) for n, lat, lon in csv.reader(handle)]
    return rows[:int(count)]


class Replies:
    """Reads RESP replies (arrays of bulk strings, errors) from a socket's buffered file."""

    def __init__(self, stream):
        self.stream = stream

    def read(self):
        line = self.stream.readline().rstrip(b"\r\n")
        kind, rest = line[:1], line[1:]
        if kind == b"*":
            return [self.read() for _ in range(int(rest))]
        if kind == b"$":
            length = int(rest)
            if length < 0:
                return None
            data = self.stream.read(length + 2)[:-2]
            return data.decode()
        if kind == b"-":
            raise RuntimeError(f"redis error: {rest.decode()}")
        return rest.decode()  # + and :


def redis_sets(queries_path, port, count):
    queries = read_queries(queries_path, count)
    with socket.create_connection(("127.0.0.1", int(port))) as connection:
        replies = Replies(connection.makefile("rb"))
        # 500 commands per round trip: pipelined, so 10,000 searches take well under a second.
        for start in range(0, len(queries), 500):
            chunk = queries[start:start + 500]
            connection.sendall("".join(resp("GEOSEARCH", "places", "FROMLONLAT", lon, lat, "BYRADIUS", 1, "km", "ASC")
                                     for _, lat, lon in chunk).encode())
            for n, _, _ in chunk:
                print(n, *sorted(replies.read()))


def http_sets(queries_path, base_url, count):
    queries = read_queries(queries_path, count)
    url = urllib.parse.urlsplit(base_url)
    connection = http.client.HTTPConnection(url.hostname, url.port)  # one kept-alive connection
    for n, lat, lon in queries:
        connection.request("GET", f"/places/around_location?lat={lat}&long={lon}&rad=1km&format=csv")
        response = connection.getresponse()
        body = response.read().decode()
        if response.status != 200:
            raise RuntimeError(f"query {n}: HTTP {response.status}: {body[:200]}")
        rows = list(csv.DictReader(io.StringIO(body)))
        print(n, *sorted(row["id"] for row in rows))


def read_sets(path):
    sets = {}
    with open(path) as handle:
        for line in handle:
            words = line.split()
            if words:
                sets[int(words[0])] = set(words[1:])
    return sets


def compare(redis_path, cairn_path):
    redis, cairn = read_sets(redis_path), read_sets(cairn_path)
    common = sorted(set(redis) & set(cairn))
    differing = only_redis = only_cairn = members = 0
    for n in common:
        a, b = redis[n], cairn[n]
        members += len(b)
        if a != b:
            differing += 1
            only_redis += len(a - b)
            only_cairn += len(b - a)
    print(f"points={len(common)} cairn_members={members} differing_points={differing} "
          f"only_in_redis={only_redis} only_in_cairn={only_cairn}")


def main():
    command, *args = sys.argv[1:]
    {"redis": redis_sets, "http": http_sets, "compare": compare}[command](*args)


if __name__ == "__main__":
    main()
