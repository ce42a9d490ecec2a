import Foundation
import Testing

/// Nested repository modules through a release's whole life, with the built binary on a Zephyr-shaped workspace
/// (see `NestedWorkspace`): `status`, `forall --topo`, `graph`, `tag`, `checkout SNAPSHOT` and `release`.
@Suite struct NestedModulesEndToEndTests {
    func expectOK(_ result: ProcessResult, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == 0, "\(what) exited \(result.status): \(result.err)\(result.out)", sourceLocation: sourceLocation)
    }

    @Test func tagMoveOnAndCheckoutTheSnapshotBackOuterAndInner() throws {
        let workspace = try NestedWorkspace()
        let sandbox = workspace.sandbox
        // The user's build output inside the inner modules, ignored by their own .gitignore.
        try sandbox.write("object\n", to: "ws/tools/bsim/components/build/base.o")
        try sandbox.write("object\n", to: "ws/tools/bsim/components/ext_2G4_libPhyComv1/build/phy.o")
        for name in NestedWorkspace.names { #expect(try workspace.porcelain(name) == "", "\(name) is clean") }
        #expect(try sandbox.git("ls-files", in: "ws/tools/bsim") == ".gitignore\nMakefile\nREADME.md\nbsim.podspec")
        #expect(try sandbox.git("ls-files", in: "ws/tools/bsim/components") == ".gitignore\nREADME.md\nbabblesim_base.podspec")

        let tag = try sandbox.modkit("tag", "v3.7.0", in: "ws")
        expectOK(tag, "tag")
        let recorded = try workspace.heads()
        let file = try sandbox.snapshotFile("v3.7.0")
        for module in NestedWorkspace.modules {
            let fields = try sandbox.snapshotFields(file, module: module.name)
            #expect(fields["commit"] == recorded[module.name], "\(module.name) records its own commit:\n\(file)")
            #expect(fields["path"] == module.path)
            #expect(sandbox.tagCommit("Zephyr/v3.7.0", in: NestedWorkspace.path(of: module.name)) == recorded[module.name], "\(module.name)")
        }
        #expect(Set(recorded.values).count == NestedWorkspace.names.count + 1, "every repository has its own commit")

        // Outer and inner move on: the outer's Makefile goes, a docs folder and a file beside the inner ones come.
        let outerNew = try workspace.commit("docs", in: "bsim", files: ["Makefile": nil, "docs/guide.md": "guide\n", "components.mk": "x\n",
                                                                      "README.md": "# bsim 2\n"])
        let innerNew = try workspace.commit("feat: phy", in: "babblesim_base", files: ["src/phy.c": "int phy;\n", "README.md": "# base 2\n"])
        let extNew = try workspace.commit("feat: ext", in: "babblesim_ext_2G4_libPhyComv1", files: ["src/ext.c": "int ext;\n"])
        expectOK(try sandbox.modkit("sync", in: "ws"), "sync")
        #expect(try workspace.head("bsim") == outerNew && workspace.head("babblesim_base") == innerNew
                && workspace.head("babblesim_ext_2G4_libPhyComv1") == extNew)
        // A user's untracked file inside the inner module is the inner module's, not the outer's.
        try sandbox.write("mine\n", to: "ws/tools/bsim/components/NOTES.txt")
        #expect(try workspace.porcelain("bsim", ignored: false) == "")
        #expect(try workspace.porcelain("babblesim_base") == "?? NOTES.txt")

        let checkout = try sandbox.modkit("checkout", "v3.7.0", in: "ws")
        expectOK(checkout, "checkout v3.7.0")
        for name in NestedWorkspace.names { #expect(try workspace.head(name) == recorded[name], "\(name) is back") }
        #expect(try sandbox.read("ws/tools/bsim/Makefile") == "all:\n\tmake -C components\n")
        #expect(try sandbox.read("ws/tools/bsim/README.md") == "# bsim\n")
        #expect(!FileManager.default.fileExists(atPath: sandbox.url("ws/tools/bsim/docs").path))
        #expect(!FileManager.default.fileExists(atPath: sandbox.url("ws/tools/bsim/components.mk").path))
        #expect(!FileManager.default.fileExists(atPath: sandbox.url("ws/tools/bsim/components/src/phy.c").path))
        #expect(try sandbox.read("ws/tools/bsim/components/README.md") == "# babblesim_base\n")
        // Nothing of the inner modules was lost or taken for the outer's.
        #expect(try sandbox.read("ws/tools/bsim/components/NOTES.txt") == "mine\n")
        #expect(try sandbox.read("ws/tools/bsim/components/build/base.o") == "object\n")
        #expect(try sandbox.read("ws/tools/bsim/components/ext_2G4_libPhyComv1/build/phy.o") == "object\n")
        #expect(try sandbox.read("ws/tools/bsim/components/ext_2G4_libPhyComv1/babblesim_ext_2G4_libPhyComv1.podspec").contains("1.0.0"))
        #expect(try workspace.porcelain("bsim") == "")
        #expect(try workspace.porcelain("babblesim_base") == "?? NOTES.txt")
        #expect(try workspace.porcelain("babblesim_ext_2G4_libPhyComv1") == "")

        let status = try sandbox.modkit("status", "--json", in: "ws")
        expectOK(status, "status")
        let modules = try #require((try sandbox.json(status) as? [String: Any])?["modules"] as? [[String: Any]])
        for module in modules {
            let name = try #require(module["name"] as? String)
            #expect(module["commit"] as? String == recorded[name], "\(name): \(module)")
            #expect(module["detached"] as? Bool == true, "\(name): \(module)")
        }
        #expect(modules.count == 4)
        // And forward again: a plain checkout of the branch heads is a sync away.
        try sandbox.git("checkout", "-q", "main", in: "ws")
        for name in NestedWorkspace.names { try sandbox.git("checkout", "-q", "main", in: NestedWorkspace.path(of: name)) }
        #expect(try workspace.head("bsim") == outerNew && sandbox.read("ws/tools/bsim/components/src/phy.c") == "int phy;\n")
    }

    /// When the outer repository's exclude file cannot be written, sync says so on the outer module's row instead of
    /// leaving the inner modules to show up as untracked files of the outer one without a word.
    @Test func anExcludeFileThatCannotBeWrittenIsReported() throws {
        let workspace = try NestedWorkspace()
        let sandbox = workspace.sandbox
        let outer = NestedWorkspace.path(of: "bsim")
        let exclude = sandbox.url("\(outer)/.git/info/exclude")
        try FileManager.default.removeItem(at: exclude)
        try FileManager.default.createDirectory(at: exclude, withIntermediateDirectories: true)
        let sync = try sandbox.modkit("sync", "--no-manifest-update", in: "ws")
        #expect(sync.err.contains("bsim: the modules inside it are not kept out of its status (\(outer.dropFirst("ws/".count))/.git/info/exclude:"),
                "\(sync.out)\(sync.err)")
    }

    @Test func checkoutInAFreshCloneClonesOuterBeforeInner() throws {
        let workspace = try NestedWorkspace()
        let sandbox = workspace.sandbox
        expectOK(try sandbox.modkit("tag", "v3.7.0", "--push", in: "ws"), "tag --push")
        let recorded = try workspace.heads()
        try workspace.commit("later", in: "bsim", files: ["LATER": "x\n"])

        try sandbox.git("clone", "-q", sandbox.url("remotes/Zephyr.git").path, "fresh")
        let checkout = try sandbox.modkit("checkout", "v3.7.0", in: "fresh")
        expectOK(checkout, "checkout in a fresh clone")
        for module in NestedWorkspace.modules {
            #expect(try sandbox.git("rev-parse", "HEAD", in: "fresh/\(module.path)") == recorded[module.name], "\(module.name)")
            #expect(try sandbox.git("status", "--porcelain", "--untracked-files=all", in: "fresh/\(module.path)") == "", "\(module.name) is clean")
        }
        #expect(try sandbox.read("fresh/tools/bsim/.git/info/exclude").contains("/components/\n"))
    }

    @Test func forallTopoAndGraphSeeNestedModulesAsOrdinaryModules() throws {
        let workspace = try NestedWorkspace()
        let sandbox = workspace.sandbox
        let forall = try sandbox.modkit("forall", "--topo", "-j", "1", "-c", "echo \"$MODKIT_MODULE $(git rev-parse --show-toplevel)\"", in: "ws")
        expectOK(forall, "forall --topo")
        let lines = forall.out.split(separator: "\n").map(String.init)
        func line(_ name: String) -> Int? { lines.firstIndex(of: "\(name) \(sandbox.url(NestedWorkspace.path(of: name)).path)") }
        for name in NestedWorkspace.names { #expect(line(name) != nil, "\(name) runs in its own repository:\n\(forall.out)") }
        let base = try #require(line("babblesim_base")), ext = try #require(line("babblesim_ext_2G4_libPhyComv1")), zephyr = try #require(line("zephyr"))
        #expect(base < ext && base < zephyr, "dependencies first:\n\(forall.out)")

        let graph = try sandbox.modkit("graph", "--format", "json", in: "ws")
        expectOK(graph, "graph")
        let report = try #require(try sandbox.json(graph) as? [String: Any])
        let order = try #require(report["order"] as? [String])
        #expect(Set(order) == Set(NestedWorkspace.names), "\(graph.out)")
        // Each module has its own spec's dependencies; the outer module takes none of the inner modules' for its own.
        let dependencies = try #require(report["dependencies"] as? [String: [String]])
        #expect(dependencies == ["bsim": [], "babblesim_base": [], "babblesim_ext_2G4_libPhyComv1": ["babblesim_base"], "zephyr": ["babblesim_base"]],
                "\(graph.out)")
        #expect(order.firstIndex(of: "babblesim_base")! < order.firstIndex(of: "babblesim_ext_2G4_libPhyComv1")!)
    }

    @Test func releaseAcrossAWorkspaceWithNestedModules() throws {
        let workspace = try NestedWorkspace()
        let sandbox = workspace.sandbox
        expectOK(try sandbox.modkit("tag", "2024.5", "--push", in: "ws"), "tag")
        try workspace.commit("feat: a makefile target", in: "bsim", files: ["Makefile": "all:\n\tmake -C components\ncheck:\n"])
        try workspace.commit("fix: a phy timing", in: "babblesim_base", files: ["src/phy.c": "int phy;\n"])
        let extHead = try workspace.head("babblesim_ext_2G4_libPhyComv1")

        let plan = try sandbox.modkit("release", "2024.6", "--plan", in: "ws")
        expectOK(plan, "release --plan")
        let rows = plan.out.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        #expect(rows.contains { $0.prefix(3) == ["bsim", "1.0.0", "1.1.0"] }, "\(plan.out)")
        #expect(rows.contains { $0.prefix(3) == ["babblesim_base", "1.0.0", "1.0.1"] }, "\(plan.out)")
        let result = try sandbox.modkit("release", "2024.6", "--yes", in: "ws")
        expectOK(result, "release")

        // Each release commit holds its own repository's release files only.
        let changed = { (name: String) in
            try sandbox.git("show", "--name-only", "--format=", "HEAD", in: NestedWorkspace.path(of: name)).split(separator: "\n").map(String.init).sorted()
        }
        let outerFiles = try changed("bsim"), innerFiles = try changed("babblesim_base")
        #expect(outerFiles == ["CHANGELOG.md", "Generated/bsimVersion.h", "Generated/bsimVersion.swift", "bsim.podspec"], "\(outerFiles)")
        #expect(innerFiles == ["CHANGELOG.md", "Generated/babblesim_baseVersion.h", "Generated/babblesim_baseVersion.swift", "babblesim_base.podspec"],
                "\(innerFiles)")
        let lines = result.out.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        for (path, subject) in [("tools/bsim", "Release bsim 1.1.0"), ("tools/bsim/components", "Release babblesim_base 1.0.1")] {
            let line = lines.first { $0.hasPrefix("\(path): ") && $0.contains(subject) }
            #expect(line?.hasSuffix("(4 files)") == true, "\(path) commits its own 4 files: \(line ?? result.out)")
        }
        #expect(try sandbox.read("ws/tools/bsim/bsim.podspec").contains("s.version = '1.1.0'"))
        #expect(try sandbox.read("ws/tools/bsim/components/babblesim_base.podspec").contains("s.version = '1.0.1'"))
        let extSpec = try sandbox.read("ws/tools/bsim/components/ext_2G4_libPhyComv1/babblesim_ext_2G4_libPhyComv1.podspec")
        #expect(extSpec.contains("s.dependency 'babblesim_base', '1.0.1'"), "\(extSpec)")
        for name in NestedWorkspace.names { #expect(try workspace.porcelain(name) == "", "\(name) is clean") }
        #expect(try sandbox.git("status", "--porcelain", "--untracked-files=all", in: "ws") == "")
        for (name, version) in [("bsim", "1.1.0"), ("babblesim_base", "1.0.1")] {
            let tags = try sandbox.git("--git-dir", sandbox.url("remotes/\(name).git").path, "tag", "-l")
            #expect(tags.split(separator: "\n").contains(Substring(version)), "\(name): \(tags)")
            #expect(try sandbox.git("--git-dir", sandbox.url("remotes/\(name).git").path, "rev-parse", "\(version)^{commit}") == workspace.head(name))
        }
        #expect(sandbox.tagCommit("Zephyr/2024.6", in: "ws/tools/bsim/components/ext_2G4_libPhyComv1") != nil)
        #expect(try workspace.head("babblesim_ext_2G4_libPhyComv1") != extHead, "its pin on babblesim_base moved")
    }

    @Test func aDirectoryModuleInsideARepositoryModuleIsAnErrorThatSaysWhy() throws {
        let workspace = try NestedWorkspace()
        let sandbox = workspace.sandbox
        let manifest = try sandbox.read("ws/modkit.yml")
        let lines = manifest.split(separator: "\n", omittingEmptySubsequences: false).count
        try sandbox.write(manifest + "  - name: bsim_docs\n    path: tools/bsim/docs\n", to: "ws/modkit.yml")
        let edited = try sandbox.read("ws/modkit.yml")
        for command in [["sync"], ["status"], ["tag", "v1"]] {
            let result = try sandbox.modkit(command, in: "ws")
            #expect(result.status == 2, "\(command): \(result.err)")
            #expect(result.err.contains("modkit.yml:\(lines + 1):11: error: module path 'tools/bsim/docs' lies inside module 'bsim' at 'tools/bsim'; "
                + "'bsim_docs' is a directory module, part of the manifest repository, so it cannot lie in the work tree of repository module 'bsim'"),
                "\(command): \(result.err)")
            #expect(result.err.contains("give 'bsim_docs' a 'url' of its own, or move it out of 'tools/bsim'"), "\(result.err)")
        }
        #expect(!FileManager.default.fileExists(atPath: sandbox.url("ws/tools/bsim/docs").path))
        #expect(try sandbox.read("ws/modkit.yml") == edited)
        #expect(try sandbox.git("tag", "-l", in: "ws") == "")

        // `modkit new` refuses to make one, and writes nothing.
        try sandbox.write(manifest, to: "ws/modkit.yml")
        let new = try sandbox.modkit(["new", "Docs", "--dir", "--path", "tools/bsim/Docs"], in: "ws")
        #expect(new.status == 2, "\(new.out)\(new.err)")
        #expect(new.err.contains("modkit.yml:15:5: error: module path 'tools/bsim/Docs' lies inside module 'bsim' at 'tools/bsim'; a directory module "
            + "is part of the manifest repository, so it cannot lie in the work tree of repository module 'bsim'"), "\(new.err)")
        #expect(new.err.contains("choose a --path outside 'tools/bsim'"), "\(new.err)")
        #expect(try sandbox.read("ws/modkit.yml") == manifest)
        #expect(!FileManager.default.fileExists(atPath: sandbox.url("ws/tools/bsim/Docs").path))
        #expect(try workspace.porcelain("bsim") == "")
    }

    @Test func aWestWorkspaceClonedBeforeTheImportKeepsInnerModulesOutOfTheOuterStatus() throws {
        let workspace = try NestedWorkspace()
        let sandbox = workspace.sandbox
        // What `west update` leaves: plain clones, the inner ones inside the outer's work tree, no exclude written.
        var projects = ""
        for module in NestedWorkspace.modules.sorted(by: { $0.path < $1.path }) {
            try sandbox.git("clone", "-q", sandbox.url("remotes/\(module.name).git").path, "west/\(module.path)")
            projects += "    - name: \(module.name)\n      remote: upstream\n      path: \(module.path)\n      revision: main\n"
        }
        try sandbox.write("manifest:\n  remotes:\n    - name: upstream\n      url-base: file://\(sandbox.url("remotes").path)\n  projects:\n"
                          + projects + "  self:\n    path: app\n", to: "west/app/west.yml")
        #expect(try sandbox.git("status", "--porcelain", in: "west/tools/bsim") == "?? components/", "git sees the inner clone as untracked")

        expectOK(try sandbox.modkit("init", "--import", "app/west.yml", in: "west"), "init --import")
        #expect(try sandbox.read("west/tools/bsim/.git/info/exclude").hasSuffix("/components/\n"))
        #expect(try sandbox.read("west/tools/bsim/components/.git/info/exclude").hasSuffix("/ext_2G4_libPhyComv1/\n"))
        #expect(try sandbox.git("status", "--porcelain", in: "west/tools/bsim") == "")
        #expect(try sandbox.git("ls-files", in: "west/tools/bsim") == ".gitignore\nMakefile\nREADME.md\nbsim.podspec", "no tracked file changed")
        let status = try sandbox.modkit("status", "--json", in: "west")
        expectOK(status, "status")
        let modules = try #require((try sandbox.json(status) as? [String: Any])?["modules"] as? [[String: Any]])
        #expect(modules.count == 4 && modules.allSatisfy { $0["untracked"] as? Int == 0 && $0["outcome"] as? String == "clean" }, "\(status.out)")
    }

    @Test func anOuterCommitThatTracksFilesInsideAnInnerModuleIsRefusedNotMixedIn() throws {
        let workspace = try NestedWorkspace()
        let sandbox = workspace.sandbox
        expectOK(try sandbox.modkit("tag", "v1", in: "ws"), "tag")
        let before = try workspace.heads()
        // Upstream, the outer repository force-adds a file where the inner module lives; the inner one has its own.
        try sandbox.git("clone", "-q", sandbox.url("remotes/bsim.git").path, "upstream-bsim")
        try sandbox.write("outer's\n", to: "upstream-bsim/components/board.h")
        try sandbox.git("add", "-f", "components/board.h", in: "upstream-bsim")
        try sandbox.git("commit", "-qm", "track a file in components", in: "upstream-bsim")
        try sandbox.git("push", "-q", "origin", "main", in: "upstream-bsim")

        // Whether or not the inner module has such a file, the outer's sync leaves the inner module's folder alone.
        for innerFile in [nil, "inner's\n"] {
            if let innerFile { try sandbox.write(innerFile, to: "ws/tools/bsim/components/board.h") }
            let sync = try sandbox.modkit("sync", "bsim", in: "ws")
            #expect(sync.status == 1, "\(sync.out)\(sync.err)")
            #expect(sync.err.contains("incoming changes lie inside another git repository nested in this work tree: components/board.h (in the repository at components)"),
                    "\(sync.err)")
            #expect(try workspace.head("bsim") == before["bsim"])
            #expect((try? sandbox.read("ws/tools/bsim/components/board.h")) == innerFile, "the inner module's folder is untouched")
            #expect(try workspace.porcelain("bsim") == "")
        }

        // Moved there with git itself (which writes the file into the inner module's folder), a checkout of the
        // snapshot would delete it from there: refused before anything moves.
        try sandbox.write("", to: "ws/tools/bsim/components/board.h")
        try FileManager.default.removeItem(at: sandbox.url("ws/tools/bsim/components/board.h"))
        try sandbox.git("fetch", "-q", "origin", in: "ws/tools/bsim")
        try sandbox.git("merge", "-q", "--ff-only", "origin/main", in: "ws/tools/bsim")
        #expect(try sandbox.read("ws/tools/bsim/components/board.h") == "outer's\n")
        let moved = try workspace.heads()
        let checkout = try sandbox.modkit("checkout", "v1", in: "ws")
        #expect(checkout.status == 1, "\(checkout.out)\(checkout.err)")
        #expect(checkout.err.contains("bsim in tools/bsim: incoming changes lie inside another git repository nested in this work tree: "
            + "components/board.h (in the repository at components)"),
                "\(checkout.err)")
        #expect(checkout.err.contains("nothing was moved"), "\(checkout.err)")
        #expect(try workspace.heads() == moved)
        #expect(try sandbox.read("ws/tools/bsim/components/board.h") == "outer's\n")
    }
}
