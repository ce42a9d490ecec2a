import Foundation
import GitKit

/// Reads git's `--progress` lines (`Receiving objects:  45% (1234/2742), 12.34 MiB | 5.00 MiB/s`) into
/// TransferProgress; git is run with `LC_ALL=C` so the wording is stable.
struct GitProgressParser {
    private(set) var progress = TransferProgress()

    /// Folds one line (a `\r`- or `\n`-terminated piece of stderr) in; true when it was a progress line.
    mutating func consume(_ line: Substring) -> Bool {
        let text = line.hasPrefix("remote: ") ? line.dropFirst(8) : line
        if text.hasPrefix("Total "), let total = Int(text.dropFirst(6).prefix { $0.isNumber }) {
            // `remote: Total 3 (delta 0), …`: the only count git prints for a pack too small for meters
            progress.totalObjects = total
            return true
        }
        guard let counts = Self.counts(in: text) else { return false }
        if text.hasPrefix("Receiving objects:") {
            progress.receivedObjects = counts.done
            progress.totalObjects = counts.total
            if let bytes = Self.bytes(in: text) { progress.receivedBytes = bytes }
            if counts.done == counts.total { progress.indexedObjects = counts.total }
        } else if text.hasPrefix("Resolving deltas:") {
            progress.indexedDeltas = counts.done
            progress.totalDeltas = counts.total
        } else if text.hasPrefix("Checking objects:") || text.hasPrefix("Unpacking objects:") {
            progress.receivedObjects = counts.done
            progress.indexedObjects = counts.done
            progress.totalObjects = counts.total
            if let bytes = Self.bytes(in: text) { progress.receivedBytes = bytes }
        } else {
            return false
        }
        return true
    }

    /// `(1234/2742)` → (1234, 2742).
    private static func counts(in text: Substring) -> (done: Int, total: Int)? {
        guard let open = text.firstIndex(of: "("), let slash = text[open...].firstIndex(of: "/"),
              let close = text[slash...].firstIndex(of: ")"),
              let done = Int(text[text.index(after: open)..<slash]),
              let total = Int(text[text.index(after: slash)..<close]) else { return nil }
        return (done, total)
    }

    /// `, 12.34 MiB |` or `, done` → bytes; nil when the line names no size.
    private static func bytes(in text: Substring) -> Int? {
        let units: [(String, Double)] = [("GiB", 1_073_741_824), ("MiB", 1_048_576), ("KiB", 1024), ("bytes", 1)]
        guard let comma = text.range(of: "), ") else { return nil }
        let words = text[comma.upperBound...].split(separator: " ")
        guard words.count >= 2, let value = Double(words[0]),
              let scale = units.first(where: { words[1].hasPrefix($0.0) })?.1 else { return nil }
        return Int(value * scale)
    }
}
