import Foundation
import GitKit
import ModKit

/// Shows a running sync: one line per finished module, and on a terminal a live line with
/// modules done/total, objects and bytes received, and the modules in flight.
final class SyncProgress: @unchecked Sendable {
    private let console: Console
    private let total: Int
    private let printsLines: Bool
    private let nameWidth: Int
    private let lock = NSLock()
    private var done = 0
    private var inFlight: [String] = []
    private var transfers: [String: TransferProgress] = [:]
    private var lastDraw = Date.distantPast

    init(console: Console, modules: [Module], printsLines: Bool) {
        self.console = console
        self.total = modules.count
        self.printsLines = printsLines
        self.nameWidth = min(28, modules.map(\.name.count).max() ?? 0)
    }

    func handle(_ event: SyncEvent) {
        lock.withLock {
            switch event {
            case .started(let module):
                inFlight.append(module)
                draw(force: true)
            case .transfer(let module, let progress):
                transfers[module] = progress
                draw(force: false)
            case .finished(let result):
                done += 1
                inFlight.removeAll { $0 == result.name }
                if printsLines && !(console.quiet && !result.needsAttention) { console.write(line(for: result) + "\n", to: .standardError) }
                draw(force: true)
            }
        }
    }

    func finish() { console.clearProgress() }

    func line(for result: ModuleResult<SyncFacts>) -> String {
        let style = console.style(for: .standardError)
        let name = result.label.padding(toLength: max(nameWidth, result.label.count), withPad: " ", startingAt: 0)
        let detail: String
        switch result.outcome {
        case .cloned, .updated: detail = style.green(result.detail)
        case .upToDate, .skipped: detail = style.dim(result.detail)
        case .kept: detail = style.yellow(result.detail)
        case .failed: detail = style.red("failed: \(result.error?.message ?? result.detail)")
        default: detail = result.detail
        }
        return "\(style.bold(name))  \(detail)"
    }

    private func draw(force: Bool) {
        guard console.showsLiveProgress else { return }
        let now = Date()
        guard force || now.timeIntervalSince(lastDraw) > 0.1 else { return }
        lastDraw = now
        let objects = transfers.values.reduce(0) { $0 + $1.receivedObjects }
        let bytes = transfers.values.reduce(0) { $0 + $1.receivedBytes }
        var text = "[\(done)/\(total)] \(objects) objects, \(Self.format(bytes: bytes))"
        if !inFlight.isEmpty {
            let shown = inFlight.prefix(4).joined(separator: ", ")
            text += " — \(shown)" + (inFlight.count > 4 ? " +\(inFlight.count - 4)" : "")
        }
        console.progress(text)
    }

    static func format(bytes: Int) -> String {
        let units = ["B", "KiB", "MiB", "GiB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(bytes) B" : String(format: "%.1f %@", value, units[unit])
    }
}
