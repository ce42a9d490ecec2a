import Foundation
import Testing

/// west `import:` with all four filters — `name-allowlist`, `path-allowlist`, `name-blocklist`, `path-blocklist` (globs) —
/// in the shape of an nRF Connect SDK application importing Zephyr: imported, synced from file:// remotes, and compared
/// with what west's own parser takes from the same manifests.
@Suite struct WestImportFilterEndToEndTests {
    let real = RealManifestsEndToEndTests()
    static let zephyrModules = ["cmsis", "hal_nordic", "hal_stm32", "mbedtls", "loramac-node", "bsim"]

    /// Zephyr with HALs, a crypto library, a LoRa library and a tool, and an application `ws/nrf/west.yml` importing it with `filters`.
    func workspace(_ sandbox: Sandbox, filters: String) throws {
        try real.publish(sandbox, ["zephyr"] + Self.zephyrModules)
        try real.commitZephyrManifest(sandbox, projects: """
                - name: cmsis
                  path: modules/hal/cmsis
                - name: hal_nordic
                  path: modules/hal/nordic
                - name: hal_stm32
                  path: modules/hal/stm32
                - name: mbedtls
                  path: modules/crypto/mbedtls
                - name: loramac-node
                  path: modules/lib/loramac-node
                - name: bsim
                  path: tools/bsim
            """)
        try sandbox.write("""
            manifest:
              version: "0.13"
              remotes:
                - name: ncs
                  url-base: file://\(sandbox.url("remotes").path)
              projects:
                - name: zephyr
                  remote: ncs
                  revision: main
                  import:
            \(filters)
              self:
                path: nrf

            """, to: "ws/nrf/west.yml")
    }

    /// Imports and syncs `ws`, then checks that modkit cloned exactly `expected` and that west takes the same projects.
    func expectSynced(_ sandbox: Sandbox, _ expected: Set<String>, prefix: String = "", sourceLocation: SourceLocation = #_sourceLocation) throws {
        real.expectOK(try sandbox.modkit("init", "--import", "nrf/west.yml", in: "ws"), "init", sourceLocation: sourceLocation)
        real.expectOK(try sandbox.modkit("sync", in: "ws"), "sync", sourceLocation: sourceLocation)
        let all = ["zephyr", "modules/hal/cmsis", "modules/hal/nordic", "modules/hal/stm32", "modules/crypto/mbedtls", "modules/lib/loramac-node", "tools/bsim"]
        let cloned = Set(all.map { prefix + $0 }.filter { real.isCloned(sandbox, "ws/\($0)") })
        let written = try sandbox.read("ws/modkit.yml")
        #expect(cloned == expected, "\(written)", sourceLocation: sourceLocation)
        if let west = try WestParser.projects(sandbox, manifest: "ws/nrf/west.yml", topdir: "ws") {
            #expect(Set(west.map(\.path)) == expected, "what west takes", sourceLocation: sourceLocation)
        }
    }

    @Test func blocklistsLeaveOutNamesAndPathGlobs() throws {
        let sandbox = try Sandbox()
        try workspace(sandbox, filters: """
                        name-blocklist: [loramac-node]
                        path-blocklist:
                          - modules/hal/*
                          - bsim
            """)
        try expectSynced(sandbox, ["zephyr", "modules/crypto/mbedtls"])
        let written = try sandbox.read("ws/modkit.yml")
        #expect(written.contains("    name-blocklist: [loramac-node]\n    path-blocklist: [\"modules/hal/*\", bsim]"), "\(written)")
    }

    @Test func allowlistsTakeBackWhatABlocklistLeavesOut() throws {
        let sandbox = try Sandbox()
        try workspace(sandbox, filters: """
                        name-allowlist: hal_nordic
                        path-allowlist: ["modules/lib/*", "crypto/mbed[a-z]*"]
                        path-blocklist: modules/hal/*
            """)
        // hal_nordic is blocked by path but allowed by name; cmsis and hal_stm32 are only blocked; bsim is in no allowlist.
        try expectSynced(sandbox, ["zephyr", "modules/hal/nordic", "modules/lib/loramac-node", "modules/crypto/mbedtls"])
    }

    @Test func aPathPrefixPlacesTheProjectAndWhatItImportsAndPatternsMatchTheWholePath() throws {
        let sandbox = try Sandbox()
        try workspace(sandbox, filters: """
                        path-prefix: deps
                        path-blocklist: [modules/hal/*, deps/modules/lib/*, "/tools/bsim"]
            """)
        // "/tools/bsim" is absolute, so it matches nothing: bsim stays.
        try expectSynced(sandbox, ["deps/zephyr", "deps/modules/crypto/mbedtls", "deps/tools/bsim"], prefix: "deps/")
    }
}
