import Foundation
import GitKit
import SpecKit
import Testing
import YAMLKit
@testable import ModKit

/// Every input that ever crashed or hung a reader (kept in Fuzz/Regressions/<target>/) is read again the way its fuzz target
/// reads it: it must end with a value or a located error, never a trap. New findings of scripts/fuzz.sh are added there.
@Suite struct FuzzRegressionTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz/Regressions")

    /// The inputs of one fuzz target, by file name.
    func inputs(_ target: String) throws -> [(name: String, bytes: [UInt8])] {
        let directory = Self.folder.appendingPathComponent(target)
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
        return try names.map { ($0, [UInt8](try Data(contentsOf: directory.appendingPathComponent($0)))) }
    }

    func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    /// A thrown manifest error must name a file position, and its report must be capped with lines a person can read.
    func expectLocated(_ error: ManifestError, _ name: String) {
        #expect(error.diagnostics.allSatisfy { $0.location != nil }, "\(name): \(error.rendered(colored: false).prefix(2000))")
        expectBounded(error.diagnostics, name)
    }

    /// At most `Diagnostic.reportLimit` errors shown, each line of the report short, however long the input's lines.
    func expectBounded(_ diagnostics: [Diagnostic], _ name: String) {
        let report = diagnostics.report(colored: false)
        #expect(report.components(separatedBy: ": error: ").count - 1 <= Diagnostic.reportLimit, "\(name)")
        let longest = report.split(separator: "\n").map(\.count).max() ?? 0
        #expect(longest <= 4 * SourceExcerpt.width, "\(name): a report line of \(longest) characters")
    }

    @Test func yamlSnapshotAndTemplateInputs() throws {
        let inputs = try inputs("FuzzYAML")
        #expect(!inputs.isEmpty)
        for (name, bytes) in inputs {
            if let text = try? YAML.text(fromUTF8: bytes) { _ = try? YAML.parse(text) }
            do { _ = try SnapshotFile.parse(bytes, displayPath: name, tag: "v1") } catch { expectLocated(error, name) }
            if let text = try? YAML.text(fromUTF8: bytes) {
                let source = ImportSource(url: URL(fileURLWithPath: "/nonexistent/ws/west.yml"), displayPath: name, text: text)
                do { _ = try WestImporter.read(source) } catch { expectLocated(error, name) }
                do { _ = try VcstoolImporter.read(source) } catch { expectLocated(error, name) }
            }
            do {
                _ = try Template.decode(bytes, directory: URL(fileURLWithPath: "/nonexistent"), name: "t", displayPath: "t", origin: .path)
            } catch {
                #expect(error.diagnostics.allSatisfy { $0.location != nil }, "\(name): \(error)")
            }
        }
    }

    @Test func manifestInputs() throws {
        for (name, bytes) in try inputs("FuzzManifest") {
            do {
                let text = try YAML.text(fromUTF8: bytes)
                _ = try ManifestLoader.parse(text: text, file: URL(fileURLWithPath: "/nonexistent/modkit.yml"), displayPath: name)
                // As the fuzz target does: what decodes takes a new module without trapping.
                if let edited = try? ManifestAppender.append([.init(name: "FuzzNew", path: "FuzzNew/Dir")], to: text) {
                    _ = try? ManifestLoader.parse(text: edited, file: URL(fileURLWithPath: "/nonexistent/modkit.yml"), displayPath: name)
                }
            } catch let error as ManifestError {
                expectLocated(error, name)
            } catch {
                #expect(name.hasPrefix("utf8-"), "\(name): \(error)")
            }
        }
    }

    @Test func specAndXMLInputs() throws {
        for (name, bytes) in try inputs("FuzzRuby") {
            _ = try? SpecReader.read(text(bytes), kind: .podspec)
            _ = try? SpecReader.read(text(bytes), kind: .podfile)
            _ = name
        }
        for (_, bytes) in try inputs("FuzzSwift") { _ = try? SpecReader.read(text(bytes), kind: .packageSwift) }
        for (_, bytes) in try inputs("FuzzJSON") { _ = try? SpecReader.read(text(bytes), kind: .podspecJSON) }
        for (name, bytes) in try inputs("FuzzXML") {
            _ = try? XMLTree.parse(text(bytes))
            // The importer warns about what it cannot carry over: ten thousand unknown attributes are one folded warning.
            let source = ImportSource(url: URL(fileURLWithPath: "/nonexistent/ws/default.xml"), displayPath: name, text: text(bytes))
            do { expectBounded(try RepoManifestImporter.read(source).warnings, name) } catch { expectLocated(error, name) }
        }
    }

    /// Index files: an entry count the file cannot hold once made the entry collection reserve gigabytes.
    @Test func indexInputs() throws {
        let inputs = try inputs("FuzzIndex")
        #expect(!inputs.isEmpty)
        for (name, bytes) in inputs {
            #expect(IndexCacheTree(indexFile: bytes, collectingEntries: true) == nil, "\(name)")
        }
    }
}
