#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpus (one folder per target) from the repository's Data/ files.

Run from anywhere: python3 Fuzz/Corpus/make-seeds.py. Each seed is a few rows of real data, a few KiB at most,
plus the shapes the readers must handle (bad rows, quoting, blank lines, CRLF); libFuzzer mutates from these.
"""
import csv, gzip, io, json, os

here = os.path.dirname(os.path.abspath(__file__))
data = os.path.join(here, "..", "..", "Data")


def write(target, name, text):
    os.makedirs(os.path.join(here, target), exist_ok=True)
    with open(os.path.join(here, target, name), "w", encoding="utf-8", newline="") as f:
        f.write(text)


def head(path, lines):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8", newline="") as f:
        return "".join(next(f) for _ in range(lines))


poi = list(csv.DictReader(io.StringIO(head(os.path.join(data, "osm-helsinki-poi.csv"), 13))))
with open(os.path.join(data, "osm-helsinki-parks.geojson"), encoding="utf-8") as f:
    parks = json.load(f)["features"]
small_parks = [p for p in parks if len(json.dumps(p)) < 600][:3]

# CSV: heads of the three CSV files, the bad-rows example, and a CRLF variant.
write("csv", "helsinki-poi.csv", head(os.path.join(data, "osm-helsinki-poi.csv"), 12))
write("csv", "airports.csv", head(os.path.join(data, "airports.csv.gz"), 10))
write("csv", "geonames.csv", head(os.path.join(data, "geonames-cities500.csv.gz"), 10))
with open(os.path.join(data, "examples", "bad-rows.csv"), "rb") as source, open(os.path.join(here, "csv", "bad-rows.csv"), "wb") as f:
    f.write(source.read())  # byte for byte: it holds a Latin-1 row
write("csv", "crlf-kinds.csv", "id,kind,name,lat,lon,radius,startTime,endTime\r\n"
      "e1,event,\"Match, final\",60.17,24.94,100m,2026-06-01T10:00:00Z,2026-06-01T12:00:00Z\r\n"
      "k1,park,Esplanadi,60.1675,24.9474,,,\r\n"
      "\r\n"
      "u1,user,\"Say \"\"hi\"\"\",60.2,24.9,,,\r\n")

# GeoJSON: small parks, points from the POI file, pretty-printed and on one line.
points = [{"type": "Feature", "id": r["osm_id"],
           "geometry": {"type": "Point", "coordinates": [float(r["lon"]), float(r["lat"])]},
           "properties": {"name": r["name"], r["key"]: r["value"], "timestamp": r["timestamp"]}} for r in poi[:6]]
write("geojson", "parks.geojson", json.dumps({"type": "FeatureCollection", "features": small_parks}, ensure_ascii=False))
write("geojson", "points-pretty.geojson", json.dumps({"type": "FeatureCollection", "features": points}, indent=2, ensure_ascii=False) + "\n")

# GeoJSON text sequences: RS before each record, one record per line.
write("geojsonseq", "parks.geojsonseq", "".join("\x1e" + json.dumps(p, ensure_ascii=False) + "\n" for p in small_parks))
write("geojsonseq", "points.geojsonseq", "".join("\x1e" + json.dumps(p, ensure_ascii=False) + "\n" for p in points))

# JSON lines: GeoJSON Features and flat records with aliased field names, a blank line between.
flat = [{"id": r["osm_id"], "lat": float(r["lat"]), "lng": float(r["lon"]), "name": r["name"], "radius": "150m"} for r in poi[6:12]]
write("jsonl", "points.jsonl", "".join(json.dumps(p, ensure_ascii=False) + "\n" for p in points[:3]) + "\n"
      + "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in flat))

# Check-ins, against the harness's reference (place p at 60.17, 24.94, radius 100 m; event e at p on 2026-06-01):
# valid, outside the radius, before the start, unknown event and place, a duplicate, bad values, a stray quote.
rows = [("c1", "u1", "e", "", 60.17, 24.94, "2026-06-01T10:00:00Z"),
        ("c2", "u2", "", "p", 60.1701, 24.9401, "2026-06-01T11:00:00Z"),
        ("c3", "u1", "e", "", 60.20, 24.94, "2026-06-01T10:00:00Z"),
        ("c4", "u3", "e", "", 60.17, 24.94, "2026-05-31T10:00:00Z"),
        ("c5", "u4", "x", "", 60.17, 24.94, "2026-06-01T10:00:00Z"),
        ("c6", "u1", "e", "", 60.17, 24.94, "2026-06-01T10:05:00Z"),
        ("c7", "u5", "", "q", 95.0, 24.94, "not a time")]
header = "id,userId,eventId,placeId,latitude,longitude,time\n"
write("checkins-csv", "checkins.csv", header + "".join(",".join(map(str, r)) + "\n" for r in rows)
      + "c8,u6,e,,\"60.17\",24.94,\"2026-06-01T10:00:00Z\n" + "\n" + "c9,\"u,7\",e,,60.17,24.94,2026-06-01T10:00:00Z\r\n")
keys = ["id", "userId", "eventId", "placeId", "lat", "lon", "time"]
write("checkins-jsonl", "checkins.jsonl", "".join(json.dumps({k: v for k, v in zip(keys, r) if v != ""}) + "\n" for r in rows)
      + "{\"id\":\"c8\",\"userId\":\"u6\",\"placeId\":\"p\",\"lat\":\"60.17\",\"lon\":24.94,\"time\":\"2026-06-01T10:00:00Z\"}\n"
      + "  \n{\"id\":\"c9\",\"userId\":\"u\\u0000\",\"eventId\":\"e\",\"lat\":60.17,\"lon\":24.94,\"time\":\"2026-06-01T10:00:00Z\"}\r\n")
