import Foundation
import Testing

/// Global options behave the same however they are spelled: bundled (`-qj1`) or apart.
@Suite struct CLIConventionsEndToEndTests {
    private func workspace() throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.write("""
        version: 1
        workspace: Q
        modules:
          - { name: Core, url: file:///nowhere/Core.git, path: Libs/Core }
          - { name: Feature, path: Modules/Feature }
        """, to: "ws/modkit.yml")
        try sandbox.write("1.0.0\n", to: "ws/Modules/Feature/VERSION")
        return sandbox
    }

    @Test func quietBundledWithJobsPrintsOnlyNames() throws {
        let sandbox = try workspace()
        for arguments in [["-qj1", "list"], ["list", "-q"], ["list", "-qj", "2"], ["--quiet", "list"]] {
            let result = try sandbox.run(Sandbox.modkitBinary.path, arguments, in: sandbox.url("ws"))
            #expect(result.status == 0, "\(arguments): \(result.err)")
            #expect(result.out == "Core\nFeature\n", "\(arguments): \(result.out)")
        }
    }

    @Test func quietStatusShowsOnlyModulesThatNeedAttention() throws {
        let sandbox = try workspace()
        let quiet = try sandbox.modkit("status", "-q", in: "ws")
        #expect(!quiet.out.contains("Q: 2 modules"))
        #expect(quiet.out.contains("Core") && quiet.out.contains("not cloned"))
        let full = try sandbox.modkit("status", in: "ws")
        #expect(full.out.contains("Q: 2 modules"))
    }

    @Test func modulesAreSelectedByPathDotAndGroupLists() throws {
        let sandbox = try Sandbox()
        try sandbox.write("""
        version: 1
        workspace: S
        modules:
          - { name: Core, path: Libs/Core, groups: [core] }
          - { name: Net, path: Libs/Net, groups: [core, net] }
          - { name: UI, path: UI, groups: [ui] }
        """, to: "ws/modkit.yml")
        for name in ["Libs/Core", "Libs/Net", "UI"] { try sandbox.write("1.0.0\n", to: "ws/\(name)/VERSION") }
        #expect(try sandbox.modkit("list", "-q", ".", in: "ws/Libs/Net").out == "Net\n")
        #expect(try sandbox.modkit("list", "-q", "../UI", "Core", in: "ws/Libs").out == "Core\nUI\n")
        #expect(try sandbox.modkit("list", "-q", "-g", "core,-net", in: "ws").out == "Core\n")
        #expect(try sandbox.modkit("list", "-q", "-g", "-core", in: "ws").out == "UI\n")
        #expect(try sandbox.modkit("list", "-q", "-g", "all", in: "ws").out == "Core\nNet\nUI\n")
        let unknown = try sandbox.modkit("list", "Coer", in: "ws")
        #expect(unknown.status == 2)
        #expect(unknown.err.contains("no module named 'Coer' (did you mean 'Core'?)"), "\(unknown.err)")
    }
}
