import CairnCore

/// The batch's bytes, read by every worker of phase 1 (read-only while they run).
struct BatchPointer: @unchecked Sendable {
    let base: UnsafePointer<UInt8>
}
