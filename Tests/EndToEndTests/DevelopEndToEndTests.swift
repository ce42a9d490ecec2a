import Foundation
import Testing

/// `modkit develop` on CocoaPods consumers, run as the binary: the Podfiles Ruby evaluates point at the checkouts,
/// `--off` gives back every byte, and bad input changes nothing.
@Suite struct DevelopEndToEndTests {
    @Test func podfileEntriesPointAtTheCheckoutsAndOffRestoresEveryByte() throws {
        let sandbox = try Sandbox()
        try sandbox.makePodWorkspace()
        try sandbox.writeBytes(Sandbox.appPodfile, to: "ws/Apps/App/Podfile")
        try sandbox.write("target \"Shell\" do\n  pod \"Feature\" # only the feature\nend", to: "ws/Podfile")   // manifest repository, no final newline
        let shellPodfile = try #require(sandbox.bytes("ws/Podfile"))

        let develop = try sandbox.modkit("develop", "Core", "Network", in: "ws")
        #expect(develop.status == 0, "\(develop)")
        #expect(develop.out.contains("rewrote Apps/App/Podfile") && develop.out.contains("rewrote Podfile"), "\(develop.out)")

        // The exact bytes: only the developed pods' lines change or are added; CRLF, comments, Latin-1 and the :git pod stay.
        var expected = Array("platform :ios, '13.0'\r\n# The app: Core and the feature pods; Caf".utf8) + [0xE9] + Array("\r\n".utf8)
        expected += Array("""
        target 'App' do\r
          use_frameworks!\r
          pod 'Core', :path => '../../Modules/Core' # the foundation\r
          pod 'Feature', '~> 1.0', :modular_headers => true\r
          pod 'Network', :path => '../../Modules/Network'\r
          pod 'Alamofire', :git => 'https://github.com/Alamofire/Alamofire.git', :tag => '5.8.0'\r
        end\r

        """.utf8)
        #expect(sandbox.bytes("ws/Apps/App/Podfile") == Data(expected), "\(String(decoding: sandbox.bytes("ws/Apps/App/Podfile") ?? Data(), as: UTF8.self))")
        #expect(try sandbox.read("ws/Podfile") == "target \"Shell\" do\n  pod \"Feature\" # only the feature\n  pod \"Core\", :path => \"Modules/Core\"\n  pod \"Network\", :path => \"Modules/Network\"\nend")

        // Ruby reads the :path entries, and they lead to the modules' folders.
        let pods = try sandbox.evaluatePodfile("ws/Apps/App/Podfile")
        let byName = Dictionary(pods.map { ($0["name"] as! String, $0) }, uniquingKeysWith: { first, _ in first })
        #expect(Set(byName.keys) == ["Core", "Feature", "Network", "Alamofire"], "\(pods)")
        #expect(sandbox.resolvedPodPath(byName["Core"]?["path"] as? String ?? "", podfile: "ws/Apps/App/Podfile") == sandbox.url("ws/Modules/Core").path)
        #expect(sandbox.resolvedPodPath(byName["Network"]?["path"] as? String ?? "", podfile: "ws/Apps/App/Podfile") == sandbox.url("ws/Modules/Network").path)
        #expect(byName["Network"]?["target"] as? String == "App" && byName["Core"]?["requirements"] as? [String] == [])
        #expect(byName["Feature"]?["requirements"] as? [String] == ["~> 1.0"] && byName["Feature"]?["path"] is NSNull)
        #expect(byName["Alamofire"]?["options"] as? [String] == ["git", "tag"])
        let shell = try sandbox.evaluatePodfile("ws/Podfile")
        #expect(shell.compactMap { $0["path"] as? String }.map { sandbox.resolvedPodPath($0, podfile: "ws/Podfile") }
                == [sandbox.url("ws/Modules/Core").path, sandbox.url("ws/Modules/Network").path], "\(shell)")

        // The list names each module, its consumers and since when; the state is private to this developer.
        let list = try sandbox.modkit("develop", "--json", in: "ws")
        #expect(list.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(list.out.utf8)) as? [String: Any])
        let overrides = try #require(json["overrides"] as? [[String: Any]])
        #expect(overrides.map { $0["module"] as? String } == ["Core", "Network"])
        #expect(overrides.first?["files"] as? [String] == ["Apps/App/Podfile", "Podfile"])
        #expect((overrides.first?["since"] as? String)?.hasSuffix("Z") == true)
        #expect(try sandbox.git("status", "--porcelain", "--ignored", ".modkit", in: "ws").hasPrefix("!! .modkit/"), "the state is ignored by git")

        // Running it again changes nothing; --off gives back every byte.
        let again = try sandbox.modkit("develop", "Core", in: "ws")
        #expect(again.status == 0 && !again.out.contains("rewrote"), "\(again)")
        let off = try sandbox.modkit("develop", "--off", in: "ws")
        #expect(off.status == 0, "\(off)")
        #expect(sandbox.bytes("ws/Apps/App/Podfile") == Sandbox.appPodfile)
        #expect(sandbox.bytes("ws/Podfile") == shellPodfile)
        #expect(try sandbox.modkit("develop", in: "ws").out.contains("No module is overridden"))
    }

    @Test func aTrackedPodfileTwoLevelsDownPointsAtTheCheckoutFromItsOwnFolder() throws {
        let sandbox = try Sandbox()
        try sandbox.makePodWorkspace()
        let podfile = "target 'App' do\n  use_frameworks!\n  pod 'Core', '~> 1.2'\n  pod 'Feature', '~> 1.0'\nend\n"
        try sandbox.write(podfile, to: "ws/Apps/App/ios/App/Podfile")
        try sandbox.write(podfile, to: "ws/Apps/App/ios/Pods/Local/Podfile")   // inside CocoaPods' output: never a consumer
        // Core's example app uses Core's folder already: that line stays as written, the Network one changes.
        let example = "platform :ios, '13.0'\ntarget 'Example' do\n  pod \"Core\", :path => \"../\"\n  pod 'Network', '~> 2.0'\nend\n"
        try sandbox.write(example, to: "ws/Modules/Core/Example/Podfile")
        try sandbox.git("add", "Apps/App/ios", "Modules/Core/Example", in: "ws")
        try sandbox.write(podfile, to: "ws/Apps/App/scratch/Podfile")   // not tracked: never a consumer

        let develop = try sandbox.modkit("develop", "Core", "Network", in: "ws")
        #expect(develop.status == 0 && develop.out.contains("rewrote Apps/App/ios/App/Podfile"), "\(develop)")
        #expect(try sandbox.read("ws/Apps/App/ios/App/Podfile") == """
        target 'App' do
          use_frameworks!
          pod 'Core', :path => '../../../../Modules/Core'
          pod 'Feature', '~> 1.0'
          pod 'Network', :path => '../../../../Modules/Network'
        end

        """)
        let pods = try sandbox.evaluatePodfile("ws/Apps/App/ios/App/Podfile")
        let paths = Dictionary(pods.compactMap { pod in (pod["path"] as? String).map { (pod["name"] as! String, $0) } }, uniquingKeysWith: { first, _ in first })
        #expect(paths.mapValues { sandbox.resolvedPodPath($0, podfile: "ws/Apps/App/ios/App/Podfile") }
                == ["Core": sandbox.url("ws/Modules/Core").path, "Network": sandbox.url("ws/Modules/Network").path], "\(pods)")
        #expect(try sandbox.read("ws/Modules/Core/Example/Podfile") == example.replacingOccurrences(of: "'Network', '~> 2.0'", with: "'Network', :path => '../../Network'"))
        #expect(try sandbox.read("ws/Apps/App/ios/Pods/Local/Podfile") == podfile)
        #expect(try sandbox.read("ws/Apps/App/scratch/Podfile") == podfile)

        #expect(try sandbox.modkit("develop", "--off", in: "ws").status == 0)
        #expect(try sandbox.read("ws/Apps/App/ios/App/Podfile") == podfile)
        #expect(try sandbox.read("ws/Modules/Core/Example/Podfile") == example)
    }

    @Test func offForOneModuleKeepsTheOthers() throws {
        let sandbox = try Sandbox()
        try sandbox.makePodWorkspace()
        try sandbox.writeBytes(Sandbox.appPodfile, to: "ws/Apps/App/Podfile")
        #expect(try sandbox.modkit("develop", "Core", in: "ws").status == 0)
        let onlyCore = try #require(sandbox.bytes("ws/Apps/App/Podfile"))
        #expect(try sandbox.modkit("develop", "Network", in: "ws").status == 0)
        #expect(sandbox.bytes("ws/Apps/App/Podfile") != onlyCore)
        #expect(try sandbox.modkit("develop", "--off", "Network", in: "ws").status == 0)
        #expect(sandbox.bytes("ws/Apps/App/Podfile") == onlyCore, "back to the file with only Core overridden")
        #expect(try sandbox.modkit("develop", "--off", "Core", in: "ws").status == 0)
        #expect(sandbox.bytes("ws/Apps/App/Podfile") == Sandbox.appPodfile)
    }

    @Test func aPodfileChangedByHandSinceDevelopIsNeverOverwritten() throws {
        let sandbox = try Sandbox()
        try sandbox.makePodWorkspace()
        try sandbox.writeBytes(Sandbox.appPodfile, to: "ws/Apps/App/Podfile")
        let develop = try sandbox.modkit("develop", "Core", "--json", in: "ws")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(develop.out.utf8)) as? [String: Any])
        #expect((json["changes"] as? [[String: Any]])?.map { $0["path"] as? String } == ["Apps/App/Podfile"], "\(develop.out)")
        var edited = try #require(sandbox.bytes("ws/Apps/App/Podfile"))
        edited.append(Data("# mine\r\n".utf8))
        try sandbox.writeBytes(edited, to: "ws/Apps/App/Podfile")

        let off = try sandbox.modkit("develop", "--off", in: "ws")
        #expect(off.status == 1 && off.err.contains("Apps/App/Podfile changed since 'modkit develop' rewrote it"), "\(off)")
        #expect(sandbox.bytes("ws/Apps/App/Podfile") == edited, "the hand edit is kept")
        #expect(try sandbox.modkit("develop", "Network", in: "ws").status == 1)
        #expect(sandbox.bytes("ws/Apps/App/Podfile") == edited)
        #expect(try sandbox.modkit("develop", "--json", in: "ws").out.contains("\"module\" : \"Core\""), "Core stays overridden")
    }

    @Test func badInputExitsTwoAndChangesNothing() throws {
        let sandbox = try Sandbox()
        try sandbox.makePodWorkspace()
        try sandbox.writeBytes(Sandbox.appPodfile, to: "ws/Apps/App/Podfile")

        let unknown = try sandbox.modkit("develop", "Coer", in: "ws")
        #expect(unknown.status == 2 && unknown.err.contains("no module named 'Coer' (did you mean 'Core'?)"), "\(unknown)")

        try sandbox.write("target 'Broken' do\n  pod 'Core', '~> 1.0'\n", to: "ws/Podfile")
        let broken = try sandbox.modkit("develop", "Core", in: "ws")
        #expect(broken.status == 2 && broken.err.contains("Podfile:1:17:"), "\(broken)")

        try sandbox.write("core_version = '~> 1.0'\ntarget 'Shell' do\n  pod 'Core', core_version\nend\n", to: "ws/Podfile")
        let computed = try sandbox.modkit("develop", "Core", in: "ws")
        #expect(computed.status == 2 && computed.err.contains("Podfile:3:15:") && computed.err.contains("computed in code"), "\(computed)")
        try FileManager.default.removeItem(at: sandbox.url("ws/Podfile"))

        try FileManager.default.removeItem(at: sandbox.url("ws/Modules/Network"))
        let missing = try sandbox.modkit("develop", "Network", in: "ws")
        #expect(missing.status == 2 && missing.err.contains("Network is not cloned"), "\(missing)")

        #expect(sandbox.bytes("ws/Apps/App/Podfile") == Sandbox.appPodfile)
        #expect(!FileManager.default.fileExists(atPath: sandbox.url("ws/.modkit/develop/state.json").path))
    }
}

/// While an override is active, nothing that records or publishes versions runs.
@Suite struct DevelopGuardEndToEndTests {
    @Test func tagReleaseAndPinRefuseWhileAnOverrideIsOn() throws {
        let sandbox = try Sandbox()
        try sandbox.makePodWorkspace()
        try sandbox.writeBytes(Sandbox.appPodfile, to: "ws/Apps/App/Podfile")
        try sandbox.git("add", "-A", in: "ws")
        try sandbox.git("commit", "-qm", "feat: the workspace", in: "ws")
        #expect(try sandbox.modkit("develop", "Core", "Network", in: "ws").status == 0)
        let overridden = try #require(sandbox.bytes("ws/Apps/App/Podfile"))
        let head = try sandbox.git("rev-parse", "HEAD", in: "ws")

        for arguments in [["tag", "v1"], ["release", "2026.1", "--yes"], ["pin"], ["pin", "--check"]] {
            let refused = try sandbox.run(Sandbox.modkitBinary.path, arguments, in: sandbox.url("ws"))
            #expect(refused.status == 1, "\(arguments): \(refused)")
            #expect(refused.err.contains("local overrides are active for Core, Network") && refused.err.contains("modkit develop --off"),
                    "\(arguments): \(refused.err)")
        }
        #expect(try sandbox.git("tag", "--list", in: "ws").isEmpty, "no tag was created")
        #expect(try sandbox.git("rev-parse", "HEAD", in: "ws") == head, "no commit was made")
        #expect(sandbox.bytes("ws/Apps/App/Podfile") == overridden, "pin changed nothing")
        #expect(!FileManager.default.fileExists(atPath: sandbox.url("ws/.modkit/release").path), "release saved no state")

        // The plan and the dry run still show what a release would do; sync goes on and says so; status lists them.
        let plan = try sandbox.modkit("release", "2026.1", "--plan", in: "ws")
        #expect(plan.status == 0 && plan.out.contains("Core"), "\(plan)")
        let dryRun = try sandbox.modkit("release", "2026.1", "--dry-run", in: "ws")
        #expect(!dryRun.err.contains("local overrides are active"), "\(dryRun)")
        let sync = try sandbox.modkit("sync", in: "ws")
        #expect(sync.err.contains("local overrides are active (modkit develop): Core, Network"), "\(sync)")
        let status = try sandbox.modkit("status", "--json", in: "ws")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(status.out.utf8)) as? [String: Any])
        #expect(json["overrides"] as? [String] == ["Core", "Network"], "\(status)")
        #expect(try sandbox.modkit("status", in: "ws").err.contains("local overrides are active"))

        // Off: pin --check and tag run again.
        #expect(try sandbox.modkit("develop", "--off", in: "ws").status == 0)
        #expect(sandbox.bytes("ws/Apps/App/Podfile") == Sandbox.appPodfile)
        #expect(!(try sandbox.modkit("pin", "--check", in: "ws")).err.contains("local overrides"))
        let tag = try sandbox.modkit("tag", "v1", in: "ws")
        #expect(tag.status == 0, "\(tag)")
    }
}
