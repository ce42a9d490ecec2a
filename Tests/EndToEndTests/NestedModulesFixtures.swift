import Foundation
import Testing

/// A Zephyr-shaped workspace: the repository module `bsim` at tools/bsim holds `babblesim_base` at
/// tools/bsim/components, which holds `babblesim_ext_2G4_libPhyComv1`; `zephyr` lies beside them. Each module is
/// tagged at 1.0.0 and served from a bare remote; the manifest repository `ws` is published as remotes/Zephyr.git.
struct NestedWorkspace {
    static let modules: [(name: String, path: String, deps: [String])] = [
        // Inner modules listed before their outer one: the order in modkit.yml must not matter.
        ("babblesim_ext_2G4_libPhyComv1", "tools/bsim/components/ext_2G4_libPhyComv1", ["babblesim_base"]),
        ("babblesim_base", "tools/bsim/components", []),
        ("bsim", "tools/bsim", []),
        ("zephyr", "zephyr", ["babblesim_base"]),
    ]
    static var names: [String] { modules.map(\.name) }

    let sandbox: Sandbox

    init() throws {
        sandbox = try Sandbox()
        for module in Self.modules {
            let work = "src/\(module.name)"
            try sandbox.write(Self.podspec(module.name, "1.0.0", module.deps), to: "\(work)/\(module.name).podspec")
            try sandbox.write("# \(module.name)\n", to: "\(work)/README.md")
            try sandbox.write("build/\n", to: "\(work)/.gitignore")
            if module.name == "bsim" { try sandbox.write("all:\n\tmake -C components\n", to: "\(work)/Makefile") }
            try sandbox.git("init", "-q", "-b", "main", in: work)
            try sandbox.git("add", "-A", in: work)
            try sandbox.git("commit", "-qm", "feat: \(module.name)", in: work)
            try sandbox.git("tag", "-a", "1.0.0", "-m", "\(module.name) 1.0.0", in: work)
            try sandbox.git("clone", "-q", "--bare", work, "remotes/\(module.name).git")
        }
        var manifest = "version: 1\nworkspace: Zephyr\ndefaults:\n  url-base: file://\(sandbox.url("remotes").path)\n  revision: main\nmodules:\n"
        for module in Self.modules {
            manifest += "  - name: \(module.name)\n    url: \(module.name).git\n    path: \(module.path)\n    test: true\n"
        }
        try sandbox.write(manifest, to: "ws/modkit.yml")
        try sandbox.git("init", "-q", "-b", "main", in: "ws")
        let sync = try sandbox.modkit("sync", in: "ws")
        guard sync.status == 0 else { throw SandboxError("sync: \(sync.err)\(sync.out)") }
        try sandbox.git("add", "-A", in: "ws")
        try sandbox.git("commit", "-qm", "chore: Zephyr workspace", in: "ws")
        try sandbox.git("init", "-q", "--bare", "remotes/Zephyr.git")
        try sandbox.git("remote", "add", "origin", sandbox.url("remotes/Zephyr.git").path, in: "ws")
        try sandbox.git("push", "-q", "-u", "origin", "main", in: "ws")
    }

    static func podspec(_ name: String, _ version: String, _ deps: [String]) -> String {
        var text = "Pod::Spec.new do |s|\n  s.name    = '\(name)'\n  s.version = '\(version)'\n"
        for dep in deps { text += "  s.dependency '\(dep)', '1.0.0'\n" }
        return text + "end\n"
    }

    static func path(of name: String) -> String { "ws/" + modules.first { $0.name == name }!.path }

    func head(_ name: String) throws -> String { try sandbox.git("rev-parse", "HEAD", in: Self.path(of: name)) }

    /// Each repository's HEAD, the manifest repository's under "ws".
    func heads() throws -> [String: String] {
        var heads = ["ws": try sandbox.git("rev-parse", "HEAD", in: "ws")]
        for name in Self.names { heads[name] = try head(name) }
        return heads
    }

    /// Commits `files` (path → text, nil removes) with `message` in a module's clone in the workspace and pushes it.
    @discardableResult
    func commit(_ message: String, in name: String, files: [String: String?]) throws -> String {
        let directory = Self.path(of: name)
        for (file, text) in files {
            if let text { try sandbox.write(text, to: "\(directory)/\(file)") } else { try sandbox.git("rm", "-q", file, in: directory) }
        }
        try sandbox.git("add", "-A", in: directory)
        try sandbox.git("commit", "-qm", message, in: directory)
        try sandbox.git("push", "-q", "origin", "HEAD:main", in: directory)
        return try head(name)
    }

    /// `git status --porcelain` of a module's clone, untracked files listed one by one, ignored ones too.
    func porcelain(_ name: String, ignored: Bool = false) throws -> String {
        try sandbox.git(ignored ? ["status", "--porcelain", "--untracked-files=all", "--ignored"] : ["status", "--porcelain", "--untracked-files=all"],
                        in: Self.path(of: name))
    }
}

extension Sandbox {
    func git(_ arguments: [String], in directory: String) throws -> String {
        let result = try run("/usr/bin/env", ["git"] + arguments, in: url(directory))
        guard result.status == 0 else { throw SandboxError("git \(arguments.joined(separator: " ")) failed (\(result.status)): \(result.err)") }
        return result.out.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
