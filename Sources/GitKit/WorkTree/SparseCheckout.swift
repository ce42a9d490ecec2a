import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// The patterns of `<git dir>/info/sparse-checkout` when `core.sparseCheckout` is on: they decide whether a path
/// that a move adds is written to the work tree or only recorded in the index as skip-worktree, as git does.
/// Both git's cone-mode files (`/*`, `!/*/`, `/Dir/`) and plain gitignore-style patterns are read.
struct SparseCheckout {
    private struct Pattern {
        var glob: String
        var negated: Bool
        var directoryOnly: Bool
        var anchored: Bool
    }

    private let patterns: [Pattern]

    /// Nil when the repository is not a sparse checkout.
    init?(_ repository: Repository) throws {
        guard let value = try repository.configString("core.sparseCheckout") ?? Self.worktreeSetting(repository),
              ["true", "yes", "on", "1"].contains(value.lowercased()),
              let data = FileManager.default.contents(atPath: repository.directory.sparseCheckout) else { return nil }
        patterns = String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line in
            var text = String(line)
            while text.hasSuffix(" ") || text.hasSuffix("\r") { text.removeLast() }
            guard !text.isEmpty, !text.hasPrefix("#") else { return nil }
            let negated = text.hasPrefix("!")
            if negated { text.removeFirst() }
            let directoryOnly = text.hasSuffix("/")
            while text.count > 1 && text.hasSuffix("/") { text.removeLast() }
            let anchored = text.contains("/")
            if text.hasPrefix("/") { text.removeFirst() }
            return text.isEmpty ? nil : Pattern(glob: text, negated: negated, directoryOnly: directoryOnly, anchored: anchored)
        }
    }

    /// `core.sparseCheckout` from `config.worktree`, where `git sparse-checkout` puts it and libgit2 1.5 does not look.
    private static func worktreeSetting(_ repository: Repository) -> String? {
        guard let data = FileManager.default.contents(atPath: repository.directory.worktreeConfig) else { return nil }
        var inCore = false
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let text = line.trimmingCharacters(in: .whitespaces).lowercased()
            if text.hasPrefix("[") { inCore = text.hasPrefix("[core]"); continue }
            let parts = text.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if inCore, parts.count == 2, parts[0] == "sparsecheckout" { return parts[1] }
        }
        return nil
    }

    /// Whether `path` (a file, relative to the work tree) belongs in the work tree: the last pattern matching the
    /// path or one of its leading directories decides; a path no pattern matches stays out.
    func includes(_ path: String) -> Bool {
        let components = path.split(separator: "/").map(String.init)
        var candidates: [(path: String, isDirectory: Bool)] = []
        for count in 1...max(components.count, 1) {
            candidates.append((components.prefix(count).joined(separator: "/"), count < components.count))
        }
        var included = false
        for pattern in patterns where candidates.contains(where: { matches(pattern, $0.path, isDirectory: $0.isDirectory) }) {
            included = !pattern.negated
        }
        return included
    }

    private func matches(_ pattern: Pattern, _ candidate: String, isDirectory: Bool) -> Bool {
        if pattern.directoryOnly && !isDirectory { return false }
        let subject = pattern.anchored ? candidate : String(candidate.split(separator: "/").last ?? "")
        return fnmatch(pattern.glob, subject, pattern.anchored ? FNM_PATHNAME : 0) == 0
    }
}
