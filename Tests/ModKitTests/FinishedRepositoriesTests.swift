import Foundation
import GitKit
@testable import ModKit
import Testing

/// `modkit status` holds the repositories it has read until the end, but never more than a bounded batch: with
/// 1,500 modules it must not keep 1,500 pack files open (issue 36).
@Suite struct FinishedRepositoriesTests {
    @Test func aFullBatchIsFreedAndItsPackFilesClosed() throws {
        let sandbox = try TransferSandbox()
        let clones = try (0..<5).map { index -> String in
            try sandbox.git("clone", "-q", "--no-local", sandbox.remote, "clone\(index)")
            return sandbox.path("clone\(index)")
        }
        let finished = StatusReader.FinishedRepositories(capacity: 3)
        for (index, clone) in clones.enumerated() {
            let repository = try Repository.open(clone)
            _ = try repository.status()  // reads objects: the pack file is open now
            #expect(!openPackFiles(under: clone).isEmpty)
            finished.keep(repository)
            #expect(finished.count == (index + 1) % 3)
        }
        #expect(clones.prefix(3).allSatisfy { openPackFiles(under: $0).isEmpty }, "the full batch is closed")
        #expect(clones.suffix(2).allSatisfy { !openPackFiles(under: $0).isEmpty }, "the rest waits for free()")
        finished.free()
        #expect(finished.count == 0)
        #expect(clones.allSatisfy { openPackFiles(under: $0).isEmpty })
    }

    /// This process's open descriptors that point into `directory`'s pack folder (Linux; empty elsewhere).
    private func openPackFiles(under directory: String) -> [String] {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        let packs = URL(fileURLWithPath: directory).resolvingSymlinksInPath().path + "/.git/objects/pack/"
        return descriptors.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0) }
            .filter { $0.hasPrefix(packs) }
    }
}
