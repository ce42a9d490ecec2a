import Foundation
import Testing

/// Bad input to any command: exit 2, and the first line on stderr starts with `modkit: error:`.
@Suite struct ErrorPrefixEndToEndTests {
    @Test func everyCommandRefusesBadInputWithThePrefixAndExit2() throws {
        let sandbox = try Sandbox()
        try sandbox.writeFlatWorkspace(["Alpha"], workspace: "Errors")
        try sandbox.git("init", "-q", "-b", "main", in: "ws")
        let sync = try sandbox.modkit("sync", in: "ws")
        #expect(sync.status == 0, "\(sync.err)")
        let invocations: [[String]] = [
            ["init", "--from", "x"], ["list", "Nope"], ["status", "Nope"], ["sync", "--depth", "x"], ["forall"],
            ["forall", "-c", "true", "-g", "nogroup"], ["affected", "--since", "no-such-ref"], ["start"], ["branches", "Nope"],
            ["push", "topic", "Nope"], ["abandon", ""], ["prune", "Nope"], ["graph", "--format", "x"], ["tag"],
            ["checkout", "no-such-snapshot"], ["snapshots", "extra"], ["diff", "no-such-snapshot"], ["pin", "--check", "Nope"],
            ["guard", "Nope"], ["new", "bad name", "--dry-run"], ["release"], ["export"], ["doctor", "Nope"], ["completion", "tcsh"],
            ["help", "nosuch"], ["nosuch"], ["-j", "0", "status"], ["status", "--nope"], ["export", "--format", "repo", "--json"],
        ]
        for arguments in invocations {
            let result = try sandbox.run(Sandbox.modkitBinary.path, arguments, in: sandbox.url("ws"))
            let first = result.err.split(separator: "\n").first.map(String.init) ?? ""
            #expect(result.status == 2 && first.hasPrefix("modkit: error: "), "modkit \(arguments.joined(separator: " ")): exit \(result.status): \(result.err)")
            #expect(result.out.isEmpty, "modkit \(arguments.joined(separator: " ")) printed a result: \(result.out)")
        }
    }
}
