import Foundation
import Testing

/// The steps of a differential run, each followed by a comparison with plain git.
enum GitExactStep: String {
    case clone = "clone"
    case sparse = "sparse-checkout set"
    case smallUpdate = "small update"
    case largeUpdate = "large update"
    case snapshot = "snapshot checkout"

    /// Which of the origin's three commits the step leaves checked out.
    var commit: Int {
        switch self {
        case .clone, .sparse, .snapshot: return 0
        case .smallUpdate: return 1
        case .largeUpdate: return 2
        }
    }
}

/// What a path must hold on both sides after a step, whatever the other side holds: keeps a case from passing when
/// modkit and the reference clone are wrong the same way (an LFS pointer on both sides, a missing smudge).
struct GitExactCheck {
    enum Expect {
        case text(String)
        case bytes([UInt8])
        case executable(Bool)
        case link(String)
        case directory
        case absent
        case matching(String, ([UInt8]) -> Bool)
    }

    var path: [UInt8]
    var expect: Expect

    init(_ path: String, _ expect: Expect) { self.path = Array(path.utf8); self.expect = expect }
    init(bytes path: [UInt8], _ expect: Expect) { self.path = path; self.expect = expect }

    /// nil when `entry` is what is expected, else what is wrong.
    func problem(_ entry: TreeEntry?) -> String? {
        let ok: Bool
        var wanted: String
        switch expect {
        case .text(let text):
            ok = { if case .file(_, let bytes) = entry { return bytes == Array(text.utf8) }; return false }()
            wanted = "\"\(RawFS.show(Array(text.utf8)))\""
        case .bytes(let expected):
            ok = { if case .file(_, let bytes) = entry { return bytes == expected }; return false }()
            wanted = "\(expected.count) given bytes"
        case .executable(let executable):
            ok = { if case .file(let mode, _) = entry { return (mode & 0o100 != 0) == executable }; return false }()
            wanted = executable ? "an executable file" : "a file that is not executable"
        case .link(let target):
            ok = entry == .link(target: Array(target.utf8))
            wanted = "symlink -> \(target)"
        case .directory:
            ok = { if case .directory = entry { return true }; return false }()
            wanted = "a directory"
        case .absent:
            ok = entry == nil
            wanted = "nothing"
        case .matching(let what, let predicate):
            ok = { if case .file(_, let bytes) = entry { return predicate(bytes) }; return false }()
            wanted = what
        }
        return ok ? nil : "\(RawFS.show(path)): expected \(wanted), found \(SideState.describe(entry))"
    }
}

/// One repository feature whose checkout, fast-forward and snapshot checkout modkit must leave exactly as git does.
enum GitExactCase: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case plain, lineEndings, ident, symlinks, executableBits, fileDirectorySwap, lfs, customFilter, utf16Strings,
         hooks, sparse, byteNames, submodule

    var testDescription: String { rawValue }

    static let lfsAvailable: Bool = {
        (try? Exec.run("/usr/bin/env", ["git", "lfs", "version"], in: FileManager.default.temporaryDirectory,
                       environment: ProcessInfo.processInfo.environment).status) == 0
    }()

    /// The global git config of both sides (and of the source repository), plus hook scripts and `git lfs install`.
    func prepareHome(_ home: URL, environment: [String: String]) throws {
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        var config = GitExactEnvironment.baseConfig
        switch self {
        case .lineEndings: config += "[core]\n\tautocrlf = true\n"
        case .customFilter: config += "[filter \"rot13\"]\n\tclean = tr A-Za-z N-ZA-Mn-za-m\n\tsmudge = tr A-Za-z N-ZA-Mn-za-m\n"
        case .hooks:
            let hooks = home.appendingPathComponent("hooks")
            config += "[core]\n\thooksPath = \(hooks.path)\n"
            for name in ["post-checkout", "post-merge"] {
                let script = hooks.appendingPathComponent(name)
                try RawFS.writeFile(Array("#!/bin/sh\n[ -z \"$HOOK_LOG\" ] || echo \"\(name) $* $(basename \"$PWD\")\" >> \"$HOOK_LOG\"\n".utf8),
                                to: Array(script.path.utf8), executable: true)
            }
        default: break
        }
        try config.write(to: home.appendingPathComponent(".gitconfig"), atomically: true, encoding: .utf8)
        if self == .lfs {
            try Exec.git(["lfs", "install", "--skip-repo"], in: home, environment: environment)
        }
    }

    /// Commands both sides run right after the clone.
    var afterClone: [String]? { self == .sparse ? ["sparse-checkout", "set", "dirA"] : nil }

    static let nfc: [UInt8] = Array("Caf".utf8) + [0xC3, 0xA9] + Array(".swift".utf8)
    static let nfd: [UInt8] = Array("Cafe".utf8) + [0xCC, 0x81] + Array(".swift".utf8)
    static let notUTF8: [UInt8] = Array("raw-".utf8) + [0xFF, 0xFE, 0x80] + Array(".txt".utf8)
    static let longName = String(repeating: "L", count: 246) + ".txt"

    /// Pseudo-random bytes (with NUL and CR LF in them) that stand for a binary asset.
    static func asset(_ seed: Int, count: Int = 3000) -> [UInt8] {
        var state = UInt32(truncatingIfNeeded: seed &* 2_654_435_761 &+ 1)
        return (0..<count).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        }
    }

    static func utf16LE(_ text: String) -> [UInt8] {
        [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    }

    /// Decodes UTF-16 with either byte-order mark; nil without one.
    static func decodeUTF16(_ bytes: [UInt8]) -> String? {
        guard bytes.count >= 2, bytes.count % 2 == 0 else { return nil }
        let littleEndian: Bool
        switch (bytes[0], bytes[1]) {
        case (0xFF, 0xFE): littleEndian = true
        case (0xFE, 0xFF): littleEndian = false
        default: return nil
        }
        let units = stride(from: 2, to: bytes.count, by: 2).map { index -> UInt16 in
            littleEndian ? UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8 : UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1])
        }
        return String(decoding: units, as: UTF16.self)
    }

    static let strings = ["\"hello\" = \"Hello\";\n", "\"hello\" = \"Hello again, Zoë\";\n\"bye\" = \"Bye\";\n"]
    static let german = ["\"hello\" = \"Grüß dich\";\n", "\"hello\" = \"Grüß dich, ß\";\n"]
}
