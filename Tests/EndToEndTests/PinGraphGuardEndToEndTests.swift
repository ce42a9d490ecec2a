import Foundation
import Testing

/// `modkit pin`, `graph` and `guard` run as a binary on a workspace of directory modules with real spec files.
@Suite struct PinGraphGuardEndToEndTests {
    /// Core 1.0.1; Network 2.0.0 → Core (loose podspec, loose Package.swift); App → Network (loose Podfile), Core (exact, stale).
    func makeWorkspace() throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.write("""
        version: 1
        workspace: Pins
        modules:
          - name: Core
            path: Modules/Core
          - name: Network
            path: Modules/Network
          - name: App
            path: Modules/App
        """, to: "ws/modkit.yml")
        try sandbox.write("Pod::Spec.new do |s|\n  s.name = 'Core'\n  s.version = '1.0.1'\nend\n", to: "ws/Modules/Core/Core.podspec")
        try sandbox.write("""
        Pod::Spec.new do |spec|
          spec.name    = 'Network'
          spec.version = '2.0.0'
          spec.swift_version = '5.0'
          # Core is our foundation module.
          spec.dependency 'Core', '~> 1.0' # keep in step
        end

        """, to: "ws/Modules/Network/Network.podspec")
        try sandbox.write("""
        // swift-tools-version:5.9
        import PackageDescription

        let package = Package(
            name: "Network",
            dependencies: [
                .package(path: "../Core"),
                .package(url: "https://git.example.com/ios/Core.git", from: "1.0.0"),
            ],
            targets: [.target(name: "Network", dependencies: ["Core"])]
        )

        """, to: "ws/Modules/Network/Package.swift")
        try sandbox.write("1.5.0\n", to: "ws/Modules/App/VERSION")
        try sandbox.write("""
        platform :ios, '13.0'
        target 'App' do
          pod 'Network'
          pod 'Core', '1.0.0'
          pod 'Local', :path => '../Local'
        end

        """, to: "ws/Modules/App/Podfile")
        return sandbox
    }

    @Test func checkListsExactlyTheLooseRequirementsThenPinFixesThem() throws {
        let sandbox = try makeWorkspace()
        let check = try sandbox.modkit("pin", "--check", in: "ws")
        #expect(check.status == 1)
        let lines = check.out.split(separator: "\n").map(String.init)
        #expect(lines == [
            "Modules/Network/Network.podspec:6: 'Core' is loose ('~> 1.0'); pin: 1.0.1",
            "Modules/Network/Package.swift:8: 'Core' is loose ('from: \"1.0.0\"'); pin: 1.0.1",
            "Modules/App/Podfile:3: 'Network' is loose (no version requirement); pin: 2.0.0",
            "Modules/App/Podfile:4: 'Core' is pinned to a stale version ('1.0.0'); pin: 1.0.1",
        ], "\(check.out)\n\(check.err)")
        #expect(check.err.contains("Modules/Network/Package.swift:7: 'Core' is a local path link"))
        #expect(check.err.contains("Modules/App/Podfile:5: 'Local' is a local path link"))

        let dryRun = try sandbox.modkit("pin", "--dry-run", in: "ws")
        #expect(dryRun.status == 0)
        #expect(dryRun.out.contains("-  spec.dependency 'Core', '~> 1.0' # keep in step\n+  spec.dependency 'Core', '1.0.1' # keep in step"))
        #expect(try sandbox.read("ws/Modules/Network/Network.podspec").contains("'~> 1.0'"), "dry run wrote nothing")

        let pin = try sandbox.modkit("pin", in: "ws")
        #expect(pin.status == 0, "\(pin.err)")
        #expect(try sandbox.read("ws/Modules/Network/Network.podspec") == """
        Pod::Spec.new do |spec|
          spec.name    = 'Network'
          spec.version = '2.0.0'
          spec.swift_version = '5.0'
          # Core is our foundation module.
          spec.dependency 'Core', '1.0.1' # keep in step
        end

        """)
        #expect(try sandbox.read("ws/Modules/Network/Package.swift").contains(
            ".package(path: \"../Core\"),\n        .package(url: \"https://git.example.com/ios/Core.git\", exact: \"1.0.1\"),"))
        #expect(try sandbox.read("ws/Modules/App/Podfile") == """
        platform :ios, '13.0'
        target 'App' do
          pod 'Network', '2.0.0'
          pod 'Core', '1.0.1'
          pod 'Local', :path => '../Local'
        end

        """)
        let after = try sandbox.modkit("pin", "--check", in: "ws")
        #expect(after.status == 0, "\(after.out)\(after.err)")
        #expect(after.out.isEmpty)
        let strict = try sandbox.modkit("pin", "--check", "--strict", in: "ws")
        #expect(strict.status == 1)

        let podspec = try sandbox.read("ws/Modules/Network/Network.podspec")
        let again = try sandbox.modkit("pin", in: "ws")
        #expect(again.status == 0)
        #expect(try sandbox.read("ws/Modules/Network/Network.podspec") == podspec)
        #expect(again.out.contains("every requirement is already pinned"))
    }

    @Test func unresolvableAndVariableRequirementsAreReportedAndLeftAlone() throws {
        let sandbox = try makeWorkspace()
        let text = "core_version = '~> 1.0'\nPod::Spec.new do |s|\n  s.name = 'Network'\n  s.version = '2.0.0'\n  s.dependency 'Core', core_version\n  s.dependency 'Alamofire', '~> 5.0'\nend\n"
        try sandbox.write(text, to: "ws/Modules/Network/Network.podspec")
        let result = try sandbox.modkit("pin", "Network", in: "ws")
        #expect(result.status == 1)
        #expect(result.err.contains("warning: Modules/Network/Network.podspec:5: 'Core' cannot verify"), "\(result.err)")
        #expect(result.err.contains("Modules/Network/Network.podspec:6: 'Alamofire' is loose ('~> 5.0') and no version is known"), "\(result.err)")
        #expect(try sandbox.read("ws/Modules/Network/Network.podspec") == text)

        // A lock file resolves the outside dependency.
        try sandbox.write("PODS:\n  - Alamofire (5.8.1)\n\nCOCOAPODS: 1.15.2\n", to: "ws/Modules/Network/Podfile.lock")
        _ = try sandbox.modkit("pin", "Network", in: "ws")
        #expect(try sandbox.read("ws/Modules/Network/Network.podspec").contains("s.dependency 'Alamofire', '5.8.1'"))

        // What modkit cannot verify fails only with --strict, and a comment on the line silences it.
        try FileManager.default.removeItem(at: sandbox.url("ws/Modules/Network/Package.swift"))
        #expect(try sandbox.modkit("pin", "--check", "Network", in: "ws").status == 0)
        #expect(try sandbox.modkit("pin", "--check", "--strict", "Network", in: "ws").status == 1)
        let ignored = try sandbox.read("ws/Modules/Network/Network.podspec")
            .replacingOccurrences(of: "core_version\n", with: "core_version # modkit: ignore\n")
        try sandbox.write(ignored, to: "ws/Modules/Network/Network.podspec")
        let silenced = try sandbox.modkit("pin", "--check", "--strict", "Network", in: "ws")
        #expect(silenced.status == 0 && !silenced.err.contains("cannot verify"), "\(silenced.err)")
    }

    @Test func graphIsTopologicalRendersWithDotAndNamesACycle() throws {
        let sandbox = try makeWorkspace()
        let text = try sandbox.modkit("graph", in: "ws")
        #expect(text.status == 0, "\(text.err)")
        let order = text.out.split(separator: "\n").map { String($0.split(separator: " ").first ?? "") }
        #expect(order == ["Core", "Network", "App"])
        let json = try sandbox.modkit("graph", "--json", in: "ws")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        #expect(report["order"] as? [String] == ["Core", "Network", "App"])
        #expect((report["dependencies"] as? [String: [String]])?["App"] == ["Network", "Core"])

        let dot = try sandbox.modkit("graph", "--format", "dot", in: "ws")
        try sandbox.write(dot.out, to: "graph.dot")
        let svg = try sandbox.run("/usr/bin/env", ["dot", "-Tsvg", sandbox.url("graph.dot").path], in: sandbox.root)
        #expect(svg.status == 0, "dot failed (apt-get install -y graphviz): \(svg.err)")
        #expect(svg.out.contains("<svg") && svg.out.contains(">Network</text>"))

        try sandbox.write("Pod::Spec.new do |s|\n  s.name = 'Core'\n  s.version = '1.0.1'\n  s.dependency 'App'\nend\n", to: "ws/Modules/Core/Core.podspec")
        let cycle = try sandbox.modkit("graph", in: "ws")
        #expect(cycle.status == 1)
        #expect(cycle.err.contains("modkit: error: dependency cycle: Core → App → Network → Core")
                || cycle.err.contains("modkit: error: dependency cycle: Core → App → Core"), "\(cycle.err)")
        #expect(cycle.err.contains("Modules/Core/Core.podspec:4: Core depends on App"), "\(cycle.err)")
    }

    @Test func guardCheckFailsAfterABumpUntilGuardRunsAndRewritesNothingTwice() throws {
        let sandbox = try makeWorkspace()
        let first = try sandbox.modkit("guard", in: "ws")
        #expect(first.status == 0, "\(first.err)")
        let header = try sandbox.read("ws/Modules/Network/Generated/NetworkVersion.h")
        #expect(header.contains("#define NetworkModuleVersionNumber 2000000"))
        #expect(header.contains("CoreModuleVersionNumber != 1000001"))
        #expect(try sandbox.modkit("guard", "--check", in: "ws").status == 0)

        let file = sandbox.url("ws/Modules/Network/Generated/NetworkVersion.swift").path
        let before = try FileManager.default.attributesOfItem(atPath: file)[.modificationDate] as? Date
        Thread.sleep(forTimeInterval: 1.1)
        let second = try sandbox.modkit("guard", in: "ws")
        #expect(second.status == 0)
        #expect(second.out.isEmpty)
        #expect(try FileManager.default.attributesOfItem(atPath: file)[.modificationDate] as? Date == before)

        try sandbox.write("Pod::Spec.new do |s|\n  s.name = 'Core'\n  s.version = '1.0.2'\nend\n", to: "ws/Modules/Core/Core.podspec")
        let stale = try sandbox.modkit("guard", "--check", in: "ws")
        #expect(stale.status == 1)
        #expect(stale.out.contains("Modules/Core/Generated/CoreVersion.h: stale"), "\(stale.out)")
        #expect(stale.out.contains("Modules/Network/Generated/NetworkVersion.h: stale"), "\(stale.out)")
        #expect(try sandbox.modkit("guard", in: "ws").status == 0)
        #expect(try sandbox.modkit("guard", "--check", in: "ws").status == 0)
        #expect(try sandbox.read("ws/Modules/Network/Generated/NetworkVersion.h").contains("CoreModuleVersionNumber != 1000002"))
    }
}
