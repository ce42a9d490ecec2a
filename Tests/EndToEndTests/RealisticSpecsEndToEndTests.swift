import Foundation
import Testing

/// `modkit pin`, `graph` and `guard` on spec files in the shape of real projects (see `RealisticSpecs`),
/// each rewritten file checked for what it contains and evaluated by the real tools.
@Suite struct RealisticSpecsEndToEndTests {
    func makeWorkspace() throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.write(RealisticSpecs.manifest, to: "ws/modkit.yml")
        try sandbox.write(RealisticSpecs.rootPodfileLock, to: "ws/Podfile.lock")
        for (name, text) in RealisticSpecs.firebase { try sandbox.write(text, to: "ws/firebase-ios-sdk/\(name)") }
        for (name, text) in RealisticSpecs.facebook { try sandbox.write(text, to: "ws/facebook-ios-sdk/\(name)") }
        for (name, text) in RealisticSpecs.swiftLog { try sandbox.write(text, to: "ws/swift-log/\(name)") }
        for (name, text) in RealisticSpecs.appShell { try sandbox.write(text, to: "ws/app-shell/\(name)") }
        try writeBytes(RealisticSpecs.latinPodspec, to: "ws/LatinKit/LatinKit.podspec", in: sandbox)
        try writeBytes(RealisticSpecs.crlfPodspec, to: "ws/CRLFKit/CRLFKit.podspec", in: sandbox)
        return sandbox
    }

    func writeBytes(_ bytes: [UInt8], to relative: String, in sandbox: Sandbox) throws {
        let url = sandbox.url(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }

    func bytes(_ relative: String, in sandbox: Sandbox) throws -> [UInt8] { [UInt8](try Data(contentsOf: sandbox.url(relative))) }

    /// Every file below `ws`, by path, with its bytes.
    func snapshot(_ sandbox: Sandbox) throws -> [String: [UInt8]] {
        let root = sandbox.url("ws")
        var result: [String: [UInt8]] = [:]
        for case let url as URL in FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)! where !url.hasDirectoryPath {
            result[url.path] = [UInt8](try Data(contentsOf: url))
        }
        return result
    }

    func replacing(_ bytes: [UInt8], _ old: String, _ new: String) -> [UInt8] {
        let old = Array(old.utf8), new = Array(new.utf8)
        var result: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index...].starts(with: old) { result += new; index += old.count } else { result.append(bytes[index]); index += 1 }
        }
        return result
    }

    @Test(.timeLimit(.minutes(5)))
    func pinRewritesOnlyTheRequirementSpansAndTheRealToolsAgree() throws {
        let sandbox = try makeWorkspace()
        let before = try snapshot(sandbox)

        let check = try sandbox.modkit("pin", "--check", in: "ws")
        #expect(check.status == 1, "\(check)")
        let report = check.out + check.err
        // One `path:line:` per finding, at the requirement's line; lockstep interpolations are no finding.
        let auth = "firebase-ios-sdk/FirebaseAuth.podspec"
        #expect(check.out.contains("\(auth):29: 'FirebaseCore' is loose ('~> 12.19.0'); pin: 12.19.0"), "\(report)")
        #expect(check.out.contains("\(auth):30: 'FirebaseCoreExtension' is loose ('~> 12.19.0'); pin: 12.19.0"), "\(report)")
        #expect(check.out.contains("\(auth):32: 'GTMSessionFetcher/Core' is loose ('>= 3.4', '< 6.0'); pin: 3.5.0"), "\(report)")
        #expect(check.out.contains("firebase-ios-sdk/FirebaseCore.podspec:29: 'FirebaseCoreInternal' is loose ('~> 12.19.0'); pin: 12.19.0"), "\(report)")
        #expect(!report.contains("facebook-ios-sdk"), "lockstep \"#{s.version}\" is exact by construction:\n\(report)")
        #expect(report.components(separatedBy: "\(auth):32:").count == 2, "one finding per requirement:\n\(report)")
        #expect(check.out.contains("app-shell/Example/Podfile:7: 'Kingfisher' is loose ('~> 7.10'); pin: 7.6.0 (warning: 7.6.0 lies outside the requirement's own range)"), "\(report)")
        #expect(check.err.contains("warning: app-shell/App/Package.swift:12: 'swift-snapshot-testing' cannot verify"), "\(report)")
        #expect(check.err.contains("warning: app-shell/Cartfile:5: 'Nimble' cannot verify"), "\(report)")
        #expect(report.contains("is not a version"), "\(report)")
        #expect(try snapshot(sandbox) == before, "--check changes nothing")

        let pin = try sandbox.modkit("pin", in: "ws")
        #expect(pin.status == 0, "what modkit cannot verify is a warning without --strict:\n\(pin)")

        // Several podspecs in one directory: each pod is pinned to its sibling's version.
        let authText = RealisticSpecs.firebase["FirebaseAuth.podspec"]!
        #expect(try sandbox.read("ws/\(auth)") == authText
            .replacingOccurrences(of: "'FirebaseCore', '~> 12.19.0'", with: "'FirebaseCore', '12.19.0'")
            .replacingOccurrences(of: "'FirebaseCoreExtension', '~> 12.19.0'", with: "'FirebaseCoreExtension', '12.19.0'")
            .replacingOccurrences(of: "'GoogleUtilities/AppDelegateSwizzler', '~> 8.1'", with: "'GoogleUtilities/AppDelegateSwizzler', '8.1.0'")
            .replacingOccurrences(of: "'GTMSessionFetcher/Core', '>= 3.4', '< 6.0'", with: "'GTMSessionFetcher/Core', '3.5.0'")
            .replacingOccurrences(of: "unit_tests.dependency 'OCMock'", with: "unit_tests.dependency 'OCMock', '3.9.4'"))
        // Lockstep: byte-identical.
        for (name, text) in RealisticSpecs.facebook { #expect(try sandbox.read("ws/facebook-ios-sdk/\(name)") == text) }
        // ISO-8859-1: every byte but the requirement's stays.
        #expect(try bytes("ws/LatinKit/LatinKit.podspec", in: sandbox)
            == replacing(RealisticSpecs.latinPodspec, "'FirebaseCore', '~> 12.0'", "'FirebaseCore', '12.19.0'"))
        // CRLF with a BOM: LatinKit's version was read from the Latin-1 file; the CRLF file keeps its endings.
        #expect(try bytes("ws/CRLFKit/CRLFKit.podspec", in: sandbox)
            == replacing(RealisticSpecs.crlfPodspec, "spec.dependency \"LatinKit\"\r\n", "spec.dependency \"LatinKit\", \"2.3.0\"\r\n"))
        // Hyphenated package names, a `branch:` package pinned to its resolved revision, a computed version left alone.
        #expect(try sandbox.read("ws/app-shell/App/Package.swift") == RealisticSpecs.appShell["App/Package.swift"]!
            .replacingOccurrences(of: "swift-log.git\", from: \"1.5.0\"", with: "swift-log.git\", exact: \"1.6.1\"")
            .replacingOccurrences(of: "branch: \"main\"", with: "revision: \"\(RealisticSpecs.collectionsRevision)\""))
        // `:git`/`:branch` pinned to the locked commit; CRLFKit's version read from the CRLF podspec.
        #expect(try sandbox.read("ws/app-shell/Example/Podfile") == RealisticSpecs.appShell["Example/Podfile"]!
            .replacingOccurrences(of: "pod 'FirebaseAuth', '~> 12.19.0'", with: "pod 'FirebaseAuth', '12.19.0'")
            .replacingOccurrences(of: "pod 'CRLFKit'", with: "pod 'CRLFKit', '4.1.0'")
            .replacingOccurrences(of: "pod 'Kingfisher', '~> 7.10'", with: "pod 'Kingfisher', '7.6.0'")
            .replacingOccurrences(of: ":branch => 'master'", with: ":commit => '\(RealisticSpecs.sdWebImageCommit)'"))
        // Carthage: `== 15.0.3` for the `v15.0.3` tag, a branch becomes its commit, a tag that is no version stays.
        #expect(try sandbox.read("ws/app-shell/Cartfile") == RealisticSpecs.appShell["Cartfile"]!
            .replacingOccurrences(of: "\"Moya/Moya\" ~> 15.0", with: "\"Moya/Moya\" == 15.0.3")
            .replacingOccurrences(of: "\"ReactiveCocoa/ReactiveSwift\" ~> 7.1", with: "\"ReactiveCocoa/ReactiveSwift\" == 7.1.1")
            .replacingOccurrences(of: "\"master\"", with: "\"\(RealisticSpecs.xcconfigsCommit)\""))

        // Twice changes nothing; --check then passes.
        let pinned = try snapshot(sandbox)
        let again = try sandbox.modkit("pin", in: "ws")
        #expect(again.status == 0 && again.out.contains("every requirement is already pinned"), "\(again)")
        #expect(try snapshot(sandbox) == pinned)
        let recheck = try sandbox.modkit("pin", "--check", in: "ws")
        #expect(recheck.status == 0, "\(recheck)")
        #expect(try sandbox.modkit("pin", "--check", "--strict", in: "ws").status == 1, "--strict fails on what cannot be verified")

        try evaluate(sandbox)
    }

    /// Ruby evaluates every podspec and the Podfile with exactly the pinned versions; SwiftPM reads the exact requirement.
    func evaluate(_ sandbox: Sandbox) throws {
        let ruby = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("SpecKitTests/Ruby")
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/ruby") || (try? sandbox.run("/usr/bin/env", ["ruby", "-v"], in: sandbox.root).status) == 0,
                     "ruby is needed (scripts/test.sh installs it)")
        let podspecs = ["firebase-ios-sdk/FirebaseAuth.podspec", "firebase-ios-sdk/FirebaseCore.podspec", "LatinKit/LatinKit.podspec",
                        "CRLFKit/CRLFKit.podspec", "facebook-ios-sdk/FBSDKCoreKit.podspec"]
        var declared: [String: [String]] = [:]
        for podspec in podspecs {
            let result = try sandbox.run("/usr/bin/env", ["ruby", "-r", ruby.appendingPathComponent("pod_spec_stub.rb").path, sandbox.url("ws/" + podspec).path], in: sandbox.root)
            try #require(result.status == 0, "ruby rejects \(podspec): \(result.err)")
            for entry in try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [[String: Any]]) {
                declared[entry["name"] as! String] = entry["requirements"] as? [String]
            }
        }
        #expect(declared["FirebaseCore"] == ["12.19.0"] && declared["GTMSessionFetcher/Core"] == ["3.5.0"] && declared["OCMock"] == ["3.9.4"], "\(declared)")
        #expect(declared["LatinKit"] == ["2.3.0"], "\(declared)")
        let podfile = try sandbox.run("/usr/bin/env", ["ruby", "-r", ruby.appendingPathComponent("podfile_stub.rb").path, sandbox.url("ws/app-shell/Example/Podfile").path], in: sandbox.root)
        try #require(podfile.status == 0, "ruby rejects the Podfile: \(podfile.err)")
        let pods = try #require(try JSONSerialization.jsonObject(with: Data(podfile.out.utf8)) as? [[String: Any]])
        let sdWebImage = try #require(pods.first { $0["name"] as? String == "SDWebImage" })
        #expect(sdWebImage["options"] as? [String] == ["git", "commit"], "\(sdWebImage)")
        #expect(pods.first { $0["name"] as? String == "CRLFKit" }?["requirements"] as? [String] == ["4.1.0"])

        let dump = try sandbox.run("/usr/bin/env", ["swift", "package", "dump-package", "--package-path", sandbox.url("ws/app-shell/App").path], in: sandbox.root)
        try #require(dump.status == 0, "dump-package rejects the pinned manifest: \(dump.err)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(dump.out.utf8)) as? [String: Any])
        var requirements: [String: [String: Any]] = [:]
        for dependency in json["dependencies"] as? [[String: Any]] ?? [] {
            for entry in dependency["sourceControl"] as? [[String: Any]] ?? [] {
                requirements[entry["identity"] as! String] = entry["requirement"] as? [String: Any]
            }
        }
        #expect(requirements["swift-log"]?["exact"] as? [String] == ["1.6.1"], "\(requirements)")
        #expect(requirements["swift-collections"]?["revision"] as? [String] == [RealisticSpecs.collectionsRevision], "\(requirements)")
    }

    @Test func graphListsThePodsOfOneDirectoryAndHyphenatedModules() throws {
        let sandbox = try makeWorkspace()
        let graph = try sandbox.modkit("graph", "--json", in: "ws")
        #expect(graph.status == 0, "\(graph)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(graph.out.utf8)) as? [String: Any])
        let order = try #require(json["order"] as? [String])
        #expect(order.firstIndex(of: "LatinKit")! < order.firstIndex(of: "CRLFKit")!)
        #expect(order.firstIndex(of: "swift-log")! < order.firstIndex(of: "app-shell")!)
        let dependencies = try #require(json["dependencies"] as? [String: [String]])
        #expect(Set(dependencies["app-shell"] ?? []) == ["swift-log", "firebase-ios-sdk", "CRLFKit"], "\(dependencies)")
        let pods = try #require(json["pods"] as? [String: [String: [String]]])
        #expect(pods["firebase-ios-sdk"]?["FirebaseAuth"] == ["FirebaseCore", "FirebaseCoreExtension"], "\(pods)")
        #expect(pods["firebase-ios-sdk"]?["FirebaseCore"] == ["FirebaseCoreInternal"], "\(pods)")
        #expect(pods["facebook-ios-sdk"]?["FBSDKCoreKit"] == ["FBSDKCoreKit_Basics", "FBAEMKit"], "\(pods)")
    }

    @Test func guardDerivesIdentifiersFromPackageNames() throws {
        let sandbox = try makeWorkspace()
        let result = try sandbox.modkit("guard", "swift-log", "app-shell", in: "ws")
        #expect(result.status == 0, "\(result)")
        let guardFile = try sandbox.read("ws/app-shell/Generated/app_shellVersion.swift")
        #expect(guardFile.contains("import swift_log") && guardFile.contains("swift_logModuleVersionGuard.RequiredByapp_shell"), "\(guardFile)")
        #expect(try sandbox.read("ws/swift-log/Generated/swift_logVersion.h").contains("#define swift_logModuleVersionNumber 1006001"))
    }

    /// Several podspecs in one module: each pod is guarded on its own, lockstep `"#{s.version}"` and `s.version.to_s` included.
    @Test func everyPodOfAModuleWithSeveralPodspecsHasItsOwnGuard() throws {
        let sandbox = try makeWorkspace()
        let result = try sandbox.modkit("guard", "facebook-ios-sdk", "firebase-ios-sdk", "LatinKit", in: "ws")
        #expect(result.status == 0, "\(result)")
        let written = Set(result.out.split(separator: "\n").map { String($0.dropFirst("wrote ".count)) })
        let pods = ["FBSDKCoreKit_Basics", "FBAEMKit", "FBSDKCoreKit", "FBSDKLoginKit"].map { "facebook-ios-sdk/Generated/\($0)Version" }
            + ["FirebaseCoreInternal", "FirebaseCore", "FirebaseCoreExtension", "FirebaseAuth"].map { "firebase-ios-sdk/Generated/\($0)Version" }
            + ["LatinKit/Generated/LatinKitVersion"]
        #expect(written == Set(pods.flatMap { ["\($0).h", "\($0).swift"] }), "\(result.out)")
        let login = try sandbox.read("ws/facebook-ios-sdk/Generated/FBSDKLoginKitVersion.swift")
        #expect(login.contains("FBSDKLoginKit 18.0.0 requires FBSDKCoreKit 18.0.0, not this version.") && !login.contains("FBAEMKit"), "\(login)")
        let coreKit = try sandbox.read("ws/facebook-ios-sdk/Generated/FBSDKCoreKitVersion.h")
        #expect(coreKit.contains("FBSDKCoreKit_BasicsModuleVersionNumber != 18000000") && coreKit.contains("FBAEMKitModuleVersionNumber != 18000000"), "\(coreKit)")
        let auth = try sandbox.read("ws/firebase-ios-sdk/Generated/FirebaseAuthVersion.swift")
        #expect(auth.contains("import FirebaseCore\nimport FirebaseCoreExtension\n") && auth.contains("FirebaseAuth 12.19.0 requires FirebaseCore 12.19.0, not this version."), "\(auth)")
        #expect(try sandbox.read("ws/LatinKit/Generated/LatinKitVersion.swift").contains("LatinKit 2.3.0 requires FirebaseCore 12.19.0, not this version."))
        #expect(try sandbox.modkit("guard", "--check", "facebook-ios-sdk", "firebase-ios-sdk", "LatinKit", in: "ws").status == 0)
    }

    @Test func aGitBranchWithoutALockEntryIsReportedAndLeftAlone() throws {
        let sandbox = try Sandbox()
        try sandbox.write("version: 1\nworkspace: W\nmodules:\n  - name: App\n    path: App\n", to: "ws/modkit.yml")
        let podfile = "target 'App' do\n  pod 'Kingfisher', :git => 'https://github.com/onevcat/Kingfisher.git', :branch => 'master'\nend\n"
        try sandbox.write(podfile, to: "ws/App/Podfile")
        let result = try sandbox.modkit("pin", in: "ws")
        #expect(result.status == 1)
        #expect(result.err.contains("App/Podfile:2: 'Kingfisher' is loose (:branch => 'master') and no version is known to pin it to: no lock file records its commit"), "\(result)")
        #expect(try sandbox.read("ws/App/Podfile") == podfile)
    }

    @Test func moduleNamesThatCollideAfterDerivationAreRejected() throws {
        let sandbox = try Sandbox()
        try sandbox.write("version: 1\nworkspace: W\nmodules:\n  - name: swift-log\n    path: a\n  - name: swift_log\n    path: b\n", to: "ws/modkit.yml")
        let result = try sandbox.modkit("graph", in: "ws")
        #expect(result.status == 2)
        #expect(result.err.contains("modkit.yml:6:11: error: module names 'swift-log' and 'swift_log' both become the identifier 'swift_log'"), "\(result)")
    }
}

/// Inputs that once crashed the binary or took many seconds: every command answers quickly with 0, 1 or 2, never a trap.
@Suite struct HostileSpecsEndToEndTests {
    // Each command is timed inside; the limit only guards against a hang (a loaded test pool may start the body late).
    @Test(.timeLimit(.minutes(10)))
    func anUnterminatedInterpolationAndLongRunsAreAnsweredQuickly() throws {
        let sandbox = try Sandbox()
        try sandbox.write("version: 1\nworkspace: W\nmodules:\n  - name: Pod\n    path: Pod\n  - name: Pkg\n    path: Pkg\n", to: "ws/modkit.yml")
        try sandbox.write("s.dependency\"#{\"", to: "ws/Pod/Pod.podspec")
        try sandbox.write("0.1.0\n", to: "ws/Pod/VERSION")
        try sandbox.write(String(repeating: "#", count: 16_384) + "\n\"" + String(repeating: " ", count: 16_384), to: "ws/Pkg/Package.swift")
        try sandbox.write("0.1.0\n", to: "ws/Pkg/VERSION")
        for arguments in [["pin"], ["pin", "--check"], ["graph"], ["guard", "--check"]] {
            let clock = ContinuousClock()
            var result: ProcessResult!
            let elapsed = try clock.measure { result = try sandbox.run(Sandbox.modkitBinary.path, arguments, in: sandbox.url("ws")) }
            #expect([0, 1, 2].contains(result.status), "\(arguments): \(result!)")
            #expect(!result.err.contains("Fatal error"), "\(arguments): \(result!)")
            #expect(elapsed < .seconds(10), "\(arguments) took \(elapsed)")
            if result.status != 0 { #expect((result.out + result.err).contains(":"), "a failure says where: \(arguments): \(result!)") }
        }
        let pin = try sandbox.modkit("pin", in: "ws")
        #expect(pin.status == 0 || pin.err.contains("Pod/Pod.podspec:1:"), "a finding is located: \(pin)")
        #expect(try sandbox.read("ws/Pod/Pod.podspec") == "s.dependency\"#{\"", "an unreadable requirement is left byte-identical")
    }
}
