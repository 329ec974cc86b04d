#!/usr/bin/env python3
"""An independent, deliberately plain reference of supercluster's hierarchical greedy clustering.

It writes, for a few zooms, every entry of the level (clusters and single points) so that Cairn's ClusterIndex
can be compared with it whole. Nothing here is shared with Cairn's Swift code: neighbours are found by brute force
over the whole level, in ascending level order.

Algorithm (Mapbox supercluster, index.js `_cluster`, with Cairn's documented antimeridian extension):
  * project: x = lon/360 + 0.5, y = 0.5 - 0.25 * ln((1 + sin(lat)) / (1 - sin(lat))) / pi, clamped to [0, 1];
    with --precision float32 (the default, as supercluster: `fround` on input) both are rounded to 32-bit floats;
    then x == 1 is stored as 0 (the same meridian as -180);
  * the level above maxZoom is the input points in input order, each with weight 1;
  * for zoom = maxZoom .. minZoom, r = radius / (extent * 2^zoom); visit the level above in order; an entry not
    yet visited is marked and gathers every unvisited entry within r. "Within r": with float32, the
    other entry's position rounded to a 32-bit float (supercluster keeps each level's positions in a Float32Array
    KDBush and queries it from the entry's 64-bit position), dx wrapped across x = 0/1, dx^2 + dy^2 <= r^2;
    if the total weight reaches minPoints (and exceeds the origin's own), they become one cluster
    at the weighted centroid (x of each member taken on the origin's side of the antimeridian, the result wrapped
    into [0, 1)) placed in the origin's position in the next level; otherwise the origin and then the gathered
    entries pass through unchanged: the origin, then the gathered entries in supercluster's neighbour order. That
    order is the walk of the level's k-d tree (KDBush, 64 items per leaf): the tree is sorted in place, each range
    of more than 64 items split at its middle index by Floyd-Rivest selection on x, then y, alternating; the walk
    takes a range's middle item, then its right half, then its left half, a leaf range in index order.

Identical coordinates are not grouped here (Cairn groups them; the Helsinki file has none).

Usage:
  scripts/reference/supercluster_reference.py Data/osm-helsinki-poi.csv --zooms 8,16 [--min-points 5] [--precision float64]
Each golden file under Tests/Golden names on its second line the exact command that produced it; rerun that one to
regenerate it.
Output lines: `zoom count x y member member ...` with members the sorted 0-based input rows (data rows, header
excluded) and x, y printed with repr (shortest round-trip form).
"""
import argparse
import csv
import math
import struct
import sys


def float32(v):
    """v rounded to the nearest 32-bit float (ties to even), as JavaScript's Math.fround."""
    return struct.unpack("f", struct.pack("f", v))[0]


def identity(v):
    return v


def project(lon, lat, held):
    x = held(lon / 360.0 + 0.5)
    if x >= 1.0:
        x = 0.0
    s = math.sin(lat * math.pi / 180.0)
    y = 0.5 - 0.25 * math.log((1 + s) / (1 - s)) / math.pi
    return x, held(min(1.0, max(0.0, y)))


LEAF = 64


def kd_walk_ranks(xs, ys):
    """Rank of each item (by index) in the walk of a KDBush-style k-d tree built over (xs, ys)."""
    n = len(xs)
    ids = list(range(n))
    pts = [[xs[i], ys[i]] for i in range(n)]

    def swap(i, j):
        ids[i], ids[j] = ids[j], ids[i]
        pts[i], pts[j] = pts[j], pts[i]

    def select(k, lo, hi, axis):
        while hi > lo:
            if hi - lo > 600:
                size = hi - lo + 1
                at = k - lo + 1
                z = math.log(size)
                s = 0.5 * math.exp(2 * z / 3)
                sd = 0.5 * math.sqrt(z * s * (size - s) / size) * (-1 if at - size / 2 < 0 else 1)
                select(k, max(lo, math.floor(k - at * s / size + sd)), min(hi, math.floor(k + (size - at) * s / size + sd)), axis)
            pivot = pts[k][axis]
            i, j = lo, hi
            swap(lo, k)
            if pts[hi][axis] > pivot:
                swap(lo, hi)
            while i < j:
                swap(i, j)
                i += 1
                j -= 1
                while pts[i][axis] < pivot:
                    i += 1
                while pts[j][axis] > pivot:
                    j -= 1
            if pts[lo][axis] == pivot:
                swap(lo, j)
            else:
                j += 1
                swap(j, hi)
            if j <= k:
                lo = j + 1
            if k <= j:
                hi = j - 1

    def build(lo, hi, axis):
        if hi - lo <= LEAF:
            return
        mid = (lo + hi) // 2
        select(mid, lo, hi, axis)
        build(lo, mid - 1, 1 - axis)
        build(mid + 1, hi, 1 - axis)

    if n:
        build(0, n - 1, 0)
    rank = [0] * n
    order = 0
    stack = [(0, n - 1)] if n else []
    while stack:
        lo, hi = stack.pop()
        if hi - lo <= LEAF:
            for i in range(lo, hi + 1):
                rank[ids[i]] = order
                order += 1
            continue
        mid = (lo + hi) // 2
        rank[ids[mid]] = order
        order += 1
        stack.append((lo, mid - 1))
        stack.append((mid + 1, hi))
    return rank


def cluster_level(level, zoom, radius, extent, min_points, held):
    """level: list of entries dict(x, y, w, members). Returns the next (lower zoom) level."""
    r = radius / (extent * 2.0 ** zoom)
    rank = kd_walk_ranks([held(e["x"]) for e in level], [held(e["y"]) for e in level]) if min_points >= 3 else None
    visited = [False] * len(level)
    out = []
    for i, e in enumerate(level):
        if visited[i]:
            continue
        visited[i] = True
        neighbours = []
        for j, f in enumerate(level):
            if visited[j]:
                continue
            dx = abs(e["x"] - held(f["x"]))
            if dx > 0.5:
                dx = 1.0 - dx
            dy = e["y"] - held(f["y"])
            if dx * dx + dy * dy <= r * r:
                neighbours.append(j)
        total = e["w"] + sum(level[j]["w"] for j in neighbours)
        for j in neighbours:
            visited[j] = True
        if total > e["w"] and total >= min_points:
            wx = e["x"] * e["w"]
            wy = e["y"] * e["w"]
            members = list(e["members"])
            for j in neighbours:
                f = level[j]
                fx = f["x"]
                if fx - e["x"] > 0.5:
                    fx -= 1.0
                elif fx - e["x"] < -0.5:
                    fx += 1.0
                wx += fx * f["w"]
                wy += f["y"] * f["w"]
                members.extend(f["members"])
            cx = wx / total
            if cx < 0:
                cx += 1.0
            elif cx >= 1:
                cx -= 1.0
            out.append({"x": cx, "y": wy / total, "w": total, "members": members})
        else:
            out.append(e)
            if rank is not None:
                neighbours.sort(key=lambda j: rank[j])
            out.extend(level[j] for j in neighbours)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv", help="CSV with lon and lat columns")
    ap.add_argument("--zooms", default="3,8,13,16")
    ap.add_argument("--radius", type=float, default=40.0)
    ap.add_argument("--extent", type=float, default=512.0)
    ap.add_argument("--min-zoom", type=int, default=0)
    ap.add_argument("--max-zoom", type=int, default=16)
    ap.add_argument("--min-points", type=int, default=2)
    ap.add_argument("--precision", choices=["float32", "float64"], default="float32")
    args = ap.parse_args()
    held = float32 if args.precision == "float32" else identity
    zooms = sorted({int(z) for z in args.zooms.split(",")}, reverse=True)

    with open(args.csv, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    level = []
    for i, row in enumerate(rows):
        x, y = project(float(row["lon"]), float(row["lat"]), held)
        level.append({"x": x, "y": y, "w": 1, "members": [i]})

    print(f"# supercluster reference: radius {args.radius} extent {args.extent} zooms {args.min_zoom}-{args.max_zoom} "
          f"minPoints {args.min_points} precision {args.precision}; {len(rows)} points from {args.csv.split('/')[-1]}")
    print("# produced by: scripts/reference/supercluster_reference.py " + " ".join(sys.argv[1:]))
    print("# zoom count x y members...")
    lowest = max(args.min_zoom, min(zooms))
    out = {}
    for zoom in range(args.max_zoom, lowest - 1, -1):
        level = cluster_level(level, zoom, args.radius, args.extent, args.min_points, held)
        if zoom in zooms:
            out[zoom] = level
    for zoom in zooms:
        for e in out[zoom]:
            members = " ".join(str(m) for m in sorted(e["members"]))
            print(f"{zoom} {e['w']} {e['x']!r} {e['y']!r} {members}")


if __name__ == "__main__":
    sys.exit(main())
