import Foundation
@testable import ModKit

/// A real workspace for library tests: a manifest repository (`ws`, modkit.yml committed on main and pushed to
/// `remotes/ws.git`) listing two module repositories, Core and Net (version 1.0.0, tagged 1.0.0), each cloned into
/// `ws/Modules/` from a bare remote (`remotes/NAME.git`) made from `src/NAME`. Removed when released.
final class LibraryWorkspace {
    let root: String
    var workspace: String { root + "/ws" }

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("modkit-snapshot-\(UUID().uuidString)").resolvingSymlinksInPath().path
        for name in ["Core", "Net"] {
            try FileManager.default.createDirectory(atPath: "\(root)/src/\(name)", withIntermediateDirectories: true)
            try runGit(["init", "-q", "-b", "main", "src/\(name)"], in: root)
            try "Pod::Spec.new do |s|\n  s.name = '\(name)'\n  s.version = '1.0.0'\nend\n"
                .write(toFile: "\(root)/src/\(name)/\(name).podspec", atomically: true, encoding: .utf8)
            try runGit(["-C", "src/\(name)", "add", "-A"], in: root)
            try runGit(["-C", "src/\(name)", "commit", "-qm", "\(name) 1.0.0"], in: root)
            try runGit(["-C", "src/\(name)", "tag", "1.0.0"], in: root)
            try runGit(["clone", "-q", "--bare", "src/\(name)", "remotes/\(name).git"], in: root)
            try runGit(["clone", "-q", "remotes/\(name).git", "ws/Modules/\(name)"], in: root)
        }
        let manifest = """
        version: 1
        workspace: Library
        modules:
          - name: Core
            path: Modules/Core
            url: \(root)/remotes/Core.git
          - name: Net
            path: Modules/Net
            url: \(root)/remotes/Net.git

        """
        try manifest.write(toFile: workspace + "/modkit.yml", atomically: true, encoding: .utf8)
        try "/Modules/\n".write(toFile: workspace + "/.gitignore", atomically: true, encoding: .utf8)
        try runGit(["init", "-q", "-b", "main", "."], in: workspace)
        try runGit(["add", "-A"], in: workspace)
        try runGit(["commit", "-qm", "Workspace"], in: workspace)
        try runGit(["init", "-q", "--bare", "-b", "main", "remotes/ws.git"], in: root)
        try runGit(["remote", "add", "origin", "\(root)/remotes/ws.git"], in: workspace)
        try runGit(["push", "-q", "-u", "origin", "main"], in: workspace)
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    func head(_ module: String) throws -> String { try runGit(["rev-parse", "HEAD"], in: "\(workspace)/Modules/\(module)") }

    /// A new commit in the module's checkout; returns it.
    func commit(_ module: String, _ text: String) throws -> String {
        let directory = "\(workspace)/Modules/\(module)"
        try text.write(toFile: directory + "/CHANGES.md", atomically: true, encoding: .utf8)
        try runGit(["add", "CHANGES.md"], in: directory)
        try runGit(["commit", "-qm", text], in: directory)
        return try head(module)
    }

    /// A commit on the module's remote (made in its source repository and pushed), which the workspace does not have yet.
    func publish(_ module: String, file: String, _ text: String) throws -> String {
        let source = "\(root)/src/\(module)"
        try text.write(toFile: "\(source)/\(file)", atomically: true, encoding: .utf8)
        try runGit(["add", file], in: source)
        try runGit(["commit", "-qm", "publish \(file)"], in: source)
        try runGit(["push", "-q", "\(root)/remotes/\(module).git", "main"], in: source)
        return try runGit(["rev-parse", "HEAD"], in: source)
    }

    func load() throws -> Workspace { try Workspace.load(manifestFile: URL(fileURLWithPath: workspace + "/modkit.yml")) }
}

