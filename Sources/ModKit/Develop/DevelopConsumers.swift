import Foundation
import GitKit
import SpecKit

/// Where `modkit develop` looks for consumer files below a module's root: the files git tracks (its index, like
/// `git ls-files`) in every module repository and in the manifest repository, which holds the directory modules.
/// Untracked files and anything under a `Pods/` folder (CocoaPods' output) are never consumers.
enum DevelopConsumers {
    /// The tracked files of the workspace whose path (relative to their repository) `include` accepts, each once, sorted.
    static func tracked(_ workspace: Workspace, where include: @Sendable @escaping (String) -> Bool) -> [URL] {
        let manifest = workspace.manifest
        let rootFolder = workspace.root.path
        let folders = [rootFolder] + manifest.modules.map { manifest.directory(of: $0).path }
        let found = Parallel.map(folders, jobs: min(8, ProcessInfo.processInfo.activeProcessorCount)) { folder -> [String] in
            // The manifest repository may start above the workspace root; a module is a repository of its own or a folder of it.
            let repository = folder == rootFolder
                ? (try? Repository.discover(from: folder)).flatMap { $0 }
                : (Repository.isRepository(folder) ? try? Repository.open(folder) : nil)
            guard let repository, let workdir = repository.workdir else { return [] }
            // Paths below `folder`, spelled from `folder` (libgit2 names the work tree with symlinks resolved: /private/tmp on macOS).
            let base = URL(fileURLWithPath: workdir).resolvingSymlinksInPath().path
            let real = URL(fileURLWithPath: folder).resolvingSymlinksInPath().path
            guard real == base || real.hasPrefix(base + "/") else { return [] }
            let inside = real == base ? "" : String(real.dropFirst(base.count + 1)) + "/"
            let paths = (try? repository.trackedPaths { $0.hasPrefix(inside) && !isUnderPods($0) && include($0) }) ?? []
            return paths.map { folder + "/" + $0.dropFirst(inside.count) }
        }
        var seen = Set<String>()
        return found.joined().map { URL(fileURLWithPath: $0).standardizedFileURL }
            .filter { seen.insert($0.path).inserted }
            .sorted { $0.path < $1.path }
    }

    /// Whether a repository path lies in a `Pods/` folder (CocoaPods' installed pods, sometimes committed).
    static func isUnderPods(_ path: String) -> Bool {
        path.hasPrefix("Pods/") || path.contains("/Pods/")
    }

    /// Whether a repository path is a Podfile (`Podfile`, `ios/Podfile`).
    static func isPodfile(_ path: String) -> Bool {
        path == SpecFileName.podfile || path.hasSuffix("/" + SpecFileName.podfile)
    }
}
