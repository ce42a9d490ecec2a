import Foundation

extension Sandbox {
    /// Bare remotes for `names` and `ws/modkit.yml` listing each at the path of its name, revision main.
    func writeFlatWorkspace(_ names: [String], workspace: String) throws {
        for name in names { try makeRemote(name) }
        var text = "version: 1\nworkspace: \(workspace)\ndefaults:\n  url-base: file://\(url("remotes").path)\n  revision: main\nmodules:\n"
        for name in names { text += "  - { name: \(name), url: \(name).git, path: \(name) }\n" }
        try write(text, to: "ws/modkit.yml")
    }
}
