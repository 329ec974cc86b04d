import CairnIO
import FuzzSupport

// libFuzzer's target: each input is read as GeoJSON FeatureCollection (`cairn import` of a .geojson); the invariants are in `ReaderHarness`.
FuzzDriver.main { ReaderHarness.run($0, $1, format: .geojson) }
