import Foundation
import SpecKit

/// One requirement `modkit pin` reports: loose or stale (to pin), a local path link, or unresolvable.
public struct PinFinding: Sendable, Codable, Equatable {
    public enum Kind: String, Sendable, Codable {
        /// Not exact: a range, branch, or no requirement at all.
        case loose
        /// Exact, but not at the workspace module's current version.
        case stale
        /// A local development link (`:path`, `.package(path:)`): warned about, fails only with --strict.
        case path
        /// No version is known to pin it to (no workspace version, nothing in the lock files).
        case unresolved
        /// Its version comes from a variable, interpolation or call: modkit cannot verify it and will not guess.
        /// Reported once; fails only with --strict.
        case unrewritable
    }

    public var kind: Kind
    public var module: String
    /// The file, as shown to the user.
    public var path: String
    public var line: Int
    /// The dependency, by workspace module name when it is one, else as written.
    public var dependency: String
    /// The requirement as written (empty when there is none).
    public var requirement: String
    /// The exact version it is (or would be) pinned to.
    public var version: String?
    public var reason: String?

    /// Whether this finding stops `pin` (and release's pin step): nothing to pin it to, or, with `strict`, nothing modkit can verify.
    public func blocks(strict: Bool) -> Bool {
        kind == .unresolved || (strict && kind == .unrewritable)
    }

    /// `path:line: 'Core' is loose ('~> 1.0'); pin: 1.0.1`, always one line (a requirement written over several lines, a JSON
    /// array, is joined; a very long one is cut), so tools read one finding per line.
    public var message: String {
        let requirement = requirement.onOneLine()
        let dependency = dependency.onOneLine()
        let reason = reason?.onOneLine(limit: 2 * SourceExcerpt.width)
        let written = requirement.isEmpty ? "no version requirement"
            : requirement.hasPrefix("'") || requirement.hasPrefix("\"") || requirement.hasPrefix("%") || requirement.hasPrefix(":") ? requirement : "'\(requirement)'"
        switch kind {
        case .loose: return "\(path):\(line): '\(dependency)' is loose (\(written)); pin: \(version ?? "?")" + (reason.map { " (warning: \($0))" } ?? "")
        case .stale: return "\(path):\(line): '\(dependency)' is pinned to a stale version (\(written)); pin: \(version ?? "?")"
        case .path: return "\(path):\(line): '\(dependency)' is a local path link (\(written)); it is not pinned"
        case .unresolved: return "\(path):\(line): '\(dependency)' is loose (\(written)) and no version is known to pin it to: \(reason ?? "")"
        case .unrewritable: return "\(path):\(line): '\(dependency)' cannot verify (\(written)): \(reason ?? ""); add '# modkit: ignore' (or '// modkit: ignore') on the line if it is right"
        }
    }
}

/// The pin plan of one spec file: its findings and, when something changes, the new text.
public struct FilePinPlan: Sendable {
    public var url: URL
    public var path: String
    public var oldBytes: [UInt8]
    public var newBytes: [UInt8]
    public var findings: [PinFinding]

    public var hasChanges: Bool { oldBytes != newBytes }
    /// The contents after, as UTF-8 text, for display.
    public var newText: String { String(decoding: newBytes, as: UTF8.self) }
    /// The change as a unified diff.
    public var diff: String { unifiedDiff(old: oldBytes, new: newBytes, path: path) }
}

/// `modkit pin`: finds loose and stale requirements and rewrites them to exact versions.
public enum Pinner {
    /// Plans every spec file of the selected modules; writes nothing.
    public static func plan(_ specs: WorkspaceSpecs, modules selected: [Module]) -> [FilePinPlan] {
        let names = Set(selected.map(\.name))
        var versions: [String: String] = [:]
        for module in specs.modules {
            if let version = module.version.version { versions[module.module.name] = version.description }
        }
        var plans: [FilePinPlan] = []
        for module in specs.modules where names.contains(module.module.name) {
            for file in module.files {
                plans.append(plan(file, of: module, specs: specs, versions: versions))
            }
        }
        return plans
    }

    /// What one requirement of a file comes to: nothing to say, a finding, or a finding and the pin that fixes it.
    private enum RequirementOutcome {
        case skip
        case report(PinFinding)
        case pin(PinFinding, PinRequest)
    }

    /// The pin plan of one spec file of `module`: the finding of each requirement to report, and the bytes with the pins applied.
    static func plan(_ file: SpecFile, of module: WorkspaceSpecs.ModuleSpecs, specs: WorkspaceSpecs, versions: [String: String]) -> FilePinPlan {
        let path = Workspace.displayPath(of: file.url)
        var findings: [PinFinding] = []
        var pins: [PinRequest] = []
        // The finding of each requirement to pin, by where the requirement starts: many share a line in a one-line file.
        var findingOfPin: [Int: Int] = [:]
        let ignored = IgnoreComments(file.bytes, fileKind: file.kind)
        for requirement in file.requirements {
            switch outcome(of: requirement, in: file, path: path, of: module, specs: specs, versions: versions, ignored: ignored) {
            case .skip:
                continue
            case .report(let finding):
                findings.append(finding)
            case .pin(let finding, let pin):
                pins.append(pin)
                findingOfPin[requirement.span.range.lowerBound] = findings.count
                findings.append(finding)
            }
        }
        let newBytes = rewrite(file, pins: pins, findings: &findings, findingOfPin: findingOfPin)
        return FilePinPlan(url: file.url, path: path, oldBytes: file.bytes, newBytes: newBytes, findings: findings)
    }

    /// What a requirement depends on: a pod of the workspace, a workspace module, and the version it is at in the workspace.
    private struct Target {
        var pod: WorkspaceSpecs.Pod?
        var module: String?
        var version: String?
    }

    /// The requirement's target; nil for one the file's own module satisfies (its own pod, a subspec, its own version) or
    /// one an ignore comment silences.
    private static func target(of requirement: Requirement, in file: SpecFile, of module: WorkspaceSpecs.ModuleSpecs, specs: WorkspaceSpecs,
                               versions: [String: String], ignored: IgnoreComments) -> Target? {
        let pod = specs.pod(for: requirement)
        let target = specs.module(for: requirement, in: file)
        var targetVersion = target.flatMap { versions[$0] }
        if let pod, pod.module == target {
            // A pod of a module with several podspecs is a dependency of its own, at its own podspec's version.
            if pod.file == file.url { return nil }   // a subspec of the file's own pod
            targetVersion = pod.version ?? targetVersion
        } else if target == module.module.name {
            return nil   // a subspec of the module itself
        }
        if requirement.isOwnVersion, target == module.module.name {
            return nil   // `"#{s.version}"` on a pod released with this one, in the same module: exact by construction
        }
        if ignored.silence(requirement) { return nil }
        return Target(pod: pod, module: target, version: targetVersion)
    }

    /// Classifies one requirement: skipped (see `target`, and revisions, exact and current), a finding to report, or one
    /// to pin to the workspace module's version, the lock file's version or the locked commit.
    private static func outcome(of requirement: Requirement, in file: SpecFile, path: String, of module: WorkspaceSpecs.ModuleSpecs,
                                specs: WorkspaceSpecs, versions: [String: String], ignored: IgnoreComments) -> RequirementOutcome {
        guard let dependency = target(of: requirement, in: file, of: module, specs: specs, versions: versions, ignored: ignored) else { return .skip }
        let pod = dependency.pod, target = dependency.module, targetVersion = dependency.version
        var finding = PinFinding(kind: .loose, module: module.module.name, path: path, line: requirement.span.line,
                                 dependency: pod?.name ?? target ?? displayName(of: requirement), requirement: requirement.rawText)
        if requirement.constraint.isLoose && !requirement.rewritable && !requirement.pinsToRevision {
            // Computed in code modkit cannot see: reported once, whatever version would be known.
            finding.kind = .unrewritable
            finding.reason = requirement.reason
            return .report(finding)
        }
        switch requirement.constraint {
        case .revision:
            return .skip
        case .path:
            finding.kind = .path
            return .report(finding)
        case .exact(let current):
            guard target != nil, let version = targetVersion, current != version else { return .skip }
            finding.kind = .stale
            finding.version = version
        case .branch where requirement.pinsToRevision && (target == nil || requirement.origin == .git && requirement.fileKind == .podfile):
            guard let commit = module.resolved.revision(for: requirement) else {
                finding.kind = .unresolved
                finding.reason = "no lock file records its commit (Podfile.lock CHECKOUT OPTIONS, Package.resolved); resolve it, then pin"
                return .report(finding)
            }
            finding.version = commit
            return .pin(finding, PinRequest(requirement: requirement, version: commit, asRevision: true))
        case .range, .branch, .unconstrained:
            let version = target != nil ? targetVersion : module.resolved.version(for: requirement)
            guard let version else {
                finding.kind = .unresolved
                finding.reason = target != nil
                    ? "\(pod?.name ?? target!) has no version (set version: in modkit.yml, s.version or a VERSION file)"
                    : "it is not a workspace module and no lock file resolves it"
                return .report(finding)
            }
            finding.version = version
            if requirement.admits(version) == false {
                finding.reason = "\(version) lies outside the requirement's own range"
            }
        }
        guard requirement.rewritable else {
            finding.kind = .unrewritable
            finding.reason = requirement.reason
            return .report(finding)
        }
        return .pin(finding, PinRequest(requirement: requirement, version: finding.version!))
    }

    /// The file's bytes with `pins` applied; a pin the rewriter skips (or every pin, when the rewrite cannot be planned and
    /// the file is left as it is) turns its finding unrewritable, with the reason.
    private static func rewrite(_ file: SpecFile, pins: [PinRequest], findings: inout [PinFinding], findingOfPin: [Int: Int]) -> [UInt8] {
        guard !pins.isEmpty else { return file.bytes }
        do {
            let plan = try SpecRewriter.plan(file.bytes, pins: pins)
            for skipped in plan.skipped {
                if let index = findingOfPin[skipped.request.requirement.span.range.lowerBound] {
                    findings[index].kind = .unrewritable
                    findings[index].reason = skipped.reason
                }
            }
            return plan.newBytes
        } catch {
            // The file is left as it is, and every requirement it would have pinned says why (never "already pinned").
            for pin in pins {
                if let index = findingOfPin[pin.requirement.span.range.lowerBound] {
                    findings[index].kind = .unrewritable
                    findings[index].reason = "the rewrite could not be planned: \(ErrorText.describe(error))"
                }
            }
            return file.bytes
        }
    }

    /// The dependency's short name for messages: a pod name, or a package's identity.
    static func displayName(of requirement: Requirement) -> String {
        switch requirement.fileKind {
        case .packageSwift: return requirement.declaredName ?? packageIdentity(forLocation: requirement.name)
        case .cartfile:
            let last = requirement.name.split(separator: "/").last.map(String.init) ?? requirement.name
            return last.hasSuffix(".git") ? String(last.dropLast(4)) : last
        default: return requirement.name
        }
    }

    /// Writes every plan that changes its file, atomically; returns the files written.
    public static func apply(_ plans: [FilePinPlan]) throws -> [FilePinPlan] {
        let changed = plans.filter(\.hasChanges)
        var edits = EditSet()
        for plan in changed { edits.updateBytes(plan.url) { _ in plan.newBytes } }
        try edits.apply()
        return changed
    }
}
