import Foundation
import GitKit

/// How big a repository is, cheaply: the bytes of its packs (one directory listing and a stat per pack).
enum PackSize {
    /// The packs' bytes of the repository whose git directory is `gitDir`; nil when it has no pack folder.
    static func bytes(gitDir: String) -> UInt64? {
        let folder = GitDirectory(path: gitDir, common: gitDir).packs
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return nil }
        return names.filter { $0.hasSuffix(".pack") }.reduce(0) { total, name in
            total + (FileStatus(folder + "/" + name)?.size ?? 0)
        }
    }

    /// The packs' bytes of the repository a `file://` url or plain path names (bare, or with a `.git` folder); nil for
    /// any other url, or a repository without a pack.
    static func bytes(ofLocalURL url: String) -> UInt64? {
        guard let path = GitKit.localPath(of: url) else { return nil }
        for gitDir in [path, path + "/.git"] {
            if let bytes = bytes(gitDir: gitDir), bytes > 0 { return bytes }
        }
        return nil
    }
}
