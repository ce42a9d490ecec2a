import Foundation
import YAMLKit

/// What changed in an interface module's public API since a released version, and the version that change requires.
public struct APIReport: Sendable, Codable {
    public var module: String
    /// The released version compared against, and its tag.
    public var since: String?
    public var sinceTag: String?
    /// The version in the module's spec file now.
    public var version: String?
    public var impact: APIImpact
    /// The lowest version the change allows (x+1.0 when breaking, x.y+1 when additive); nil when nothing changed.
    public var required: String?
    /// True when the spec file's version is below `required`.
    public var understated: Bool
    public var changes: [APIChange]

    /// Compares the module's sources now with those at its version tag `since` (default: its newest version tag not above its current version).
    public static func make(_ module: Module, since: String? = nil, workspace: Workspace) throws -> APIReport {
        let manifest = workspace.manifest
        let read = VersionReader.read(module: module, in: manifest)
        let current = read.version
        let baseline = try since ?? lastReleasedVersion(of: module, upTo: current, workspace: workspace)
        var report = APIReport(module: module.name, since: baseline, sinceTag: nil, version: read.version?.description ?? read.raw,
                               impact: .none, required: nil, understated: false, changes: [])
        guard let baseline else { return report }
        let tag = ReleaseHistory.versionTag(of: module, version: baseline, in: manifest)
        report.sinceTag = tag
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("modkit-api-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let (repository, inside) = try location(of: module, workspace: workspace)
        let old = scratch.appendingPathComponent("released", isDirectory: true)
        try FileManager.default.createDirectory(at: old, withIntermediateDirectories: true)
        let tar = StringEscaping.shellWord(scratch.appendingPathComponent("released.tar").path)
        let archive = "git -C \(StringEscaping.shellWord(repository.path)) archive --format=tar -o \(tar) \(StringEscaping.shellWord(tag)) -- \(StringEscaping.shellWord(inside.isEmpty ? "." : inside))"
            + " && tar -xf \(tar) -C \(StringEscaping.shellWord(old.path))"
        let extracted = try ShellCommand.run(archive, in: scratch, environment: ProcessInfo.processInfo.environment)
        guard extracted.status == 0 else {
            throw ModKitError.input("\(module.name): cannot read its sources at tag \(tag): \(extracted.output.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
        let oldScratch = scratch.appendingPathComponent("scratch-old", isDirectory: true)
        let newScratch = scratch.appendingPathComponent("scratch-new", isDirectory: true)
        try FileManager.default.createDirectory(at: oldScratch, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: newScratch, withIntermediateDirectories: true)
        let before = try APIReader.declarations(in: inside.isEmpty ? old : old.appendingPathComponent(inside, isDirectory: true), scratch: oldScratch)
        let after = try APIReader.declarations(in: manifest.directory(of: module), scratch: newScratch)
        report.changes = APIComparison.changes(from: before, to: after)
        report.impact = APIComparison.impact(of: report.changes)
        if let increment = report.impact.increment, let base = SemanticVersion(baseline, twoParts: true) {
            let required = InterfaceVersions.next(after: base, by: increment, pre: nil)
            report.required = required.description
            report.understated = current.map { $0 < required } ?? true
        }
        return report
    }

    /// The repository holding the module and the module's folder inside it ("" for a repository module).
    static func location(of module: Module, workspace: Workspace) throws -> (URL, String) {
        switch module.kind {
        case .repository:
            return (workspace.manifest.directory(of: module), "")
        case .directory:
            let manifestRepository = try ManifestRepository.open(workspace, for: "modkit api")
            return (URL(fileURLWithPath: manifestRepository.repository.workdir ?? workspace.root.path), manifestRepository.path(module.path))
        }
    }

    /// The newest version whose version tag exists, not above `current`.
    static func lastReleasedVersion(of module: Module, upTo current: SemanticVersion?, workspace: Workspace) throws -> String? {
        let (repository, _) = try location(of: module, workspace: workspace)
        let listed = try ShellCommand.run("git -C \(StringEscaping.shellWord(repository.path)) tag --list", in: repository, environment: ProcessInfo.processInfo.environment)
        guard listed.status == 0 else { return nil }
        let format = module.kind == .repository ? workspace.manifest.defaults.versionTagFormat : workspace.manifest.defaults.dirTagFormat
        let pattern = Snapshot.tagName(format: format, workspace: workspace.manifest.workspace, snapshot: "", module: module.name, version: "\u{1}")
        guard let marker = pattern.range(of: "\u{1}") else { return nil }
        let prefix = String(pattern[..<marker.lowerBound]), suffix = String(pattern[marker.upperBound...])
        var best: SemanticVersion?
        for line in listed.output.split(separator: "\n") {
            let tag = String(line)
            guard tag.hasPrefix(prefix), tag.hasSuffix(suffix), tag.count > prefix.count + suffix.count else { continue }
            let text = String(tag.dropFirst(prefix.count).dropLast(suffix.count))
            guard let version = SemanticVersion(text, twoParts: true), !version.isPrerelease else { continue }
            if let current, current < version { continue }
            if best.map({ $0 < version }) ?? true { best = version }
        }
        return best?.description
    }
}
