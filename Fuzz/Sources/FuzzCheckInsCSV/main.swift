import CairnCheckIns
import FuzzSupport

// libFuzzer's target: each input is read as check-in CSV (`cairn checkins validate`); the invariants are in `CheckInHarness`.
FuzzDriver.main { CheckInHarness.run($0, $1, format: .csv) }
