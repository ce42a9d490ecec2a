import Foundation
import GitKit
import Testing

@Suite struct WorkTreeMoveTests {
    /// Binary blobs (NUL bytes, random data) are written byte for byte; `git_blob_filter`'s default would write them empty.
    @Test func binaryFilesAreWrittenByteForByte() throws {
        let sandbox = try Sandbox()
        defer { sandbox.cleanup() }
        let work = sandbox.at("repo")
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        try git("init", "-q", in: work)
        let first = try commitFile(work, "README.md", "hello\n", "Initial commit")
        let binary = Data((0..<70_000).map { UInt8(truncatingIfNeeded: ($0 * 7919) ^ ($0 >> 3)) }) + Data([0, 0, 255])
        try binary.write(to: URL(fileURLWithPath: work + "/blob.bin"))
        let text = "line one\r\nline two\n"
        try write(text, to: work + "/notes.txt")
        try git("add", "-A", in: work)
        try git("commit", "-qm", "Add a binary file", in: work)
        let second = try #require(OID(hex: try git("rev-parse", "HEAD", in: work)))
        try git("checkout", "-q", first.hex, in: work)
        #expect(!exists(work + "/blob.bin"))

        let repository = try Repository.open(work)
        try WorkTreeMove.perform(repository, to: second, branch: nil, logMessage: "test: move")
        #expect(try Data(contentsOf: URL(fileURLWithPath: work + "/blob.bin")) == binary)
        #expect(try Data(contentsOf: URL(fileURLWithPath: work + "/notes.txt")) == Data(text.utf8))
        #expect(try git("rev-parse", "HEAD", in: work) == second.hex)
        #expect(try git("status", "--porcelain", in: work) == "")
        #expect(try git("diff", "--stat", in: work) == "")
    }
}
