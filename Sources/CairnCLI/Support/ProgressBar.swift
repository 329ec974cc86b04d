/// A one-line progress bar on standard error, drawn only on a terminal and at most ten times a second.
final class ProgressBar {
    private let label: String
    private let enabled: Bool
    private let clock = ContinuousClock()
    private let started: ContinuousClock.Instant
    private var lastDrawn: ContinuousClock.Instant
    private var drawn = false

    /// Creates a bar for one task; `enabled` defaults to whether standard error is a terminal.
    init(label: String, enabled: Bool = Terminal.standardErrorIsTerminal) {
        self.label = label
        self.enabled = enabled
        started = clock.now
        lastDrawn = started
    }

    /// Redraws when a tenth of a second has passed. `done` and `total` are bytes; `rows` is shown with the rate.
    func update(done: Int64, total: Int64, rows: Int) {
        guard enabled else { return }
        let now = clock.now
        guard now - lastDrawn >= .milliseconds(100) else { return }
        lastDrawn = now
        draw(done: done, total: total, rows: rows, now: now)
    }

    /// Draws the final state and ends the line.
    func finish(rows: Int) {
        guard enabled, drawn else { return }
        draw(done: 1, total: 1, rows: rows, now: clock.now)
        Terminal.printError("")
    }

    private func draw(done: Int64, total: Int64, rows: Int, now: ContinuousClock.Instant) {
        drawn = true
        let fraction = total > 0 ? min(1, Double(done) / Double(total)) : 0
        let width = 30
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        let elapsed = now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let rate = seconds > 0 ? Int(Double(rows) / seconds) : 0
        let text = "\r\(label) [\(bar)] \(Int(fraction * 100))%  \(Terminal.grouped(rows)) rows  \(Terminal.grouped(rate)) rows/s"
        Terminal.writeError(text)
    }
}

