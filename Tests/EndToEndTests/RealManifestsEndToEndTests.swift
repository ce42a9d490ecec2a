import Foundation
import Testing

/// Manifests in the shape of real ones — Zephyr, nRF Connect SDK, AOSP, a `.repo` checkout — imported, synced from
/// file:// remotes, checked with `status`, exported, and (for west) re-read by west's own parser.
@Suite struct RealManifestsEndToEndTests {
    let migration = MigrationEndToEndTests()

    /// Commits `text` as `file` on main of the bare repository `remotes/<path>.git` (made by `publish`).
    func commit(_ sandbox: Sandbox, _ path: String, file: String, text: String) throws {
        let work = "src/remotes/\(path).git"
        try sandbox.git("checkout", "-q", "main", in: work)
        try sandbox.write(text, to: "\(work)/\(file)")
        try sandbox.git("add", "-A", in: work)
        try sandbox.git("commit", "-qm", "add \(file)", in: work)
        try sandbox.git("push", "-q", sandbox.url("remotes/\(path).git").path, "main", in: work)
    }

    /// zephyr's own west.yml on its main branch: `projects` (indented as list items under `projects:`) from the sandbox's remotes.
    func commitZephyrManifest(_ sandbox: Sandbox, projects: String) throws {
        try commit(sandbox, "zephyr", file: "west.yml", text: """
            manifest:
              defaults:
                remote: upstream
                revision: main
              remotes:
                - name: upstream
                  url-base: file://\(sandbox.url("remotes").path)
              projects:
            \(projects)
              self:
                path: zephyr

            """)
    }

    func publish(_ sandbox: Sandbox, _ names: [String]) throws {
        for name in names { try migration.publish(sandbox, "remotes/\(name).git") }
    }

    func expectOK(_ result: ProcessResult, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == 0, "\(what) exited \(result.status): \(result.err)\(result.out)", sourceLocation: sourceLocation)
    }

    func isCloned(_ sandbox: Sandbox, _ path: String) -> Bool {
        FileManager.default.fileExists(atPath: sandbox.url("\(path)/.git").path)
    }

    // MARK: Zephyr: nested bsim/babblesim_*, import: with name-allowlist, group-filter

    @Test func zephyrShapedWorkspaceFollowsTheImportAndNestsBabblesim() throws {
        let sandbox = try Sandbox()
        let nested = ["bsim", "babblesim_base", "babblesim_ext_2G4_libPhyComv1"]
        try publish(sandbox, ["zephyr", "cmsis", "hal_nordic", "mbedtls"] + nested)
        let base = "file://" + sandbox.url("remotes").path
        try commitZephyrManifest(sandbox, projects: """
                - name: cmsis
                  path: modules/hal/cmsis
                  groups: [hal]
                - name: hal_nordic
                  path: modules/hal/nordic
                  groups: [hal]
                - name: mbedtls
                  path: modules/crypto/mbedtls
                  revision: v1.0
                - name: bsim
                  path: tools/bsim
                  groups: [babblesim]
                - name: babblesim_base
                  path: tools/bsim/components
                  groups: [babblesim]
                - name: babblesim_ext_2G4_libPhyComv1
                  path: tools/bsim/components/ext_2G4_libPhyComv1
                  groups: [babblesim]
            """)
        try sandbox.write("""
            manifest:
              group-filter: [-babblesim]
              remotes:
                - name: upstream
                  url-base: \(base)
              projects:
                - name: zephyr
                  remote: upstream
                  revision: main
                  import:
                    name-allowlist: [cmsis, hal_nordic, bsim, babblesim_base, babblesim_ext_2G4_libPhyComv1]
              self:
                path: app

            """, to: "ws/app/west.yml")

        expectOK(try sandbox.modkit("init", "--import", "app/west.yml", in: "ws"), "init")
        let written = try sandbox.read("ws/modkit.yml")
        #expect(written.contains("imports:\n  - module: zephyr\n    name-allowlist: [cmsis, hal_nordic, bsim, babblesim_base, babblesim_ext_2G4_libPhyComv1]"), "\(written)")
        #expect(written.contains("groups: [\"-babblesim\"]"), "\(written)")

        // A plain sync: zephyr, then what its manifest adds, minus the babblesim group and what the allowlist leaves out.
        let sync = try sandbox.modkit("sync", in: "ws")
        expectOK(sync, "sync")
        #expect(["zephyr", "modules/hal/cmsis", "modules/hal/nordic"].allSatisfy { isCloned(sandbox, "ws/\($0)") })
        #expect(!isCloned(sandbox, "ws/modules/crypto/mbedtls"), "not in the allowlist")
        #expect(!FileManager.default.fileExists(atPath: sandbox.url("ws/tools/bsim").path), "babblesim is filtered out by default, as west does")
        if let west = try WestParser.projects(sandbox, manifest: "ws/app/west.yml", topdir: "ws") {
            #expect(Set(west.filter(\.active).map(\.path)) == ["zephyr", "modules/hal/cmsis", "modules/hal/nordic"], "what west would clone")
        }

        // The nested group on request: outer before inner, each kept out of the outer's status.
        expectOK(try sandbox.modkit("sync", "-g", "babblesim", in: "ws"), "sync -g babblesim")
        for path in ["tools/bsim", "tools/bsim/components", "tools/bsim/components/ext_2G4_libPhyComv1"] { #expect(isCloned(sandbox, "ws/\(path)"), "\(path)") }
        #expect(try sandbox.git("status", "--porcelain", in: "ws/tools/bsim") == "")
        #expect(try sandbox.git("status", "--porcelain", in: "ws/tools/bsim/components") == "")
        #expect(try sandbox.read("ws/tools/bsim/.git/info/exclude").contains("/components/\n"))
        #expect(try sandbox.git("ls-files", in: "ws/tools/bsim") == "README", "no tracked file was changed")
        let status = try sandbox.modkit("status", "-v", in: "ws")
        expectOK(status, "status")
        #expect(status.out.contains("babblesim_base"), "\(status.out)")
        // Nested modules are ordinary modules for the other commands too.
        let forall = try sandbox.modkit("forall", "-c", "git rev-parse --show-toplevel", in: "ws")
        expectOK(forall, "forall")
        #expect(forall.out.contains(sandbox.url("ws/tools/bsim/components/ext_2G4_libPhyComv1").path), "\(forall.out)")
        let graph = try sandbox.modkit("graph", "--format", "json", in: "ws")
        expectOK(graph, "graph")
        #expect(graph.out.contains("babblesim_ext_2G4_libPhyComv1"), "\(graph.out)")

        try exportReadByWest(sandbox, original: "ws/app/west.yml")
    }

    /// Exports `ws` as west.yml and has west read it back: the same projects, paths, revisions, groups, urls and
    /// active set as west reads from the original (imports resolved from the work trees). Returns the export.
    @discardableResult
    func exportReadByWest(_ sandbox: Sandbox, original: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let export = try sandbox.modkit("export", "--format", "west", in: "ws")
        expectOK(export, "export", sourceLocation: sourceLocation)
        try sandbox.write(export.out, to: "exported/west.yml")
        if let projects = try WestParser.projects(sandbox, manifest: original, topdir: "ws"),
           let back = try WestParser.projects(sandbox, manifest: "exported/west.yml", topdir: "exported") {
            // west lists 'self: import' projects first, the export lists them where modkit.yml does.
            #expect(back.sorted { $0.path < $1.path } == projects.sorted { $0.path < $1.path }, "export:\n\(export.out)", sourceLocation: sourceLocation)
        }
        return export.out
    }

    // MARK: nRF Connect SDK: import: plus a pull/N/head revision

    @Test func nrfShapedWorkspaceChecksOutAPullRequestRefDetached() throws {
        let sandbox = try Sandbox()
        try publish(sandbox, ["zephyr", "nrfxlib", "hal_nordic", "cmsis-dsp", "trusted-firmware-m", "mcuboot"])
        let base = "file://" + sandbox.url("remotes").path
        try commitZephyrManifest(sandbox, projects: """
                - name: hal_nordic
                  path: modules/hal/nordic
                - name: cmsis-dsp
                  path: modules/lib/cmsis-dsp
                - name: trusted-firmware-m
                  path: modules/tee/tf-m/trusted-firmware-m
            """)
        // A pull request head that no branch or tag reaches, as GitHub keeps it.
        let work = "src/remotes/zephyr.git"
        try sandbox.git("checkout", "-q", "-b", "pr", in: work)
        try sandbox.write("fix\n", to: "\(work)/FIX")
        try sandbox.git("add", "-A", in: work)
        try sandbox.git("commit", "-qm", "pull request", in: work)
        let pullCommit = try sandbox.git("rev-parse", "HEAD", in: work)
        try sandbox.git("push", "-q", sandbox.url("remotes/zephyr.git").path, "HEAD:refs/pull/7/head", in: work)
        try sandbox.write("""
            manifest:
              version: "0.13"
              remotes:
                - name: ncs
                  url-base: \(base)
              defaults:
                remote: ncs
              projects:
                - name: zephyr
                  revision: pull/7/head
                  import:
                    name-allowlist: [hal_nordic, cmsis-dsp]
                - name: nrfxlib
                  path: nrfxlib
                  revision: v1.0
              self:
                path: nrf
                import: submanifests

            """, to: "ws/nrf/west.yml")
        try sandbox.write("""
            manifest:
              projects:
                - name: mcuboot
                  url: \(base)/mcuboot
                  revision: v1.0
                  path: bootloader/mcuboot

            """, to: "ws/nrf/submanifests/mcuboot.yml")
        try sandbox.git("init", "-q", in: "ws/nrf")  // west reads 'self: import' only from a manifest repository
        try sandbox.write("[manifest]\npath = nrf\nfile = west.yml\n", to: "ws/.west/config")

        expectOK(try sandbox.modkit("init", "--import", "nrf/west.yml", in: "ws"), "init")
        #expect(try sandbox.read("ws/modkit.yml").contains("  - file: nrf/submanifests"))
        let sync = try sandbox.modkit("sync", in: "ws")
        expectOK(sync, "sync")
        #expect(try sandbox.git("rev-parse", "HEAD", in: "ws/zephyr") == pullCommit)
        #expect(try sandbox.run("/usr/bin/env", ["git", "symbolic-ref", "-q", "HEAD"], in: sandbox.url("ws/zephyr")).status != 0, "detached")
        #expect(isCloned(sandbox, "ws/modules/hal/nordic") && isCloned(sandbox, "ws/modules/lib/cmsis-dsp"))
        #expect(try sandbox.git("describe", "--tags", "--exact-match", in: "ws/bootloader/mcuboot") == "v1.0", "from the self import")
        #expect(!FileManager.default.fileExists(atPath: sandbox.url("ws/modules/tee").path))
        expectOK(try sandbox.modkit("status", in: "ws"), "status")
        // A second sync fetches the ref again and stays put.
        expectOK(try sandbox.modkit("sync", in: "ws"), "second sync")

        let export = try exportReadByWest(sandbox, original: "ws/nrf/west.yml")
        #expect(export.contains("- name: cmsis-dsp"), "the west name, not the modkit identifier: \(export)")
        #expect(export.contains("revision: pull/7/head"))
    }

    // MARK: AOSP: notdefault groups, clone-depth, a nested project, tag revisions, relative fetch

    @Test func aospShapedManifestSyncsWhatRepoSyncsByDefault() throws {
        let sandbox = try Sandbox()
        let projects = ["platform/build", "platform/build/blueprint", "platform/frameworks/base", "platform/external/zlib",
                        "platform/prebuilts/clang/host/linux-x86", "device/generic/goldfish", "platform/manifest"]
        try publish(sandbox, projects)
        try commit(sandbox, "platform/manifest", file: "default.xml", text: """
            <?xml version="1.0" encoding="UTF-8"?>
            <manifest>
              <remote name="aosp" fetch=".." review="https://android-review.example.com/"/>
              <default revision="main" remote="aosp" sync-j="4"/>
              <project path="build/make" name="platform/build" groups="pdk">
                <copyfile src="core/root.mk" dest="Makefile"/>
              </project>
              <project path="build/make/blueprint" name="platform/build/blueprint" groups="pdk,tradefed"/>
              <project path="frameworks/base" name="platform/frameworks/base" groups="pdk-cw-fs,pdk-fs"/>
              <project path="external/zlib" name="platform/external/zlib" groups="pdk" revision="refs/tags/v1.0"/>
              <project path="prebuilts/clang/host/linux-x86" name="platform/prebuilts/clang/host/linux-x86" groups="linux,notdefault,pdk" clone-depth="1"/>
              <project path="device/generic/goldfish" name="device/generic/goldfish" groups="device,notdefault"/>
            </manifest>

            """)
        try sandbox.git("clone", "-q", sandbox.url("remotes/platform/manifest.git").path, "manifest")  // origin: the fetch=".." base

        let initResult = try sandbox.modkit("init", "--import", "../manifest/default.xml", in: "ws")
        expectOK(initResult, "init")
        let written = try sandbox.read("ws/modkit.yml")
        #expect(written.contains("groups: [\"-notdefault\"]") && written.contains("depth: 1") && written.contains("project: platform/build/blueprint"), "\(written)")
        // Before anything is cloned, the export keeps the tag spelled as a tag.
        let early = try sandbox.modkit("export", "--format", "repo", in: "ws")
        #expect(early.out.contains(#"name="platform/external/zlib" path="external/zlib" revision="refs/tags/v1.0""#), "\(early.out)")

        let sync = try sandbox.modkit("sync", in: "ws")
        expectOK(sync, "sync")
        #expect(sync.err.contains("2 modules left out by 'defaults: groups: [-notdefault]'"), "\(sync.err)")
        for path in ["build/make", "build/make/blueprint", "frameworks/base", "external/zlib"] { #expect(isCloned(sandbox, "ws/\(path)"), "\(path)") }
        #expect(!FileManager.default.fileExists(atPath: sandbox.url("ws/prebuilts").path) && !FileManager.default.fileExists(atPath: sandbox.url("ws/device").path),
                "repo leaves notdefault projects out by default")
        #expect(try sandbox.git("status", "--porcelain", in: "ws/build/make") == "")
        #expect(try sandbox.git("describe", "--tags", "--exact-match", in: "ws/external/zlib") == "v1.0")
        expectOK(try sandbox.modkit("status", in: "ws"), "status")
        let clang = try sandbox.modkit("sync", "-g", "linux", in: "ws")
        expectOK(clang, "sync -g linux")
        // `depth: 1`: a shallow clone through the git engine, or libgit2 < 1.7 saying that the whole history comes
        let shallow = FileManager.default.fileExists(atPath: sandbox.url("ws/prebuilts/clang/host/linux-x86/.git/shallow").path)
        #expect(shallow || clang.err.contains("the full history is fetched"), "\(clang.err)")
        #expect(isCloned(sandbox, "ws/prebuilts/clang/host/linux-x86"))

        // The export names the projects and the one remote as the source did; reading it back gives the same modules.
        let export = try sandbox.modkit("export", "--format", "repo", in: "ws")
        expectOK(export, "export")
        #expect(export.out.components(separatedBy: "<remote ").count == 2, "one remote: \(export.out)")
        try sandbox.write(export.out, to: "back/default.xml")
        expectOK(try sandbox.modkit("init", "--import", "default.xml", in: "back"), "re-import")
        let original = try migration.listModules(sandbox, in: "ws"), back = try migration.listModules(sandbox, in: "back")
        #expect(back.map(\.name) == original.map(\.name) && back.map(\.path) == original.map(\.path))
        #expect(back.map(\.revision) == original.map(\.revision) && back.map(\.groups) == original.map(\.groups) && back.map(\.url) == original.map(\.url))
    }

    // MARK: A .repo checkout with a local manifest

    @Test func dotRepoCheckoutMergesLocalManifests() throws {
        let sandbox = try Sandbox()
        try publish(sandbox, ["platform/build", "platform/external/legacy", "platform/manifest", "vendor/acme/camera"])
        try commit(sandbox, "platform/manifest", file: "default.xml", text: """
            <manifest>
              <remote name="aosp" fetch=".."/>
              <default revision="main" remote="aosp"/>
              <project path="build/make" name="platform/build"/>
              <project path="external/legacy" name="platform/external/legacy"/>
            </manifest>

            """)
        try sandbox.git("clone", "-q", sandbox.url("remotes/platform/manifest.git").path, "ws/.repo/manifests")
        try sandbox.write("<manifest>\n  <include name=\"default.xml\"/>\n</manifest>\n", to: "ws/.repo/manifest.xml")
        try sandbox.write("""
            <manifest>
              <remote name="acme" fetch="file://\(sandbox.url("remotes/vendor").path)"/>
              <remove-project name="platform/external/legacy"/>
              <project path="vendor/acme/camera" name="acme/camera" remote="acme"/>
            </manifest>

            """, to: "ws/.repo/local_manifests/acme.xml")

        let result = try sandbox.modkit("init", "--import", ".repo", in: "ws")
        expectOK(result, "init --import .repo")
        #expect(result.err.contains("Merged 1 local manifest as repo does: .repo/local_manifests/acme.xml"), "\(result.err)")
        let modules = try migration.listModules(sandbox, in: "ws")
        #expect(modules.map(\.path) == ["build/make", "vendor/acme/camera"])
        #expect(modules.first?.url == sandbox.url("remotes/platform/build").path, "the mirror-style url without .git; sync finds build.git as git does")
        expectOK(try sandbox.modkit("sync", in: "ws"), "sync")
        #expect(isCloned(sandbox, "ws/build/make") && isCloned(sandbox, "ws/vendor/acme/camera"))
        expectOK(try sandbox.modkit("status", in: "ws"), "status")
        let export = try sandbox.modkit("export", "--format", "repo", in: "ws")
        #expect(export.out.contains(#"name="acme/camera" path="vendor/acme/camera""#), "\(export.out)")
        // Read back: the merged result, names, paths, urls and revisions as the checkout had them.
        try sandbox.write(export.out, to: "back/default.xml")
        expectOK(try sandbox.modkit("init", "--import", "default.xml", in: "back"), "re-import")
        let back = try migration.listModules(sandbox, in: "back")
        #expect(back == modules, "\(back)\n\(modules)")
    }

    // MARK: Inputs that used to crash or drown the output

    @Test func oneCharacterManifestNameWithAnIncludeAndRepeatedWarnings() throws {
        let sandbox = try Sandbox()
        var projects = ""
        for index in 1...6 { projects += "<project name=\"p\(index)\"><copyfile src=\"a\(index)\" dest=\"b\(index)\"/></project>\n" }
        try sandbox.write("<manifest><remote name=\"o\" fetch=\"file:///srv/git\"/><default remote=\"o\" revision=\"main\"/>\n<include name=\"b\"/></manifest>\n", to: "ws/a")
        try sandbox.write("<manifest>\n\(projects)</manifest>\n", to: "ws/b")
        let result = try sandbox.modkit("init", "--import", "a", in: "ws")
        expectOK(result, "init --import a")  // was SIGILL in NSString path bridging
        #expect(result.err.components(separatedBy: "warning:").count == 2, "one line for the six copyfile warnings: \(result.err)")
        #expect(result.err.contains("— and 5 more like this (b:3, b:4, b:5, …; -v lists all)"), "\(result.err)")
        try FileManager.default.removeItem(at: sandbox.url("ws/modkit.yml"))
        let verbose = try sandbox.modkit("-v", "init", "--import", "a", in: "ws")
        expectOK(verbose, "-v init --import a")
        #expect(verbose.err.components(separatedBy: "warning:").count == 7, "\(verbose.err)")
    }

    // MARK: Superproject: empty submodule folders are not cloned yet

    @Test func emptySubmoduleFoldersAreNotClonedYet() throws {
        let sandbox = try Sandbox()
        try publish(sandbox, ["Core", "super"])
        try sandbox.git("clone", "-q", sandbox.url("remotes/super.git").path, "seed")
        try sandbox.git("submodule", "add", "-q", sandbox.url("remotes/Core.git").path, "Libs/Core", in: "seed")
        try sandbox.git("commit", "-qm", "Add Core", in: "seed")
        try sandbox.git("push", "-q", "origin", "main", in: "seed")
        try sandbox.git("clone", "-q", sandbox.url("remotes/super.git").path, "ws")  // leaves Libs/Core empty
        expectOK(try sandbox.modkit("init", "--import", ".gitmodules", in: "ws"), "init")
        let status = try sandbox.modkit("status", "--json", in: "ws")
        expectOK(status, "status")
        #expect(status.out.contains("\"notCloned\""), "\(status.out)")
    }
}

/// west's own parser, from a venv with west pip-installed; nil (with the reason printed) where PyPI is unreachable.
enum WestParser {
    struct Project: Equatable, Decodable {
        var name: String
        var path: String
        var revision: String
        var groups: [String]
        var url: String
        var active: Bool
    }

    /// The venv scripts/test.sh prepares; made here when missing.
    static let python: String? = {
        let venv = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/test-tools/venv")
        let python = venv.appendingPathComponent("bin/python").path
        if FileManager.default.fileExists(atPath: venv.appendingPathComponent("bin/west").path) { return python }
        let sandbox = try? Sandbox()
        guard let sandbox, (try? sandbox.run("/usr/bin/env", ["python3", "-m", "venv", venv.path], in: sandbox.root))?.status == 0,
              (try? sandbox.run(venv.appendingPathComponent("bin/pip").path, ["install", "-q", "--disable-pip-version-check", "west", "vcstool"], in: sandbox.root))?.status == 0
        else {
            print("skipping the west parser checks: could not pip-install west into \(venv.path)")
            return nil
        }
        return python
    }()

    /// Every project of `manifest` as west resolves it, imports read from the work trees below `topdir`.
    static func projects(_ sandbox: Sandbox, manifest: String, topdir: String) throws -> [Project]? {
        guard let python else { return nil }
        try sandbox.write("""
            import json, os, sys
            from west.manifest import Manifest
            path, topdir = sys.argv[1], sys.argv[2]
            def importer(project, file):
                with open(os.path.join(topdir, project.path, file)) as f:
                    return f.read()
            if os.path.isdir(os.path.join(topdir, ".west")):
                m = Manifest.from_file(path, importer=importer)
            else:
                with open(path) as f:
                    m = Manifest.from_data(f.read(), importer=importer)
            print(json.dumps([{"name": p.name, "path": p.path, "revision": p.revision, "groups": p.groups, "url": p.url,
                               "active": m.is_active(p)} for p in m.projects[1:]]))

            """, to: "westlist.py")
        let result = try sandbox.run(python, [sandbox.url("westlist.py").path, sandbox.url(manifest).path, sandbox.url(topdir).path], in: sandbox.root)
        guard result.status == 0 else { throw SandboxError("west could not read \(manifest): \(result.err)") }
        return try JSONDecoder().decode([Project].self, from: Data(result.out.utf8))
    }
}
