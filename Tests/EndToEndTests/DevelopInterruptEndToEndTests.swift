import Foundation
import Testing

/// `modkit develop` and `develop --off` killed (SIGKILL) at random moments, some aimed at the moment its journal
/// exists: every consumer file is then wholly original or wholly overridden, and the next run completes.
@Suite(.serialized) struct DevelopInterruptEndToEndTests {
    static let consumers = ["Apps/App/Podfile", "Apps/Shop/Podfile", "Apps/Pay/Podfile", "Apps/Chat/Podfile", "Podfile"]
    /// The workspace `develop` writes for the Xcode project at the workspace root: absent when off, whole when on.
    static let xcodeWorkspace = "Shell.modkit-develop.xcworkspace/contents.xcworkspacedata"

    @Test func killNineDuringDevelopAndOffLeavesEveryFileWholeAndTheNextRunCompletes() throws {
        let sandbox = try Sandbox()
        try sandbox.makePodWorkspace()
        // Core is also a remote Swift package of an Xcode project at the workspace root.
        try sandbox.write(try sandbox.read("ws/modkit.yml").replacingOccurrences(of: "  - name: Core\n", with: "  - name: Core\n    url: https://git.example.com/ios/Core.git\n"),
                          to: "ws/modkit.yml")
        try sandbox.write(Sandbox.pbxproj(app: "Shell", remotes: [("https://git.example.com/ios/Core", "Core")]), to: "ws/Shell.xcodeproj/project.pbxproj")
        var original: [String: Data] = [:]
        for (index, consumer) in Self.consumers.enumerated() {
            // Long files, CRLF in some: the run has real work to do between its journal and its end.
            let newline = index % 2 == 0 ? "\r\n" : "\n"
            var text = "# consumer \(index)\(newline)target 'T\(index)' do\(newline)  pod 'Core', '~> 1.2'\(newline)  pod 'Feature'\(newline)"
            for line in 0..<400 { text += "  # padding line \(line) of a long Podfile\(newline)" }
            text += "end\(newline)"
            original[consumer] = Data(text.utf8)
            try sandbox.writeBytes(original[consumer]!, to: "ws/\(consumer)")
        }
        // The overridden bytes, from one uninterrupted run (timed, to spread the random kills over it).
        let started = Date()
        #expect(try sandbox.modkit("develop", "Core", "Network", in: "ws").status == 0)
        let duration = max(Date().timeIntervalSince(started), 0.05)
        var overridden: [String: Data] = [:]
        for consumer in Self.consumers { overridden[consumer] = sandbox.bytes("ws/\(consumer)") }
        #expect(overridden != original)
        let workspace = try #require(sandbox.bytes("ws/\(Self.xcodeWorkspace)"))
        #expect(try sandbox.modkit("develop", "--off", in: "ws").status == 0)
        #expect(Self.consumers.allSatisfy { sandbox.bytes("ws/\($0)") == original[$0] })

        var journalKills = 0
        var halfway = 0
        for round in 0..<10 {
            let on = round % 2 == 0
            let arguments = on ? ["develop", "Core", "Network"] : ["develop", "--off"]
            let process = try sandbox.spawnModkit(arguments, in: "ws")
            if round % 4 < 2 {
                if sandbox.kill(process, whenExists: "ws/.modkit/develop/journal", extra: 0.5 * duration) { journalKills += 1 }
            } else {
                usleep(UInt32(Double.random(in: 0.1...1.0) * duration * 1_000_000))
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
            for consumer in Self.consumers {
                let bytes = sandbox.bytes("ws/\(consumer)")
                #expect(bytes == original[consumer] || bytes == overridden[consumer], "round \(round): \(consumer) is neither original nor overridden")
            }
            let written = sandbox.bytes("ws/\(Self.xcodeWorkspace)")
            #expect(written == nil || written == workspace, "round \(round): the Xcode workspace is neither absent nor whole")
            // Stopped between two replacements: some consumers are overridden, others not yet (or no longer).
            let states = Set(Self.consumers.map { sandbox.bytes("ws/\($0)") == original[$0] })
            if states.count == 2 { halfway += 1 }
            let next = try sandbox.modkit(arguments, in: "ws")
            #expect(next.status == 0, "round \(round): \(next)")
            for consumer in Self.consumers {
                #expect(sandbox.bytes("ws/\(consumer)") == (on ? overridden : original)[consumer], "round \(round): \(consumer)")
            }
            #expect(sandbox.bytes("ws/\(Self.xcodeWorkspace)") == (on ? workspace : nil), "round \(round): the Xcode workspace")
            let list = try sandbox.modkit("develop", "--json", in: "ws")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(list.out.utf8)) as? [String: Any])
            #expect(((json["overrides"] as? [[String: Any]]) ?? []).count == (on ? 2 : 0), "round \(round): \(list.out)")
            #expect(!FileManager.default.fileExists(atPath: sandbox.url("ws/.modkit/develop/journal").path))
        }
        #expect(journalKills >= 2, "only \(journalKills) kills landed once the journal existed")
        // Some kills must stop a run between two file replacements (some consumers overridden, others not), or the test proves little.
        #expect(halfway >= 1, "no kill landed between two file replacements (\(journalKills) after the journal)")
        #expect(Self.consumers.allSatisfy { sandbox.bytes("ws/\($0)") == original[$0] })
        #expect(!FileManager.default.fileExists(atPath: sandbox.url("ws/Shell.modkit-develop.xcworkspace").path))
    }
}
