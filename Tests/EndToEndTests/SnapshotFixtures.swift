import Foundation
import Testing

extension Sandbox {
    static let directoryModules = [(name: "Payments", path: "Features/Payments", version: "1.2.0"),
                                   (name: "Analytics", path: "Features/Analytics", version: "0.9.0")]

    /// A product of `count` repository modules and two directory modules, synced, with the manifest repository `ws`
    /// committed on main and published as the bare remote `remotes/Product.git`.
    @discardableResult
    func makeProduct(_ count: Int = 8) throws -> [String] {
        let names = Sandbox.moduleNames(count)
        for name in names { try makeRemote(name) }
        var text = "version: 1\nworkspace: Product\ndefaults:\n  url-base: file://\(url("remotes").path)\n  revision: main\nmodules:\n"
        for name in names { text += "  - name: \(name)\n    url: \(name).git\n    path: Libs/\(name)\n" }
        for module in Sandbox.directoryModules { text += "  - name: \(module.name)\n    path: \(module.path)\n" }
        try write(text, to: "ws/modkit.yml")
        try write("1.2.0\n", to: "ws/Features/Payments/VERSION")
        try write("enum Payments {}\n", to: "ws/Features/Payments/Payments.swift")
        try write("Pod::Spec.new do |s|\n  s.name = 'Analytics'\n  s.version = '0.9.0'\nend\n", to: "ws/Features/Analytics/Analytics.podspec")
        try git("init", "-q", "-b", "main", in: "ws")
        let sync = try modkit("sync", in: "ws")
        guard sync.status == 0 else { throw SandboxError("sync failed: \(sync.err)") }
        try git("add", "-A", in: "ws")
        try git("commit", "-qm", "Product", in: "ws")
        try git("clone", "-q", "--bare", url("ws").path, url("remotes/Product.git").path)
        try git("remote", "add", "origin", url("remotes/Product.git").path, in: "ws")
        try git("fetch", "-q", "origin", in: "ws")
        try git("branch", "-q", "-u", "origin/main", in: "ws")
        return names
    }

    /// The commit a tag names in a module repository, or nil when it has no such tag.
    func tagCommit(_ tag: String, in directory: String) -> String? {
        try? git("rev-parse", "--verify", "-q", "refs/tags/\(tag)^{commit}", in: directory)
    }

    /// Commits `text` as the snapshot file of `name` in the manifest repository `ws` and tags it `name`, as `modkit tag`
    /// would leave it (hand-written, so a test can give it what `tag` never writes).
    func commitSnapshot(_ text: String, named name: String = "v9") throws {
        try write(text, to: "ws/.modkit/snapshots/\(name).yml")
        try git("add", "-A", in: "ws")
        try git("commit", "-qm", "Snapshot \(name)", in: "ws")
        try git("tag", name, in: "ws")
    }

    /// The snapshot file as stored in the manifest repository's tag.
    func snapshotFile(_ name: String) throws -> String {
        try git("show", "\(name):.modkit/snapshots/\(name).yml", in: "ws")
    }

    /// The `{ … }` fields of one module line of a snapshot file.
    func snapshotFields(_ text: String, module: String) throws -> [String: String] {
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("  \(module):") }, "\(module) missing in\n\(text)")
        let body = try #require(line.firstIndex(of: "{").map { line[line.index(after: $0)...].dropLast() })
        var fields: [String: String] = [:]
        for part in body.split(separator: ",") {
            let pair = part.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            fields[pair[0]] = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        return fields
    }

    /// Decodes one JSON document from stdout.
    func json(_ result: ProcessResult) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(result.out.utf8))
    }
}
