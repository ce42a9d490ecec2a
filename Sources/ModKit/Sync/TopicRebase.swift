import Foundation
import GitKit

/// `modkit sync --rebase`: each checked-out topic branch replayed onto its freshly fetched manifest branch,
/// where that is conflict-free and loses nothing; otherwise the branch stays and the reason is given.
public enum TopicRebase {
    /// Only repositories on a topic branch that has fallen behind its manifest branch get a result.
    public static func run(_ modules: [Module], in workspace: Workspace, jobs: Int) -> [ModuleResult<BranchFacts>] {
        let manifest = workspace.manifest
        let remote = manifest.defaults.remote
        return Parallel.map(modules.filter { $0.kind == .repository }, jobs: jobs) { module -> ModuleResult<BranchFacts>? in
            let directory = manifest.directory(of: module).path
            guard Repository.isRepository(directory), let repository = try? Repository.open(directory),
                  case .branch(let branch, let tip)? = try? repository.head(),
                  let base = try? RevisionTarget.resolve(manifest.revision(of: module), remote: remote, in: repository),
                  case .branch(let baseName, let onto) = base, baseName != branch,
                  (try? repository.isDescendant(tip, of: onto)) == false, tip != onto
            else { return nil }
            var result = ModuleResult(name: module.name, path: module.path, outcome: .kept, detail: "", facts: BranchFacts(branch: branch))
            do {
                if try repository.upstream(ofBranch: branch) != nil {
                    result.detail = "\(branch) is pushed; rebasing would rewrite published commits (rebase it yourself)"
                    return result
                }
                guard try repository.status(untracked: false).isClean else {
                    result.detail = "\(branch) has local changes; not rebased"
                    return result
                }
                switch try repository.replay(branch: branch, onto: onto) {
                case .upToDate:
                    result.outcome = .upToDate
                    result.detail = "\(branch) already contains \(remote)/\(baseName)"
                case .replayed(let newTip, let count):
                    result.outcome = .updated
                    result.detail = "rebased \(branch) onto \(remote)/\(baseName): \(count) commit\(count == 1 ? "" : "s"), now \(newTip.short) (was \(tip.short))"
                case .conflict(let commit, let paths):
                    result.detail = "rebasing \(branch) onto \(remote)/\(baseName) conflicts at \(commit.short) in \(paths.prefix(3).joined(separator: ", ")); left as it was"
                case .hasMerges:
                    result.detail = "\(branch) has merge commits; not rebased"
                }
            } catch {
                result.detail = "not rebased: \(ErrorText.describe(error))"
            }
            return result
        }.compactMap { $0 }
    }
}
