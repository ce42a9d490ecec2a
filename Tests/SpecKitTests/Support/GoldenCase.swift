import Foundation
import SpecKit

/// One before/after rewrite case stored under `Golden/<name>/`: `case.json`, `input.<ext>`, `expected.<ext>`.
struct GoldenCase: Sendable, CustomStringConvertible {
    /// The folder name of the case.
    let name: String
    /// The kind of spec file the case holds.
    let kind: SpecFileKind
    /// The versions to pin, keyed by module name, pod name or URL.
    let versions: [String: String]
    /// The names (as read) of the requirements SpecKit must report as not rewritable.
    let skipped: [String]
    private let directory: URL

    var description: String { name }

    /// The folder holding all golden cases, found next to this source file so no resources need declaring.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Golden")

    /// The file extension fixtures of a kind use; Package.swift fixtures avoid `.swift` so they are not compiled.
    static func fileExtension(_ kind: SpecFileKind) -> String {
        switch kind {
        case .podspec: return "podspec"
        case .podspecJSON: return "podspec.json"
        case .podfile: return "Podfile"
        case .packageSwift: return "swift.txt"
        case .cartfile: return "Cartfile"
        }
    }

    /// Every case, sorted by name; an unreadable case becomes a case that fails.
    static func all() -> [GoldenCase] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { load($0) }
    }

    private static func load(_ name: String) -> GoldenCase {
        let directory = root.appendingPathComponent(name)
        struct Manifest: Decodable {
            var kind: String
            var versions: [String: String]
            var skipped: [String]
        }
        let manifest = (try? Data(contentsOf: directory.appendingPathComponent("case.json")))
            .flatMap { try? JSONDecoder().decode(Manifest.self, from: $0) }
        return GoldenCase(name: name, kind: manifest.flatMap { SpecFileKind(rawValue: $0.kind) } ?? .cartfile,
                          versions: manifest?.versions ?? [:], skipped: manifest?.skipped ?? ["<case.json unreadable>"],
                          directory: directory)
    }

    /// The input file, byte for byte (some fixtures are not UTF-8).
    func input() throws -> [UInt8] { try read("input") }

    /// The expected output file, byte for byte.
    func expected() throws -> [UInt8] { try read("expected") }

    private func read(_ stem: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: directory.appendingPathComponent(stem + "." + Self.fileExtension(kind))))
    }
}
