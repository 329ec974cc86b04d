# Makes helsinki-parks.expected.tsv: id, latitude, longitude of each park's representative point, computed
# independently of Cairn: the area-weighted centroid of the largest outer ring, as the sum of the centroids of the
# triangles fanned from the ring's vertex mean, weighted by their signed areas. Run: python3 make-parks-expected.py
import json

def ring_centroid(ring):
    pts = ring[:-1]
    mx = sum(p[0] for p in pts) / len(pts)
    my = sum(p[1] for p in pts) / len(pts)
    area = cx = cy = 0.0
    for (ax, ay), (bx, by) in zip(ring, ring[1:]):
        ax, ay, bx, by = ax - mx, ay - my, bx - mx, by - my
        t = (ax * by - bx * ay) / 2  # signed area of the triangle (mean, a, b)
        area += t
        cx += t * (ax + bx) / 3
        cy += t * (ay + by) / 3
    return abs(area), mx + cx / area, my + cy / area

with open("helsinki-parks.geojson") as f:
    data = json.load(f)
with open("helsinki-parks.expected.tsv", "w") as out:
    for feature in data["features"]:
        g = feature["geometry"]
        polygons = g["coordinates"] if g["type"] == "MultiPolygon" else [g["coordinates"]]
        area, lon, lat = max(ring_centroid(p[0]) for p in polygons)
        out.write(f"{feature['properties']['id']}\t{lat!r}\t{lon!r}\n")
