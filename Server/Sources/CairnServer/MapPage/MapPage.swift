/// The map page at `GET /`: Leaflet (served from Debian's `libjs-leaflet`, see `MapAssets`) drawing `/clusters` for the
/// view, opening a cluster on click at its expansion zoom, listing the viewfinder's `/features` as the user pans, and
/// a radius tool that calls `/places/around_location`. Lines and polygons (parks, trails) are drawn from the `shapes`
/// layer of `/tiles/{z}/{x}/{y}.mvt`, decoded by the page's own small MVT reader and filled and outlined on a canvas
/// per tile (Leaflet reads no vector tiles itself). With no network there is no base map: a graticule every 15°
/// and, when the server was given one, the outlines of `/basemap.geojson`.
///
/// For tests and scripts the page exposes what it drew: `window.cairn` (`clusters`, `request`, `around`, `errors`)
/// and, once a view's answers are drawn, `body[data-cairn-drawn]` with the same clusters as JSON (and
/// `body[data-cairn-around]` after a radius search, and `body[data-cairn-shapes]` once the view's shape tiles are
/// drawn: the shapes drawn by id and name, and with `?probe=LAT,LON` the canvas colour there), so a headless
/// browser's `--dump-dom` can be compared with `/clusters` for the same box and zoom (`scripts/browser-test`).
/// `?lat=&lon=&zoom=` set the first view and `?around=LAT,LON&rad=1km` runs the radius tool once, as a click would.
enum MapPage {
    /// The page, one self-contained HTML document (its script and style inline).
    static let html = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Cairn map</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/leaflet/leaflet.css">
<style>
html, body { margin: 0; height: 100%; font: 14px system-ui, sans-serif; }
#map { position: absolute; top: 0; bottom: 0; left: 0; right: 320px; background: #f3f1ec; }
#panel { position: absolute; top: 0; bottom: 0; right: 0; width: 320px; overflow: auto; box-sizing: border-box;
         padding: 8px 12px; border-left: 1px solid #ccc; background: #fff; }
#panel h1 { font-size: 18px; margin: 4px 0 8px; }
#panel h2 { font-size: 14px; margin: 14px 0 4px; }
#panel ol { margin: 0; padding-left: 22px; }
.cairn-cluster { background: rgba(37, 99, 185, 0.85); color: #fff; border: 2px solid #fff; border-radius: 50%;
                 box-sizing: border-box; text-align: center; font-weight: 600; box-shadow: 0 0 3px #0006; }
#missing { padding: 2em; font-size: 16px; }
#status { color: #555; min-height: 1.2em; }
</style>
</head>
<body>
<div id="map"></div>
<div id="panel">
  <h1>Cairn</h1>
  <p><button id="radius-tool">Radius tool</button> radius <input id="radius" value="1km" size="7"></p>
  <div id="status"></div>
  <h2>Around the chosen point</h2><ol id="around"></ol>
  <h2>In view</h2><div id="view-count"></div><ol id="view"></ol>
</div>
<script src="/leaflet/leaflet.js"></script>
<script>
(function () {
  "use strict";
  const cairn = { clusters: [], request: null, around: [], errors: [] };
  window.cairn = cairn;
  const $ = (id) => document.getElementById(id);
  const text = (value) => String(value).replace(/[&<>"']/g, (c) => "&#" + c.charCodeAt(0) + ";");
  const status = (message) => { $("status").textContent = message; };
  if (typeof L === "undefined") {
    $("map").innerHTML = '<div id="missing">The server has no Leaflet to give this page: install Debian\'s ' +
      "<code>libjs-leaflet</code> (<code>apt install libjs-leaflet</code>) and restart <code>cairn serve</code>.</div>";
    document.body.dataset.cairnDrawn = "[]";
    return;
  }
  const query = new URLSearchParams(location.search);
  const map = L.map("map", { minZoom: 0, maxZoom: 18 })
    .setView([Number(query.get("lat") || 20), Number(query.get("lon") || 0)], Number(query.get("zoom") || 2));
  cairn.map = map;

  const graticule = [];
  for (let lon = -180; lon <= 180; lon += 15) graticule.push([[-85, lon], [85, lon]]);
  for (let lat = -75; lat <= 75; lat += 15) graticule.push([[lat, -180], [lat, 180]]);
  L.polyline(graticule, { color: "#c8c4ba", weight: 1, interactive: false }).addTo(map);
  fetch("/basemap.geojson").then((r) => (r.ok ? r.json() : null)).then((outline) => {
    if (outline) L.geoJSON(outline, { style: { color: "#8a8577", weight: 1, fill: false }, interactive: false }).addTo(map);
  }).catch(() => {});

  const drawn = L.layerGroup().addTo(map);
  const chosen = L.layerGroup().addTo(map);

  // The shapes layer of /tiles (parks, trails): each tile's `shapes` layer, decoded below, filled and outlined on a
  // canvas per tile. The server clips a shape to the tile plus a buffer; the canvas cuts it at the tile's edge, so
  // the clip's own edges, in the buffer, are never stroked and a polygon across tiles draws as one.
  function decodeShapes(buffer) {
    const bytes = new Uint8Array(buffer), utf8 = new TextDecoder();
    let pos = 0;
    const varint = () => {
      let value = 0, scale = 1, byte;
      do { byte = bytes[pos++]; value += (byte & 0x7f) * scale; scale *= 128; } while (byte & 0x80);
      return value;
    };
    const skip = (wire) => {
      if (wire === 0) varint(); else if (wire === 1) pos += 8; else if (wire === 5) pos += 4;
      else if (wire === 2) { const length = varint(); pos += length; } else throw new Error("tile: wire type " + wire);
    };
    // Reads fields up to `end`, handing each (field, wire) to `read`, which returns false for a field it skips.
    const fields = (end, read) => {
      while (pos < end) { const key = varint(); if (!read(Math.floor(key / 8), key & 7)) skip(key & 7); }
    };
    const string = () => { const length = varint(); pos += length; return utf8.decode(bytes.subarray(pos - length, pos)); };
    const packed = (list) => { const end = varint() + pos; while (pos < end) list.push(varint()); };
    const value = (end) => {
      let v = null;
      fields(end, (field) => {
        const view = new DataView(bytes.buffer, bytes.byteOffset + pos);
        if (field === 1) v = string();
        else if (field === 2) { v = view.getFloat32(0, true); pos += 4; }
        else if (field === 3) { v = view.getFloat64(0, true); pos += 8; }
        else if (field === 4 || field === 5) v = varint();
        else if (field === 6) { const z = varint(); v = z % 2 ? -(z + 1) / 2 : z / 2; }
        else if (field === 7) v = varint() !== 0;
        else return false;
        return true;
      });
      return v;
    };
    let found = null;
    fields(bytes.length, (field, wire) => {
      if (field !== 3 || wire !== 2) return false;
      const end = varint() + pos;
      const layer = { name: "", extent: 4096, keys: [], values: [], features: [] };
      fields(end, (f) => {
        if (f === 1) layer.name = string();
        else if (f === 3) layer.keys.push(string());
        else if (f === 4) { const e = varint() + pos; layer.values.push(value(e)); }
        else if (f === 5) layer.extent = varint();
        else if (f === 2) {
          const feature = { id: null, type: 0, tags: [], geometry: [] }, e = varint() + pos;
          fields(e, (g) => {
            if (g === 1) feature.id = varint();
            else if (g === 2) packed(feature.tags);
            else if (g === 3) feature.type = varint();
            else if (g === 4) packed(feature.geometry);
            else return false;
            return true;
          });
          layer.features.push(feature);
        } else return false;
        return true;
      });
      if (layer.name === "shapes") found = layer;
      pos = end;
      return true;
    });
    return found;
  }

  // A feature's geometry commands as parts (rings, lines or points), in tile units.
  function parts(geometry) {
    const out = [];
    let x = 0, y = 0, part = null;
    for (let i = 0; i < geometry.length;) {
      const command = geometry[i] & 7, count = geometry[i] >>> 3;
      i += 1;
      if (command === 7) continue; // ClosePath: the canvas closes the ring
      for (let k = 0; k < count; k += 1, i += 2) {
        x += (geometry[i] >>> 1) ^ -(geometry[i] & 1);
        y += (geometry[i + 1] >>> 1) ^ -(geometry[i + 1] & 1);
        if (command === 1) { part = [[x, y]]; out.push(part); } else part.push([x, y]);
      }
    }
    return out;
  }

  cairn.shapes = {};
  const shapeCanvases = {};
  function drawShapes(canvas, layer) {
    const context = canvas.getContext("2d"), scale = canvas.width / layer.extent;
    for (const feature of layer.features) {
      const properties = {};
      for (let t = 0; t + 1 < feature.tags.length; t += 2) properties[layer.keys[feature.tags[t]]] = layer.values[feature.tags[t + 1]];
      const id = properties.id !== undefined ? String(properties.id) : String(feature.id);
      cairn.shapes[id] = properties.name || id;
      context.beginPath();
      for (const part of parts(feature.geometry)) {
        part.forEach(([x, y], n) => {
          if (feature.type === 1) { context.moveTo(x * scale + 3, y * scale); context.arc(x * scale, y * scale, 3, 0, 2 * Math.PI); }
          else if (n === 0) context.moveTo(x * scale, y * scale); else context.lineTo(x * scale, y * scale);
        });
        if (feature.type === 3) context.closePath();
      }
      if (feature.type !== 2) { context.fillStyle = "rgba(46, 125, 50, 0.35)"; context.fill("evenodd"); }
      context.strokeStyle = feature.type === 2 ? "#8d5524" : "#2e7d32";
      context.lineWidth = feature.type === 2 ? 2 : 1.5;
      context.stroke();
    }
  }
  const ShapesLayer = L.GridLayer.extend({
    createTile(coords, done) {
      const canvas = document.createElement("canvas"), size = this.getTileSize(), n = Math.pow(2, coords.z);
      canvas.width = size.x;
      canvas.height = size.y;
      shapeCanvases[coords.z + "/" + coords.x + "/" + coords.y] = canvas;
      if (coords.y < 0 || coords.y >= n) { setTimeout(() => done(null, canvas), 0); return canvas; }
      const x = ((coords.x % n) + n) % n; // world copies share the tiles
      fetch("/tiles/" + coords.z + "/" + x + "/" + coords.y + ".mvt")
        .then((response) => (response.status === 200 ? response.arrayBuffer() : null))
        .then((buffer) => { const layer = buffer && decodeShapes(buffer); if (layer) drawShapes(canvas, layer); done(null, canvas); })
        .catch((error) => { cairn.errors.push(String(error)); done(error, canvas); });
      return canvas;
    },
  });
  // `?probe=LAT,LON`: once the view's shape tiles are drawn, the colour of the shapes' canvas at that point, for tests.
  const probe = query.get("probe") && query.get("probe").split(",").map(Number);
  new ShapesLayer().on("load", () => {
    const report = { shapes: cairn.shapes };
    if (probe) {
      const zoom = map.getZoom(), point = map.project(L.latLng(probe[0], probe[1]), zoom).floor();
      const canvas = shapeCanvases[zoom + "/" + Math.floor(point.x / 256) + "/" + Math.floor(point.y / 256)];
      report.probe = { lat: probe[0], lon: probe[1],
                       rgba: canvas ? Array.from(canvas.getContext("2d").getImageData(point.x % 256, point.y % 256, 1, 1).data) : null };
    }
    document.body.dataset.cairnShapes = JSON.stringify(report);
  }).addTo(map);

  // The view as the server's box: latitudes within Web Mercator's, longitudes as Leaflet gives them (unwrapped past
  // ±180 when world copies show; the server reads such a box across the antimeridian), the whole world when wider.
  function viewBox() {
    const bounds = map.getBounds();
    let west = bounds.getWest(), east = bounds.getEast();
    if (east - west >= 360) { west = -180; east = 180; }
    const south = Math.max(-85, bounds.getSouth()), north = Math.min(85, bounds.getNorth());
    return [west, south, east, north].map((v) => Number(v.toFixed(6))).join(",");
  }

  async function answer(url) {
    const response = await fetch(url);
    const body = await response.json();
    if (!response.ok) throw new Error(url + ": " + (body.error || response.status));
    return { body, response };
  }

  function drawClusters(collection) {
    drawn.clearLayers();
    cairn.clusters = [];
    for (const feature of collection.features) {
      const [lon, lat] = feature.geometry.coordinates;
      const p = feature.properties || {};
      if (p.cluster) {
        const size = Math.round(20 + 4 * Math.min(5, Math.log10(p.point_count)));
        const icon = L.divIcon({ className: "cairn-cluster", iconSize: [size, size],
          html: '<span data-cluster-id="' + p.cluster_id + '" data-count="' + p.point_count + '" style="line-height:' +
                (size - 4) + 'px">' + text(p.point_count_abbreviated) + "</span>" });
        L.marker([lat, lon], { icon, title: p.point_count + " features" })
          .on("click", () => openCluster(p.cluster_id, p.expansion_zoom, lat, lon)).addTo(drawn);
        cairn.clusters.push({ id: p.cluster_id, cluster: true, count: p.point_count, lat, lon });
      } else {
        L.circleMarker([lat, lon], { radius: 6, className: "cairn-point", color: "#b3261e", weight: 2, fillOpacity: 0.6 })
          .bindPopup(text(p.name || feature.id)).addTo(drawn);
        cairn.clusters.push({ id: feature.id, cluster: false, count: 1, lat, lon });
      }
    }
  }

  function openCluster(id, zoom, lat, lon) {
    if (typeof zoom === "number") { map.setView([lat, lon], zoom); return; }
    answer("/clusters/" + id + "/expansion_zoom")
      .then(({ body }) => map.setView([lat, lon], body.expansion_zoom))
      .catch((error) => { cairn.errors.push(String(error)); status(String(error)); });
  }

  function list(id, features, describe) {
    $(id).innerHTML = features.map((f) => "<li>" + describe(f) + "</li>").join("");
  }

  let generation = 0;
  function refresh() {
    const bbox = viewBox(), zoom = Math.floor(map.getZoom()), mine = ++generation;
    cairn.request = { bbox, zoom };
    delete document.body.dataset.cairnDrawn;
    Promise.all([
      answer("/clusters?bbox=" + bbox + "&zoom=" + zoom).then(({ body }) => { if (mine === generation) drawClusters(body); }),
      answer("/features?bbox=" + bbox + "&limit=50").then(({ body, response }) => {
        if (mine !== generation) return;
        const total = response.headers.get("Cairn-Result-Count") || body.features.length;
        $("view-count").textContent = total + " features in view" + (total > 50 ? " (the first 50)" : "");
        list("view", body.features, (f) => text((f.properties && f.properties.name) || f.id));
      }),
    ]).catch((error) => { cairn.errors.push(String(error)); status(String(error)); })
      .finally(() => {
        if (mine === generation) document.body.dataset.cairnDrawn = JSON.stringify({ request: cairn.request, clusters: cairn.clusters });
      });
  }
  map.on("moveend", refresh);
  refresh();

  // The radius tool: the next click on the map asks /places/around_location there.
  const units = { m: 1, km: 1000, mi: 1609.344, ft: 0.3048, "": 1 };
  let picking = false;
  $("radius-tool").addEventListener("click", () => { picking = true; status("Click the map to search around that point."); });
  map.on("click", (event) => {
    if (!picking) return;
    picking = false;
    searchAround(event.latlng);
  });
  function searchAround(latlng) {
    const lat = latlng.lat, lon = L.Util.wrapNum(latlng.lng, [-180, 180], true);
    const radius = $("radius").value.trim();
    const parts = /^([0-9.]+)\s*(m|km|mi|ft|)$/.exec(radius);
    answer("/places/around_location?lat=" + lat.toFixed(6) + "&long=" + lon.toFixed(6) + "&rad=" +
           encodeURIComponent(radius) + "&limit=100")
      .then(({ body }) => {
        chosen.clearLayers();
        if (parts) L.circle(latlng, { radius: Number(parts[1]) * units[parts[2]], color: "#1b7f3b" }).addTo(chosen);
        cairn.around = body.features.map((f) => ({ id: f.id, distance_m: f.properties.distance_m }));
        status(body.features.length + " within " + radius);
        list("around", body.features, (f) => text((f.properties.name || f.id)) + " — " + Math.round(f.properties.distance_m) + " m");
        document.body.dataset.cairnAround = JSON.stringify({ lat: Number(lat.toFixed(6)), lon: Number(lon.toFixed(6)), radius, around: cairn.around });
      })
      .catch((error) => { cairn.errors.push(String(error)); status(String(error)); });
  }
  // `?around=LAT,LON[&rad=1km]` runs the radius tool there once, as a click would (for links and tests).
  if (query.get("around")) {
    const [lat, lon] = query.get("around").split(",").map(Number);
    if (query.get("rad")) $("radius").value = query.get("rad");
    searchAround(L.latLng(lat, lon));
  }
})();
</script>
</body>
</html>
"""#
}
