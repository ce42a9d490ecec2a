import Foundation

/// Each case's three origin commits and what both sides must hold after each step.
extension GitExactCase {
    /// Writes stage 0 (the clone), 1 (the small update) or 2 (the large update, to which 150 files are added).
    func build(stage: Int, _ b: OriginBuilder) throws {
        switch (self, stage) {
        case (.plain, 0):
            try b.text("README.md", "hello\n")
            try b.text("Sources/Core/Core.swift", "enum Core {}\n")
            try b.text("docs/guide.md", "guide\n")
        case (.plain, 1):
            try b.text("Sources/Core/Core.swift", "enum Core { static let version = 2 }\n")
            try b.text("Sources/Core/New.swift", "struct New {}\n")
            b.remove("docs")
        case (.plain, _):
            try b.text("README.md", "hello again\n")

        case (.lineEndings, 0):
            try b.text(".gitattributes", "* text=auto\n*.bat text eol=crlf\n*.sh text eol=lf\n*.png binary\n")
            try b.text("a.txt", "one\ntwo\n")
            try b.text("run.bat", "echo 1\n")
            try b.text("tool.sh", "echo\n")
            try b.bytes(Array("img.png".utf8), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x01, 0x0A])
            try b.text("crlf.txt", "x\r\ny\r\n")
            try b.pinBlob("crlf.txt", Array("x\r\ny\r\n".utf8))
        case (.lineEndings, 1):
            try b.text("a.txt", "one\ntwo\nthree\n")
            try b.text("run.bat", "echo 2\n")
            try b.text("new.txt", "n\n")
        case (.lineEndings, _):
            try b.text("crlf.txt", "x\r\ny\r\nz\r\n")
            try b.pinBlob("crlf.txt", Array("x\r\ny\r\nz\r\n".utf8))
            try b.text("tool.sh", "echo 3\n")

        case (.ident, 0):
            try b.text(".gitattributes", "*.c ident\n")
            try b.text("src/main.c", "/* $Id$ */\nint main(void) { return 0; }\n")
        case (.ident, 1):
            try b.text("src/main.c", "/* $Id$ */\nint main(void) { return 1; }\n")
            try b.text("src/util.c", "/* $Id$ */\n")
        case (.ident, _):
            try b.text("src/util.c", "/* $Id$ */\nint util;\n")

        case (.symlinks, 0):
            try b.text("Lib.framework/Versions/A/Lib", "binary A\n")
            try b.text("Lib.framework/Versions/A/Headers/Lib.h", "// A\n")
            try b.link("Lib.framework/Versions/Current", to: "A")
            try b.link("Lib.framework/Lib", to: "Versions/Current/Lib")
            try b.link("Lib.framework/Headers", to: "Versions/Current/Headers")
            try b.text("config.txt", "real\n")
            try b.link("alias", to: "config.txt")
            try b.text("plain.txt", "plain\n")
            try b.link("linkdir", to: "Lib.framework")
            try b.text("realdir/inside.txt", "inside\n")
        case (.symlinks, 1):
            try b.text("Lib.framework/Versions/B/Lib", "binary B\n")
            try b.text("Lib.framework/Versions/B/Headers/Lib.h", "// B\n")
            try b.link("Lib.framework/Versions/Current", to: "B")
            try b.text("alias", "now a file\n")
            try b.link("plain.txt", to: "config.txt")
            b.remove("linkdir")
            try b.text("linkdir/file.txt", "in a directory now\n")
            b.remove("realdir")
            try b.link("realdir", to: "Lib.framework/Versions")
        case (.symlinks, _):
            try b.link("Lib.framework/Versions/Current", to: "A")
            try b.link("dangling", to: "does/not/exist")
            try b.link("alias", to: "config.txt")

        case (.executableBits, 0):
            try b.text("bin/run.sh", "#!/bin/sh\necho 1\n", executable: true)
            try b.text("bin/data.txt", "data\n")
            try b.text("bin/flip", "flip\n")
        case (.executableBits, 1):
            try b.executable("bin/run.sh", false)
            try b.executable("bin/flip", true)
            try b.text("bin/new.sh", "#!/bin/sh\n", executable: true)
        case (.executableBits, _):
            try b.text("bin/run.sh", "#!/bin/sh\necho 3\n", executable: true)
            try b.text("bulk/tool.sh", "#!/bin/sh\n", executable: true)

        case (.fileDirectorySwap, 0):
            try b.text("thing", "file\n")
            try b.text("dir/a.txt", "a\n")
            try b.text("dir/sub/b.txt", "b\n")
            try b.text("keep.txt", "keep\n")
        case (.fileDirectorySwap, 1):
            b.remove("thing")
            try b.text("thing/inner.txt", "inner\n")
            b.remove("dir")
            try b.text("dir", "now a file\n")
        case (.fileDirectorySwap, _):
            b.remove("thing")
            try b.text("thing", "file again\n")
            b.remove("dir")
            try b.text("dir/c.txt", "c\n")

        case (.lfs, 0):
            try b.git("lfs", "track", "*.bin")
            try b.bytes(Array("assets/logo.bin".utf8), Self.asset(1))
            try b.bytes(Array("assets/icon.bin".utf8), Self.asset(2))
            try b.text("readme.txt", "assets\n")
        case (.lfs, 1):
            try b.bytes(Array("assets/logo.bin".utf8), Self.asset(3))
            try b.bytes(Array("assets/new.bin".utf8), Self.asset(4))
        case (.lfs, _):
            try b.bytes(Array("assets/icon.bin".utf8), Self.asset(5))

        case (.customFilter, 0):
            try b.text(".gitattributes", "*.txt filter=rot13\n")
            try b.text("notes/hello.txt", "Hello World\n")
            try b.text("plain.md", "Hello\n")
        case (.customFilter, 1):
            try b.text("notes/hello.txt", "Hello Again\n")
            try b.text("notes/second.txt", "Second\n")
        case (.customFilter, _):
            try b.text("notes/second.txt", "Second, changed\n")

        case (.utf16Strings, 0):
            try b.text(".gitattributes", "*.strings text working-tree-encoding=UTF-16\n")
            try b.bytes(Array("en.lproj/Localizable.strings".utf8), Self.utf16LE(Self.strings[0]))
        case (.utf16Strings, 1):
            try b.bytes(Array("en.lproj/Localizable.strings".utf8), Self.utf16LE(Self.strings[1]))
            try b.bytes(Array("de.lproj/Localizable.strings".utf8), Self.utf16LE(Self.german[0]))
        case (.utf16Strings, _):
            try b.bytes(Array("de.lproj/Localizable.strings".utf8), Self.utf16LE(Self.german[1]))

        case (.hooks, 0): try b.text("a.txt", "one\n")
        case (.hooks, 1): try b.text("a.txt", "two\n")
        case (.hooks, _): try b.text("a.txt", "three\n")

        case (.sparse, 0):
            try b.text("top.txt", "top\n")
            try b.text("dirA/a1.txt", "a1\n")
            try b.text("dirA/sub/a2.txt", "a2\n")
            try b.text("dirB/b1.txt", "b1\n")
            try b.text("dirB/b2.txt", "b2\n")
        case (.sparse, 1):
            try b.text("dirA/a1.txt", "a1 v2\n")
            try b.text("dirA/a3.txt", "a3\n")
            try b.text("dirB/b1.txt", "b1 v2\n")
            try b.text("dirB/b3.txt", "b3\n")
        case (.sparse, _):
            try b.text("dirA/sub/a2.txt", "a2 v3\n")
            try b.text("dirB/b2.txt", "b2 v3\n")

        case (.byteNames, 0):
            try b.bytes(Self.nfc, Array("let cafe = 1\n".utf8))
            try b.bytes(Self.notUTF8, Array("raw name\n".utf8))
            try b.text(Self.longName, "long name\n")
        case (.byteNames, 1):
            b.remove(bytes: Self.nfc)
            try b.bytes(Self.nfd, Array("let cafe = 1\n".utf8))
            try b.bytes(Self.notUTF8, Array("raw name, changed\n".utf8))
        case (.byteNames, _):
            b.remove(bytes: Self.nfd)
            try b.bytes(Self.nfc, Array("let cafe = 3\n".utf8))
            try b.text(Self.longName, "long name, changed\n")

        case (.submodule, 0):
            let sub = b.root.appendingPathComponent("sub")
            try b.git("init", "-q", "-b", "main", sub.path, in: b.root)
            try b.git("commit", "-q", "--allow-empty", "-m", "sub 1", in: sub)
            try b.git("clone", "-q", "--bare", sub.path, b.root.appendingPathComponent("sub.git").path, in: b.root)
            try b.text(".gitmodules", "[submodule \"Vendor/Sub\"]\n\tpath = Vendor/Sub\n\turl = file://\(b.root.path)/sub.git\n")
            b.pin("Vendor/Sub", "160000,\(try b.git("rev-parse", "HEAD", in: sub))")
            try b.text("main.swift", "print(1)\n")
        case (.submodule, 1):
            let sub = b.root.appendingPathComponent("sub")
            try b.git("commit", "-q", "--allow-empty", "-m", "sub 2", in: sub)
            b.pin("Vendor/Sub", "160000,\(try b.git("rev-parse", "HEAD", in: sub))")
            try b.text("main.swift", "print(2)\n")
        case (.submodule, _):
            b.pin("Vendor/Sub", nil)
            b.remove(".gitmodules")
            try b.text("Vendor/README.md", "the submodule is gone\n")
        }
    }

    /// What both sides must hold after `step`, whatever the other side holds.
    func checks(_ step: GitExactStep) -> [GitExactCheck] {
        let stage = step.commit
        switch self {
        case .plain:
            return [GitExactCheck("Sources/Core/Core.swift", .text(stage == 0 ? "enum Core {}\n" : "enum Core { static let version = 2 }\n")),
                    GitExactCheck("docs/guide.md", stage == 0 ? .text("guide\n") : .absent),
                    GitExactCheck("README.md", .text(stage == 2 ? "hello again\n" : "hello\n"))]
        case .lineEndings:
            return [GitExactCheck("a.txt", .text(stage == 0 ? "one\r\ntwo\r\n" : "one\r\ntwo\r\nthree\r\n")),
                    GitExactCheck("run.bat", .text(stage == 0 ? "echo 1\r\n" : "echo 2\r\n")),
                    GitExactCheck("tool.sh", .text(stage == 2 ? "echo 3\n" : "echo\n")),
                    GitExactCheck("img.png", .bytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x01, 0x0A])),
                    GitExactCheck("crlf.txt", .text(stage == 2 ? "x\r\ny\r\nz\r\n" : "x\r\ny\r\n"))]
        case .ident:
            let expanded = GitExactCheck.Expect.matching("an expanded $Id: <blob> $") { bytes in
                let text = String(decoding: bytes, as: UTF8.self)
                return text.range(of: #"^/\* \$Id: [0-9a-f]{40} \$ \*/"#, options: .regularExpression) != nil
            }
            return [GitExactCheck("src/main.c", expanded)] + (stage > 0 ? [GitExactCheck("src/util.c", expanded)] : [])
        case .symlinks:
            return [GitExactCheck("Lib.framework/Versions/Current", .link(stage == 1 ? "B" : "A")),
                    GitExactCheck("Lib.framework/Lib", .link("Versions/Current/Lib")),
                    GitExactCheck("alias", stage == 1 ? .text("now a file\n") : .link("config.txt")),
                    GitExactCheck("plain.txt", stage == 0 ? .text("plain\n") : .link("config.txt")),
                    GitExactCheck("linkdir", stage == 0 ? .link("Lib.framework") : .directory),
                    GitExactCheck("realdir", stage == 0 ? .directory : .link("Lib.framework/Versions")),
                    GitExactCheck("dangling", stage == 2 ? .link("does/not/exist") : .absent)]
        case .executableBits:
            return [GitExactCheck("bin/run.sh", .executable(stage != 1)),
                    GitExactCheck("bin/flip", .executable(stage != 0)),
                    GitExactCheck("bin/data.txt", .executable(false)),
                    GitExactCheck("bin/run.sh", .matching("run.sh of this commit") { $0 == Array("#!/bin/sh\necho \(stage == 2 ? 3 : 1)\n".utf8) })]
        case .fileDirectorySwap:
            return [GitExactCheck("thing", stage == 1 ? .directory : .text(stage == 0 ? "file\n" : "file again\n")),
                    GitExactCheck("dir", stage == 1 ? .text("now a file\n") : .directory),
                    GitExactCheck("dir/sub/b.txt", stage == 0 ? .text("b\n") : .absent)]
        case .lfs:
            return [GitExactCheck("assets/logo.bin", .bytes(Self.asset(stage == 0 ? 1 : 3))),
                    GitExactCheck("assets/icon.bin", .bytes(Self.asset(stage == 2 ? 5 : 2))),
                    GitExactCheck("assets/new.bin", stage == 0 ? .absent : .bytes(Self.asset(4)))]
        case .customFilter:
            return [GitExactCheck("notes/hello.txt", .text(stage == 0 ? "Hello World\n" : "Hello Again\n")),
                    GitExactCheck("notes/second.txt", stage == 0 ? .absent : .text(stage == 1 ? "Second\n" : "Second, changed\n"))]
        case .utf16Strings:
            let english = Self.strings[stage == 0 ? 0 : 1]
            return [GitExactCheck("en.lproj/Localizable.strings", .matching("UTF-16 with a BOM of \(english.debugDescription)") {
                Self.decodeUTF16($0) == english
            })]
        case .hooks:
            return [GitExactCheck("a.txt", .text(["one\n", "two\n", "three\n"][stage]))]
        case .sparse:
            let sparse = step != .clone
            return [GitExactCheck("dirA/a1.txt", .text(stage == 0 ? "a1\n" : "a1 v2\n")),
                    GitExactCheck("dirB/b1.txt", sparse ? .absent : .text("b1\n")),
                    GitExactCheck("top.txt", .text("top\n"))]
        case .byteNames:
            return [GitExactCheck(bytes: Self.nfc, stage == 1 ? .absent : .text(stage == 0 ? "let cafe = 1\n" : "let cafe = 3\n")),
                    GitExactCheck(bytes: Self.nfd, stage == 1 ? .text("let cafe = 1\n") : .absent),
                    GitExactCheck(bytes: Self.notUTF8, .text(stage == 0 ? "raw name\n" : "raw name, changed\n")),
                    GitExactCheck(Self.longName, .text(stage == 2 ? "long name, changed\n" : "long name\n"))]
        case .submodule:
            return [GitExactCheck("Vendor/Sub", stage == 2 ? .absent : .directory),
                    GitExactCheck("main.swift", .text(stage == 0 ? "print(1)\n" : "print(2)\n"))]
        }
    }
}
