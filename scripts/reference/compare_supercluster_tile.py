#!/usr/bin/env python3
"""Compares one map tile of `cairn cluster --no-wrap` with a tile that supercluster itself produced.

supercluster's repository ships test fixtures: test/fixtures/places.json (Natural Earth places) and the tiles its
tests expect, places-z0-0-0.json (`new Supercluster().load(places.features).getTile(0, 0, 0)`) and
places-z0-0-0-min5.json (the same with `{minPoints: 5}`). They are supercluster's files, so Cairn does not ship them:
fetch them, then run for example

  scripts/reference/compare_supercluster_tile.py .build/release/cairn places.json places-z0-0-0.json
  scripts/reference/compare_supercluster_tile.py .build/release/cairn places.json places-z0-0-0-min5.json --min-points 5

Every feature's tile position and point count must agree, as a multiset (cluster ids are numbered differently:
supercluster numbers a cluster by its place in that zoom's data, Cairn by its origin point). Exit 0 when they agree,
1 with the differences otherwise.
"""
import argparse
import collections
import json
import subprocess
import sys


def signature(features):
    return collections.Counter(
        (f["geometry"][0][0], f["geometry"][0][1], f["tags"].get("point_count", 1)) for f in features)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("cairn", help="the cairn binary")
    ap.add_argument("places", help="supercluster's test/fixtures/places.json")
    ap.add_argument("expected", help="the tile supercluster produced (places-z0-0-0.json, ...)")
    ap.add_argument("--tile", default="0/0/0")
    ap.add_argument("--min-points", default="2")
    args = ap.parse_args()
    run = subprocess.run([args.cairn, "cluster", "--input", args.places, "--tile", args.tile, "--no-wrap",
                          "--min-points", args.min_points], capture_output=True, text=True, check=True)
    actual = signature(json.loads(run.stdout)["features"])
    with open(args.expected, encoding="utf-8") as f:
        expected = signature(json.load(f)["features"])
    if actual == expected:
        print(f"{sum(expected.values())} features agree")
        return 0
    print("missing (x, y, count):", sorted((expected - actual).elements()))
    print("extra (x, y, count):", sorted((actual - expected).elements()))
    return 1


if __name__ == "__main__":
    sys.exit(main())
