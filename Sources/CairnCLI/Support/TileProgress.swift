import CairnIO

/// A tile export's progress on standard error: per zoom, tiles done of the zoom's total and the rate, redrawn at
/// most ten times a second, on a terminal only (elsewhere the command's summary line is all).
final class TileProgress {
    private let enabled: Bool
    private let clock = ContinuousClock()
    private let started: ContinuousClock.Instant
    private var lastDrawn: ContinuousClock.Instant
    private var zoom: Int?

    /// A report drawn when `enabled` (standard error is a terminal).
    init(enabled: Bool) {
        self.enabled = enabled
        started = clock.now
        lastDrawn = started
    }

    /// Redraws after a tenth of a second, and always when a zoom is done (its line then stays).
    func update(_ progress: TileExportProgress) {
        guard enabled else { return }
        let now = clock.now
        if let zoom, zoom != progress.zoom { Terminal.printError("") }
        zoom = progress.zoom
        let zoomDone = progress.tilesDoneInZoom == progress.tilesInZoom
        guard zoomDone || now - lastDrawn >= .milliseconds(100) else { return }
        lastDrawn = now
        let elapsed = now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let rate = seconds > 0 ? Int(Double(progress.tilesWritten) / seconds) : 0
        Terminal.writeError("\rzoom \(progress.zoom): \(Terminal.grouped(progress.tilesDoneInZoom)) / \(Terminal.grouped(progress.tilesInZoom)) tiles  \(Terminal.grouped(rate)) tiles/s  ")
    }

    /// Ends the last line.
    func finish() {
        guard enabled, zoom != nil else { return }
        zoom = nil
        Terminal.printError("")
    }
}
