import CairnIO
import FuzzSupport

// libFuzzer's target: each input is read as GeoJSON text sequence, RFC 8142 (`cairn import` of a .geojsonseq); the invariants are in `ReaderHarness`.
FuzzDriver.main { ReaderHarness.run($0, $1, format: .geojsonSeq) }
