import CairnIO
import FuzzSupport

// libFuzzer's target: each input is read as JSON lines (`cairn import` of a .jsonl); the invariants are in `ReaderHarness`.
FuzzDriver.main { ReaderHarness.run($0, $1, format: .jsonLines) }
