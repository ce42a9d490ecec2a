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
}
