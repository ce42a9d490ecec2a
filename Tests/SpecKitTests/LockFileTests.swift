import Testing
@testable import SpecKit

/// Resolved versions from Podfile.lock, Package.resolved v1–v3 and Cartfile.resolved.
@Suite struct LockFileTests {
    @Test func readsPodfileLock() {
        let lock = """
        PODS:
          - Core (1.0.1)
          - "Firebase/Analytics (10.2.0)":
            - Firebase/Core (= 10.2.0)
          - Net/Reachability (2.0.0):
            - Core (~> 1.0)
          - Net/Sockets (2.0.0)

        DEPENDENCIES:
          - Core (from `../Core`)
          - Fake (9.9.9)

        SPEC CHECKSUMS:
          Core: abc

        COCOAPODS: 1.15.2
        """
        let resolved = ResolvedVersions.podfileLock(lock)
        #expect(resolved.pods == ["Core": "1.0.1", "Firebase/Analytics": "10.2.0", "Firebase": "10.2.0",
                                  "Net/Reachability": "2.0.0", "Net": "2.0.0", "Net/Sockets": "2.0.0"])
        #expect(resolved.podVersion(named: "Net/Other") == "2.0.0")
        #expect(resolved.podVersion(named: "Fake") == nil)
    }

    @Test func readsPodfileLockWithCRLF() {
        let resolved = ResolvedVersions.podfileLock("PODS:\r\n  - Core (1.0.1)\r\n\r\nCOCOAPODS: 1.15.2\r\n")
        #expect(resolved.pods == ["Core": "1.0.1"])
    }

    @Test func readsPackageResolvedVersion1() throws {
        let v1 = """
        {
          "object": {
            "pins": [
              { "package": "Core", "repositoryURL": "https://git.example.com/ios/Core.git",
                "state": { "branch": null, "revision": "aaa", "version": "1.0.1" } },
              { "package": "Dev", "repositoryURL": "git@git.example.com:ios/Dev.git",
                "state": { "branch": "main", "revision": "bbb", "version": null } }
            ]
          },
          "version": 1
        }
        """
        let resolved = try ResolvedVersions.packageResolved(v1)
        #expect(resolved.packages.map(\.identity) == ["core", "dev"])
        #expect(resolved.packageVersion(identity: "Core") == "1.0.1")
        #expect(resolved.packageVersion(url: "ssh://git@git.example.com/ios/Core") == "1.0.1")
        #expect(resolved.packageVersion(identity: "dev") == nil)
        #expect(resolved.packages[1].revision == "bbb")
    }

    @Test(arguments: [2, 3])
    func readsPackageResolvedVersions2And3(version: Int) throws {
        let origin = version == 3 ? "\"originHash\" : \"123\",\n" : ""
        let text = """
        {
          \(origin)"pins" : [
            {
              "identity" : "core",
              "kind" : "remoteSourceControl",
              "location" : "https://git.example.com/ios/Core.git",
              "state" : { "revision" : "aaa", "version" : "1.0.1" }
            },
            {
              "identity" : "acme.net",
              "kind" : "registry",
              "location" : "",
              "state" : { "version" : "2.0.0" }
            }
          ],
          "version" : \(version)
        }
        """
        let resolved = try ResolvedVersions.packageResolved(text)
        #expect(resolved.packageVersion(identity: "core") == "1.0.1")
        #expect(resolved.packageVersion(url: "git@git.example.com:ios/Core.git") == "1.0.1")
        #expect(resolved.packageVersion(identity: "acme.net") == "2.0.0")
    }

    @Test func rejectsPackageResolvedWithoutPins() {
        #expect(throws: SpecReadError.self) { try ResolvedVersions.packageResolved("{\"version\": 2}") }
    }

    @Test func readsCartfileResolved() {
        let text = """
        binary "https://example.com/Bin.json" "3.0.0"
        git "https://git.example.com/ios/Git.git" "0123456789abcdef0123456789abcdef01234567"
        github "acme/Core" "1.0.1"
        github "acme/Net" "v2.0.0"
        """
        let resolved = ResolvedVersions.cartfileResolved(text)
        #expect(resolved.carthage.map(\.name) == ["https://example.com/Bin.json", "https://git.example.com/ios/Git.git", "acme/Core", "acme/Net"])
        #expect(resolved.carthageVersion(named: "acme/Core") == "1.0.1")
        #expect(resolved.carthageVersion(named: "Net") == "v2.0.0")
        #expect(resolved.carthageVersion(named: "git@git.example.com:ios/Git") == "0123456789abcdef0123456789abcdef01234567")
        #expect(resolved.carthage[0].origin == .binary)
    }

    @Test func looksUpRequirementsAcrossFormats() throws {
        var resolved = ResolvedVersions.podfileLock("PODS:\n  - Core/UI (1.0.1)\n")
        resolved = resolved.merging(ResolvedVersions.cartfileResolved("github \"acme/Net\" \"2.0.0\"\n"))
        resolved = resolved.merging(try ResolvedVersions.packageResolved(
            "{\"pins\":[{\"identity\":\"log\",\"location\":\"https://git.example.com/ios/Log.git\",\"state\":{\"version\":\"0.9.0\"}}],\"version\":2}"))
        let pod = try SpecReader.read("pod 'Core'", kind: .podfile)[0]
        let cart = try SpecReader.read("github \"acme/Net\"", kind: .cartfile)[0]
        let package = try SpecReader.read(".package(url: \"git@git.example.com:ios/Log\", from: \"0.1.0\")", kind: .packageSwift)[0]
        #expect(resolved.version(for: pod) == "1.0.1")
        #expect(resolved.version(for: cart) == "2.0.0")
        #expect(resolved.version(for: package) == "0.9.0")
    }

    @Test func lockFilesWithAByteOrderMarkReadAsWithout() throws {
        let bom = "\u{FEFF}"
        #expect(ResolvedVersions.podfileLock(bom + "PODS:\r\n  - Core (1.0.1)\r\n").pods == ["Core": "1.0.1"])
        #expect(ResolvedVersions.cartfileResolved(bom + "github \"acme/Net\" \"2.0.0\"\n").carthageVersion(named: "acme/Net") == "2.0.0")
        let resolved = try ResolvedVersions.packageResolved(bom + "{\"pins\":[{\"identity\":\"log\",\"location\":\"https://x/Log.git\",\"state\":{\"version\":\"0.9.0\"}}],\"version\":2}")
        #expect(resolved.packageVersion(identity: "log") == "0.9.0")
        let cartfile = try SpecReader.read(Array((bom + "github \"acme/Net\" ~> 1.0\n").utf8), kind: .cartfile)
        #expect(cartfile.map(\.name) == ["acme/Net"])
        #expect(cartfile[0].span.line == 1 && cartfile[0].span.column == 19)
    }

    @Test func aLockFileThatCannotBeReadIsAProblemNamingIt() {
        let (versions, problems) = ResolvedVersions.read { name in
            switch name {
            case "Podfile.lock": throw SpecReadError(line: 1, column: 1, message: "cannot read the file: Permission denied")
            case "Package.resolved": return Array("{\"version\": 2}".utf8)
            default: return Array("\u{FEFF}github \"acme/Net\" \"2.0.0\"\n".utf8)
            }
        }
        #expect(problems.map(\.file) == ["Podfile.lock", "Package.resolved"])
        #expect(problems[0].error.message.contains("Permission denied"))
        #expect(versions.carthageVersion(named: "acme/Net") == "2.0.0")
    }
}
