import Foundation
import SpecKit

/// The record a `develop` run writes before it changes any consumer: every file with the bytes it will hold, the
/// original bytes to keep, the SwiftPM edits and the state after the run. It is renamed into place complete, so a run
/// killed before that changed nothing, and one killed after is finished by the next run (each file is replaced
/// atomically, so at every moment it holds either its original or its overridden bytes).
public enum DevelopJournal {
    /// One consumer file and the bytes it will hold (`files/<key>` in the journal), or its removal.
    struct Write: Codable, Sendable {
        var path: String
        /// The file goes: `develop` created it (an Xcode workspace) and the run takes its override away.
        var removes: Bool? = nil
    }

    /// One `swift package edit` or `unedit` in a consumer package.
    public struct SwiftStep: Codable, Sendable {
        public var edit: Bool
        /// The consumer package, relative to the workspace root.
        public var package: String
        public var dependency: String
        public var module: String
        /// The developed module's directory, relative to the workspace root.
        public var target: String
        /// Whether the package had a Package.resolved before `develop` (restored byte for byte on `--off`, else removed).
        public var hadResolved: Bool
        /// Whether this unedit is the package's last: Package.resolved then goes back to what it was before `develop`.
        public var restores = false
    }

    struct Entry: Codable, Sendable {
        var state: DevelopState
        /// The modules overridden before the run, so the release guard names them while a run is unfinished.
        var previousModules: [String]
        var writes: [Write]
        /// Keys of original bytes to keep under `originals/` (copied from the journal's `originals/`).
        var originals: [String]
        var swift: [SwiftStep]
    }

    /// What a finished journal did.
    public struct Outcome: Sendable {
        public var state: DevelopState
        /// SwiftPM steps that failed, with SwiftPM's message; the state leaves them out.
        public var failures: [(step: SwiftStep, message: String)] = []
    }

    /// Writes the journal (a draft folder renamed into place), the point after which the run counts as done.
    static func commit(_ entry: Entry, bytes: [String: [UInt8]], originals: [String: [UInt8]], in store: DevelopStore) throws {
        let manager = FileManager.default
        let modkit = store.directory.deletingLastPathComponent()
        try PrivateState.prepare(modkit)
        try GitIgnore.ensure(["/develop/"], in: modkit.appendingPathComponent(".gitignore"))
        try? manager.removeItem(at: store.journalDraft)
        let files = store.journalDraft.appendingPathComponent("files", isDirectory: true)
        let kept = store.journalDraft.appendingPathComponent("originals", isDirectory: true)
        try manager.createDirectory(at: files, withIntermediateDirectories: true)
        try manager.createDirectory(at: kept, withIntermediateDirectories: true)
        for (key, content) in bytes { try AtomicFile.write(Data(content), to: files.appendingPathComponent(key)) }
        for (key, content) in originals { try AtomicFile.write(Data(content), to: kept.appendingPathComponent(key)) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try AtomicFile.write(try encoder.encode(entry), to: store.journalDraft.appendingPathComponent("journal.json"))
        guard rename(store.journalDraft.path, store.journal.path) == 0 else {
            throw ModKitError("cannot rename \(store.journalDraft.path) into place: \(String(cString: strerror(errno)))")
        }
    }

    /// Removes a draft a killed run left (nothing was changed yet); true when there was one.
    @discardableResult
    static func discardDraft(in store: DevelopStore) -> Bool {
        guard FileManager.default.fileExists(atPath: store.journalDraft.path) else { return false }
        try? FileManager.default.removeItem(at: store.journalDraft)
        return true
    }

    /// Carries out the journal in `store`, if there is one (again, after a kill: every step is idempotent), and removes it.
    static func finish(in store: DevelopStore, swift: (SwiftStep) -> String?) throws -> Outcome? {
        let manager = FileManager.default
        let journal = store.journal
        guard let data = manager.contents(atPath: journal.appendingPathComponent("journal.json").path) else {
            if manager.fileExists(atPath: journal.path) { try manager.removeItem(at: journal) }   // emptied by a run killed while removing it
            return nil
        }
        let entry = try JSONDecoder().decode(Entry.self, from: data)
        try manager.createDirectory(at: store.originals, withIntermediateDirectories: true)
        try manager.createDirectory(at: store.written, withIntermediateDirectories: true)
        try keepOriginals(entry, in: store)
        try writeFiles(entry, in: store)
        let outcome = try runSwiftSteps(entry, in: store, swift: swift)
        if outcome.state.isEmpty {
            try? manager.removeItem(at: store.stateFile)
        } else {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try AtomicFile.write(try encoder.encode(outcome.state), to: store.stateFile)
        }
        removeUnneededBytes(in: store, state: outcome.state)
        try manager.removeItem(at: journal.appendingPathComponent("journal.json"))
        try manager.removeItem(at: journal)
        return outcome
    }

    /// Copies the original bytes the journal keeps into the store's `originals/`, where they differ.
    private static func keepOriginals(_ entry: Entry, in store: DevelopStore) throws {
        let manager = FileManager.default
        for key in entry.originals where manager.fileExists(atPath: store.journal.appendingPathComponent("originals/\(key)").path) {
            let content = try Data(contentsOf: store.journal.appendingPathComponent("originals/\(key)"))
            if manager.contents(atPath: store.originals.appendingPathComponent(key).path) != content {
                try AtomicFile.write(content, to: store.originals.appendingPathComponent(key))
            }
        }
    }

    /// Gives each consumer file the bytes the journal holds for it (or removes it), and records the bytes of overridden
    /// files in `written/`.
    private static func writeFiles(_ entry: Entry, in store: DevelopStore) throws {
        let manager = FileManager.default
        let overridden = Set(entry.state.files.map(\.path))
        for write in entry.writes {
            let key = DevelopState.key(write.path)
            let url = store.url(of: write.path)
            if write.removes == true {
                // A run killed inside `AtomicFile.write` may have left its temporary file beside this one; it would keep the folder.
                AtomicFile.removeAbandonedTemporaries(of: url)
                try removeCreated(url)
                continue
            }
            let content = try Data(contentsOf: store.journal.appendingPathComponent("files/\(key)"))
            if manager.contents(atPath: url.path) != content {
                try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try AtomicFile.write(content, to: url)
            }
            if overridden.contains(write.path) { try AtomicFile.write(content, to: store.written.appendingPathComponent(key)) }
        }
    }

    /// Runs the SwiftPM steps through `swift`; a failed edit is left out of the state.
    private static func runSwiftSteps(_ entry: Entry, in store: DevelopStore, swift: (SwiftStep) -> String?) throws -> Outcome {
        let manager = FileManager.default
        var outcome = Outcome(state: entry.state)
        for step in entry.swift {
            if let failure = swift(step) {
                outcome.failures.append((step, failure))
                if step.edit { outcome.state.packages.removeAll { $0.path == step.package && $0.dependency == step.dependency } }
            }
            if !step.edit && step.restores {
                // SwiftPM rewrote or created Package.resolved while the override was on: back to the bytes from before.
                let resolved = store.url(of: step.package).appendingPathComponent(SpecFileName.packageResolved)
                let saved = store.journal.appendingPathComponent("files/\(DevelopState.resolvedKey(step.package))")
                if step.hadResolved, let content = manager.contents(atPath: saved.path) {
                    if manager.contents(atPath: resolved.path) != content { try AtomicFile.write(content, to: resolved) }
                } else if !step.hadResolved {
                    try? manager.removeItem(at: resolved)
                }
            }
        }
        return outcome
    }

    /// Bytes no longer needed: files no longer overridden, Package.resolved of packages no longer edited.
    private static func removeUnneededBytes(in store: DevelopStore, state: DevelopState) {
        var needed = Set(state.files.map { DevelopState.key($0.path) })
        for package in state.packages where package.hadResolved { needed.insert(DevelopState.resolvedKey(package.path)) }
        for folder in [store.originals, store.written] {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where !needed.contains(name) {
                try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
            }
        }
    }

    /// Removes a file `develop` created, and its folder when that is left empty (a folder holding anything else, such as
    /// Xcode's `xcuserdata`, stays: it is not modkit's).
    static func removeCreated(_ url: URL) throws {
        if unlink(url.path) != 0 && errno != ENOENT {
            throw ModKitError("cannot remove \(url.path): \(String(cString: strerror(errno)))")
        }
        _ = rmdir(url.deletingLastPathComponent().path)
    }
}
