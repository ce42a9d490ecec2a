import Foundation
@testable import ModKit
import Testing

/// Which servers a sync shares ssh connections to, decided before any connection opens (the connections themselves:
/// SSHConnectionShareEndToEndTests, against sshd).
struct SSHConnectionShareTests {
    static let openSSH = ["GIT_SSH_COMMAND": "ssh"]

    @Test func onlyAServerWithMoreModulesThanItsConnectionCapIsShared() throws {
        // Five scp-like urls and four ssh:// urls name one server: git@git.example.com, port 22 unsaid.
        let busy = (1...5).map { "git@git.example.com:acme/M\($0).git" } + (6...9).map { "ssh://git@git.example.com/acme/M\($0).git" }
        let quiet = (1...8).map { "ssh://git@other.example.com:2222/acme/M\($0).git" }
        let share = try #require(SSHConnectionShare.forSync(urls: busy + quiet + ["https://github.com/acme/Web.git"],
                                                            environment: Self.openSSH))
        defer { share.close() }
        #expect(share.planned == ["git@git.example.com:": 9])
        // A server not planned is reached as before, without opening anything.
        #expect(share.isShared("ssh://git@other.example.com:2222/acme/M1.git") == false)
        #expect(share.channels(to: "https://github.com/acme/Web.git") == nil)

        var status = stat()
        #expect(stat(share.directory, &status) == 0)
        #expect(share.directory.hasPrefix("/tmp/modkit-ssh-"))
        #expect(status.st_mode & 0o777 == 0o700)
        share.close()
        #expect(!FileManager.default.fileExists(atPath: share.directory))

        #expect(SSHConnectionShare.forSync(urls: quiet, environment: Self.openSSH) == nil)
        // Another user with the same host is another connection.
        #expect(SSHConnectionShare.forSync(urls: (1...5).map { "alice@git.example.com:M\($0)" } + (1...5).map { "bob@git.example.com:M\($0)" },
                                           environment: Self.openSSH) == nil)
    }

    @Test(arguments: [
        ["MODKIT_SSH_SHARE": "0", "GIT_SSH_COMMAND": "ssh"],
        ["MODKIT_SSH_SHARE": "off", "GIT_SSH_COMMAND": "ssh"],
        ["GIT_SSH": "/usr/bin/ssh"],
        ["GIT_SSH_COMMAND": "plink -batch"],
        ["GIT_SSH_COMMAND": "ssh", "GIT_SSH_VARIANT": "simple"],
    ])
    func noShareWhenItIsOffOrGitDoesNotRunOpenSSH(environment: [String: String]) {
        let urls = (1...20).map { "git@git.example.com:acme/M\($0).git" }
        #expect(SSHConnectionShare.forSync(urls: urls, environment: environment) == nil)
    }

    /// The bookkeeping of channels, with connections that open without a server (the real ones:
    /// SSHConnectionShareEndToEndTests).
    @Test func channelsGoWhereThereIsRoomAndARefusingServerIsSharedNoMore() throws {
        let urls = (1...20).map { "git@git.example.com:acme/M\($0).git" }
        let opened = LockedCount()
        let share = try #require(SSHConnectionShare.forSync(urls: urls, environment: Self.openSSH) { _ in opened.add(); return true })
        defer { share.close() }
        let url = urls[0]
        #expect(share.channels(to: url) == 24)  // 20 modules: 3 connections of 8 channels
        #expect(opened.value == 3)
        #expect(share.channels(to: urls[1]) == 24)
        #expect(opened.value == 3)  // opened once per server

        // Six channels spread over the three connections, two each.
        let six = try (0..<6).map { _ in try #require(share.channel(to: url)) }
        let sockets = Dictionary(grouping: six.map { $0.sshOptions.last! }, by: { $0 }).mapValues(\.count)
        #expect(sockets.count == 3 && sockets.values.allSatisfy { $0 == 2 }, "\(sockets)")
        #expect(six.allSatisfy { $0.sshOptions.contains("ControlMaster=no") })

        // The server refuses a third channel on one connection: that one carries 2 from now on (2 + 8 + 8 = 18).
        let third = try #require(share.channel(to: url))
        share.refused(third)
        share.release(third)
        #expect(share.channels(to: url) == 18)
        // And on the two others: 2 + 2 + 2 = 6, fewer than 8 connections of their own: no longer shared.
        for _ in 0..<2 {
            let channel = try #require(share.channel(to: url))
            share.refused(channel)
            share.release(channel)
        }
        #expect(share.channels(to: url) == nil)
        #expect(share.channel(to: url) == nil)
        #expect(!share.isShared(url))
        for channel in six { share.release(channel) }
    }

    /// With 4 workers, one connection of 8 channels serves 100 modules.
    @Test func noMoreConnectionsThanTheWorkersNeed() throws {
        let urls = (1...100).map { "git@git.example.com:acme/M\($0).git" }
        let opened = LockedCount()
        let share = try #require(SSHConnectionShare.forSync(urls: urls, jobs: 4, environment: Self.openSSH) { _ in opened.add(); return true })
        defer { share.close() }
        #expect(share.channels(to: urls[0]) == 8)
        #expect(opened.value == 1)
        let all = try #require(SSHConnectionShare.forSync(urls: urls, jobs: 48, environment: Self.openSSH) { _ in true })
        defer { all.close() }
        #expect(all.channels(to: urls[0]) == 32)
    }

    /// What killed syncs left is removed: an old directory holding only logs; a directory with a socket in it, or
    /// changed moments ago, or not a share's, stays.
    @Test func leftoversOfKilledSyncsAreRemovedAndLiveOnesKept() throws {
        let parent = NSTemporaryDirectory() + "share-leftovers-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: parent) }
        let files = FileManager.default
        let old = Date().addingTimeInterval(-3_600)
        for (name, entries, changed) in [("modkit-ssh-dead", ["0.log", "1.log"], old), ("modkit-ssh-live", ["0", "0.log"], old),
                                         ("modkit-ssh-fresh", ["0.log"], Date()), ("other-dir", ["0.log"], old)] {
            try files.createDirectory(atPath: parent + "/" + name, withIntermediateDirectories: true)
            for entry in entries { #expect(files.createFile(atPath: parent + "/" + name + "/" + entry, contents: Data())) }
            try files.setAttributes([.modificationDate: changed], ofItemAtPath: parent + "/" + name)
        }
        try files.createSymbolicLink(atPath: parent + "/modkit-ssh-link", withDestinationPath: parent + "/other-dir")
        SSHConnectionShare.removeLeftovers(in: parent)
        #expect(try files.contentsOfDirectory(atPath: parent).sorted() == ["modkit-ssh-fresh", "modkit-ssh-link", "modkit-ssh-live", "other-dir"])
        #expect(try files.contentsOfDirectory(atPath: parent + "/other-dir") == ["0.log"])
    }

    /// A server none of whose connections open is not shared, and is asked once.
    @Test func aServerWhoseConnectionsFailIsNotShared() throws {
        let urls = (1...9).map { "ssh://git@git.example.com:2222/acme/M\($0).git" }
        let opened = LockedCount()
        let share = try #require(SSHConnectionShare.forSync(urls: urls, environment: Self.openSSH) { _ in opened.add(); return false })
        defer { share.close() }
        #expect(!share.isShared(urls[0]))
        #expect(!share.isShared(urls[1]))
        #expect(opened.value == 2)  // 9 modules: 2 connections, tried once
    }

    @Test func aSharedServerRaisesItsCapToTheChannelsItsConnectionsCarry() {
        let limits = TransferLimits.forSync(jobs: 48, local: 4, environment: [:])
        #expect(limits.perHost(for: "git@github.com:acme/Net.git", sharedSSHChannels: 32) == 32)
        #expect(limits.holdingPerHost(for: "git@github.com:acme/Net.git", sharedSSHChannels: 16) == 16)
        #expect(TransferLimits.forSync(jobs: 12, local: 4, environment: [:]).perHost(for: "git@github.com:acme/Net.git", sharedSSHChannels: 32) == 12)
        let fixed = TransferLimits.forSync(jobs: 48, local: 4, environment: ["MODKIT_CONNECTIONS_PER_HOST": "5"])
        #expect(fixed.perHost(for: "git@github.com:acme/Net.git", sharedSSHChannels: 32) == 5)
    }
}

final class LockedCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
