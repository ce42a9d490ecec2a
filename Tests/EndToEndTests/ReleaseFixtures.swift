import Foundation
import Testing

/// An SDK product for release tests: three repository modules (QCloudCore 1.0.1; COSXML 5.3.0 on QCloudCore; FaceInUI
/// 2.3.0) and one directory module (Beacon 0.4.0 on COSXML), each tagged at its version, served from bare remotes,
/// with the snapshot 2024.5 already taken and pushed.
struct SDKProduct {
    static let repositories: [(name: String, version: String, deps: [String])] = [
        ("QCloudCore", "1.0.1", []), ("COSXML", "5.3.0", ["QCloudCore"]), ("FaceInUI", "2.3.0", []),
    ]
    static let directory = (name: "Beacon", path: "Features/Beacon", version: "0.4.0", deps: ["COSXML"])

    let sandbox: Sandbox

    /// `moduleLines` adds manifest lines to a module's entry (e.g. `test:`, `publish:`); `releaseLines` go under `release:`.
    init(moduleLines: [String: [String]] = [:], releaseLines: [String] = [], tagFormat: String? = nil) throws {
        sandbox = try Sandbox()
        for module in Self.repositories {
            let work = "src/\(module.name)"
            try sandbox.write(Self.podspec(module.name, module.version, module.deps), to: "\(work)/\(module.name).podspec")
            try sandbox.write("# \(module.name)\n", to: "\(work)/README.md")
            try sandbox.git("init", "-q", "-b", "main", in: work)
            try sandbox.git("add", "-A", in: work)
            try sandbox.git("commit", "-qm", "feat: \(module.name) before \(module.version)", in: work)
            try sandbox.git("tag", "-a", module.version, "-m", "\(module.name) \(module.version)", in: work)
            try sandbox.git("clone", "-q", "--bare", work, "remotes/\(module.name).git")
        }
        var manifest = "version: 1\nworkspace: Product\ndefaults:\n  url-base: file://\(sandbox.url("remotes").path)\n  revision: main\n"
        if let tagFormat { manifest += "  tag-format: \"\(tagFormat)\"\n" }
        if !releaseLines.isEmpty { manifest += "release:\n" + releaseLines.map { "  \($0)\n" }.joined() }
        manifest += "modules:\n"
        for module in Self.repositories {
            manifest += "  - name: \(module.name)\n    url: \(module.name).git\n    path: Libs/\(module.name)\n"
            manifest += (moduleLines[module.name] ?? ["test: true"]).map { "    \($0)\n" }.joined()
        }
        let beacon = Self.directory
        manifest += "  - name: \(beacon.name)\n    path: \(beacon.path)\n" + (moduleLines[beacon.name] ?? []).map { "    \($0)\n" }.joined()
        try sandbox.write(manifest, to: "ws/modkit.yml")
        try sandbox.write(Self.podspec(beacon.name, beacon.version, beacon.deps), to: "ws/\(beacon.path)/\(beacon.name).podspec")
        try sandbox.git("init", "-q", "-b", "main", in: "ws")
        try sandbox.git("add", "-A", in: "ws")
        try sandbox.git("commit", "-qm", "fix: Beacon before \(beacon.version)", in: "ws")
        try sandbox.git("tag", "-a", "\(beacon.name)/\(beacon.version)", "-m", "\(beacon.name) \(beacon.version)", in: "ws")
        let sync = try sandbox.modkit("sync", in: "ws")
        guard sync.status == 0 else { throw SandboxError("sync: \(sync.err)") }
        try sandbox.git("add", "-A", in: "ws")
        try sandbox.git("commit", "-qm", "chore: sync", in: "ws")
        try sandbox.git("init", "-q", "--bare", "remotes/Product.git")
        try sandbox.git("remote", "add", "origin", sandbox.url("remotes/Product.git").path, in: "ws")
        try sandbox.git("push", "-q", "--follow-tags", "-u", "origin", "main", in: "ws")
        let tag = try sandbox.modkit("tag", "2024.5", "--push", in: "ws")
        guard tag.status == 0 else { throw SandboxError("tag: \(tag.err)") }
    }

    static func podspec(_ name: String, _ version: String, _ deps: [String]) -> String {
        var text = "Pod::Spec.new do |s|\n  s.name    = '\(name)'\n  s.version = '\(version)'\n"
        for dep in deps {
            let pinned = repositories.first { $0.name == dep }?.version ?? "0"
            text += "  s.dependency '\(dep)', '\(pinned)'\n"
        }
        return text + "end\n"
    }

    /// Commits one file change with `message` in a module repository (pushed) or, for Beacon, in the manifest repository.
    func commit(_ message: String, in module: String, file: String = "NOTES.md", push: Bool = true) throws {
        let directory = module == Self.directory.name ? "ws" : "ws/Libs/\(module)"
        let path = module == Self.directory.name ? "\(Self.directory.path)/\(file)" : file
        let existing = (try? sandbox.read("\(directory)/\(path)")) ?? ""
        try sandbox.write(existing + message + "\n", to: "\(directory)/\(path)")
        try sandbox.git("add", path, in: directory)
        try sandbox.git("commit", "-qm", message, in: directory)
        if push { try sandbox.git("push", "-q", "origin", "main", in: directory) }
    }

    /// The changes of the usual release: a `fix:` in QCloudCore and a `feat:` in COSXML, pushed.
    func commitFixAndFeature() throws {
        try commit("fix: handle a nil region", in: "QCloudCore")
        try commit("feat: multipart upload", in: "COSXML")
    }

    /// The tags of a bare remote with the commit each names, e.g. ["1.0.2": "<40 hex>"].
    func remoteTags(_ remote: String) throws -> [String: String] {
        let listing = try sandbox.git("--git-dir", sandbox.url("remotes/\(remote).git").path, "for-each-ref",
                                      "--format=%(refname:short) %(*objectname)%(objectname)", "refs/tags")
        var tags: [String: String] = [:]
        for line in listing.split(separator: "\n") {
            let parts = line.split(separator: " ")
            // Annotated tags print the peeled commit first, then the tag object; keep the commit.
            tags[String(parts[0])] = String(parts[1].prefix(40))
        }
        return tags
    }

    /// A file as it is at `ref` of a bare remote.
    func remoteFile(_ remote: String, _ ref: String, _ path: String) throws -> String {
        try sandbox.git("--git-dir", sandbox.url("remotes/\(remote).git").path, "show", "\(ref):\(path)")
    }

    /// The files a commit of a repository changed.
    func changedFiles(_ directory: String, _ ref: String = "HEAD") throws -> [String] {
        try sandbox.git("show", "--name-only", "--format=", ref, in: directory).split(separator: "\n").map(String.init).sorted()
    }

    /// Every repository's HEAD.
    func heads() throws -> [String: String] {
        var heads = ["ws": try sandbox.git("rev-parse", "HEAD", in: "ws")]
        for module in Self.repositories { heads[module.name] = try sandbox.git("rev-parse", "HEAD", in: "ws/Libs/\(module.name)") }
        return heads
    }

    /// The hint a failed run printed (`'modkit … --resume --yes'`), as arguments for the binary.
    static func hintedArguments(_ stderr: String) throws -> [String] {
        let start = try #require(stderr.range(of: "'modkit "), "no hint in \(stderr)")
        let end = try #require(stderr[start.upperBound...].firstIndex(of: "'"))
        return stderr[start.upperBound..<end].split(separator: " ").map(String.init)
    }

    func modkit(_ arguments: [String]) throws -> ProcessResult {
        try sandbox.run(Sandbox.modkitBinary.path, arguments, in: sandbox.url("ws"))
    }
}
