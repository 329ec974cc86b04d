import CairnIO
import FuzzSupport

// libFuzzer's target: each input is read as CSV (`cairn import` of a .csv); the invariants are in `ReaderHarness`.
FuzzDriver.main { ReaderHarness.run($0, $1, format: .csv) }
