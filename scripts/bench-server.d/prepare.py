#!/usr/bin/env python3
"""Data for scripts/bench-server: the places for each peer and one seeded list of query points for all of them.

Usage: prepare.py PLACES.csv.gz OUT_DIR [--seed 17] [--queries 10000]

Writes into OUT_DIR:
  places.resp            GEOADD commands in RESP, for `redis-cli --pipe` (member = geonameid)
  places.tsv             geonameid <TAB> EWKT point, for PostgreSQL's COPY into a geography column
  queries.csv            n,lat,lon (n from 1): places picked at random, each moved up to 1 km in a random direction
  paths-around.txt       /places/around_location?lat=..&long=..&rad=1km, one per query point
  paths-features.txt     /features?bbox=W,S,E,N, a square box of about 100 places around each query point
  paths-clusters-z5.txt  /clusters?bbox=..&zoom=5, the 1024x768-pixel viewport centred on each point
  paths-clusters-z12.txt the same at zoom 12
  paths-tiles-z{2,8,12}.txt /tiles/z/x/y.mvt, the Web Mercator tile that holds each point at zoom 2, 8 and 12
  stats.txt              how many places the feature boxes hold (p10, p50, p90), for the report

Only the standard library: the script runs on a bare Debian python3.
"""
import csv
import gzip
import heapq
import math
import random
import sys

EARTH_KM_PER_DEGREE = 111.195  # one degree of arc on the mean-radius sphere (6,371.0088 km): enough to size boxes
MERCATOR_MAX_LATITUDE = 85.05112878  # Web Mercator's square world; also the limit of Redis's GEOADD
CELL_DEGREES = 0.25  # grid cell for the neighbour search: a few dozen places per cell where places are dense
BOX_PLACES = 100  # the viewfinder's target number of hits (the "about 100")
VIEWPORT_PIXELS = (1024, 768)  # width, height of the cluster viewport
TILE_PIXELS = 256  # Web Mercator tile size: the world is 256 * 2^zoom pixels wide


def read_places(path):
    """Returns [(id, lat, lon)] from the GeoNames CSV (header: geonameid,name,latitude,longitude,...)."""
    with gzip.open(path, "rt", encoding="utf-8", newline="") as handle:
        return [(row["geonameid"], float(row["latitude"]), float(row["longitude"])) for row in csv.DictReader(handle)]


def resp(*words):
    """One command in the Redis protocol (RESP): an array of bulk strings."""
    out = [f"*{len(words)}\r\n"]
    for word in words:
        data = str(word)
        out.append(f"${len(data.encode())}\r\n{data}\r\n")
    return "".join(out)


def offset(lat, lon, north_km, east_km):
    """A point moved by small distances on the local tangent plane (equirectangular; good to metres at 1 km)."""
    lat2 = lat + north_km / EARTH_KM_PER_DEGREE
    lon2 = lon + east_km / (EARTH_KM_PER_DEGREE * max(math.cos(math.radians(lat)), 1e-6))
    lat2 = max(-MERCATOR_MAX_LATITUDE, min(MERCATOR_MAX_LATITUDE, lat2))
    return lat2, (lon2 + 180.0) % 360.0 - 180.0


def wrap(lon):
    return (lon + 180.0) % 360.0 - 180.0


class Grid:
    """Places bucketed in CELL_DEGREES cells: k nearest and box counts without scanning all 234,908."""

    def __init__(self, places):
        self.columns = round(360 / CELL_DEGREES)
        self.cells = {}
        for _, lat, lon in places:
            self.cells.setdefault(self.key(lat, lon), []).append((lat, lon))

    def key(self, lat, lon):
        return (math.floor((lat + 90) / CELL_DEGREES), math.floor((lon + 180) / CELL_DEGREES) % self.columns)

    def kth_nearest_km(self, lat, lon, k):
        """Distance to the k-th nearest place (equirectangular km), by rings of cells around the point's cell."""
        row, column = self.key(lat, lon)
        best = []  # max-heap of the k smallest distances (negated)
        coslat = math.cos(math.radians(lat))
        for ring in range(0, self.columns // 2):  # beyond half the columns the ring would wrap onto itself
            for r in range(row - ring, row + ring + 1):
                step = 1 if abs(r - row) == ring else 2 * ring  # the ring's border only
                for c in range(column - ring, column + ring + 1, max(step, 1)):
                    for plat, plon in self.cells.get((r, c % self.columns), ()):
                        dlon = abs(plon - lon)
                        dlon = min(dlon, 360 - dlon)
                        d = math.hypot(plat - lat, dlon * coslat) * EARTH_KM_PER_DEGREE
                        if len(best) < k:
                            heapq.heappush(best, -d)
                        elif d < -best[0]:
                            heapq.heapreplace(best, -d)
            # Everything in ring + 1 and beyond lies at least `ring` cells away along one axis.
            reach_km = ring * CELL_DEGREES * EARTH_KM_PER_DEGREE * coslat
            if len(best) == k and -best[0] <= reach_km:
                break
        return -best[0] if best else float("inf")

    def count_in_box(self, west, south, east, north):
        """Places inside the box (west > east crosses the antimeridian)."""
        def inside_lon(lon):
            return west <= lon <= east if west <= east else (lon >= west or lon <= east)
        first_row, last_row = self.key(south, 0)[0], self.key(north, 0)[0]
        first_column = self.key(0, west)[1]
        last_column = self.key(0, east)[1]
        if last_column < first_column:
            last_column += self.columns
        total = 0
        for r in range(first_row, last_row + 1):
            for c in range(first_column, last_column + 1):
                for plat, plon in self.cells.get((r, c % self.columns), ()):
                    if south <= plat <= north and inside_lon(plon):
                        total += 1
        return total


def feature_box(grid, lat, lon):
    """A square box (in km) with the same area as the circle that holds the BOX_PLACES nearest places.

    The circle of radius d (the 100th neighbour's distance) holds 100 places; the square of equal area has half-side
    d * sqrt(pi) / 2, so it holds about 100 where density is even around the point.
    """
    half_km = grid.kth_nearest_km(lat, lon, BOX_PLACES) * math.sqrt(math.pi) / 2
    half_lat = half_km / EARTH_KM_PER_DEGREE
    half_lon = min(half_km / (EARTH_KM_PER_DEGREE * max(math.cos(math.radians(lat)), 1e-6)), 179.0)
    south, north = max(lat - half_lat, -90.0), min(lat + half_lat, 90.0)
    return wrap(lon - half_lon), south, wrap(lon + half_lon), north


def mercator_viewport(lat, lon, zoom):
    """The W,S,E,N of a 1024x768-pixel Web Mercator viewport centred on the point at this zoom (256-pixel tiles)."""
    world = TILE_PIXELS * 2 ** zoom
    x = (lon + 180.0) / 360.0 * world
    sin = math.sin(math.radians(max(-MERCATOR_MAX_LATITUDE, min(MERCATOR_MAX_LATITUDE, lat))))
    y = (0.5 - math.log((1 + sin) / (1 - sin)) / (4 * math.pi)) * world
    half_width, half_height = VIEWPORT_PIXELS[0] / 2, VIEWPORT_PIXELS[1] / 2

    def latitude(pixel_y):
        pixel_y = max(0.0, min(world, pixel_y))  # the map ends at the top and bottom
        return math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * pixel_y / world))))

    west = wrap((x - half_width) / world * 360.0 - 180.0)
    east = wrap((x + half_width) / world * 360.0 - 180.0)
    return west, latitude(y + half_height), east, latitude(y - half_height)


def tile_path(lat, lon, zoom):
    """The /tiles path of the Web Mercator tile (x to the east, y to the south) that holds the point at this zoom."""
    tiles = 2 ** zoom
    x = min(tiles - 1, int((lon + 180) / 360 * tiles))
    sin_lat = math.sin(math.radians(max(-MERCATOR_MAX_LATITUDE, min(MERCATOR_MAX_LATITUDE, lat))))
    y = min(tiles - 1, max(0, int((0.5 - math.log((1 + sin_lat) / (1 - sin_lat)) / (4 * math.pi)) * tiles)))
    return f"/tiles/{zoom}/{x}/{y}.mvt"


def box_text(box):
    return ",".join(f"{value:.6f}" for value in box)


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main():
    args = sys.argv[1:]
    seed, count = 17, 10_000
    if "--seed" in args:
        seed = int(args.pop(args.index("--seed") + 1)); args.remove("--seed")
    if "--queries" in args:
        count = int(args.pop(args.index("--queries") + 1)); args.remove("--queries")
    source, out = args
    places = read_places(source)

    with open(f"{out}/places.resp", "w", newline="") as handle:
        # 1,000 members per GEOADD: few round trips, small replies. Redis refuses latitudes beyond Mercator's.
        usable = [p for p in places if abs(p[1]) <= MERCATOR_MAX_LATITUDE]
        for start in range(0, len(usable), 1000):
            words = ["GEOADD", "places"]
            for identifier, lat, lon in usable[start:start + 1000]:
                words += [repr(lon), repr(lat), identifier]
            handle.write(resp(*words))
    with open(f"{out}/places.tsv", "w") as handle:
        for identifier, lat, lon in places:
            handle.write(f"{identifier}\tSRID=4326;POINT({lon!r} {lat!r})\n")

    rng = random.Random(seed)
    queries = []
    for _ in range(count):
        _, lat, lon = places[rng.randrange(len(places))]
        distance_km = math.sqrt(rng.random())  # uniform over the 1 km disc
        bearing = rng.random() * 2 * math.pi
        queries.append(offset(lat, lon, distance_km * math.cos(bearing), distance_km * math.sin(bearing)))

    grid = Grid(places)
    hits = []
    with open(f"{out}/queries.csv", "w") as q, open(f"{out}/paths-around.txt", "w") as around, \
            open(f"{out}/paths-features.txt", "w") as features, \
            open(f"{out}/paths-clusters-z5.txt", "w") as z5, open(f"{out}/paths-clusters-z12.txt", "w") as z12:
        for n, (lat, lon) in enumerate(queries, start=1):
            q.write(f"{n},{lat:.6f},{lon:.6f}\n")
            around.write(f"/places/around_location?lat={lat:.6f}&long={lon:.6f}&rad=1km\n")
            box = feature_box(grid, lat, lon)
            hits.append(grid.count_in_box(*box))
            features.write(f"/features?bbox={box_text(box)}\n")
            z5.write(f"/clusters?bbox={box_text(mercator_viewport(lat, lon, 5))}&zoom=5\n")
            z12.write(f"/clusters?bbox={box_text(mercator_viewport(lat, lon, 12))}&zoom=12\n")
    for zoom in (2, 8, 12):
        with open(f"{out}/paths-tiles-z{zoom}.txt", "w") as handle:
            handle.writelines(tile_path(lat, lon, zoom) + "\n" for lat, lon in queries)
    with open(f"{out}/stats.txt", "w") as handle:
        handle.write(f"places {len(places)} redis_places {len(usable)} queries {count} seed {seed}\n")
        handle.write(f"feature_box_hits p10 {percentile(hits, 0.1)} p50 {percentile(hits, 0.5)} "
                     f"p90 {percentile(hits, 0.9)} mean {sum(hits) / len(hits):.1f}\n")


if __name__ == "__main__":
    main()
