import Foundation
import GitKit

/// Whether one repository can be moved to a commit without touching anything of the user's: the checks of
/// `WorkTreeMove.preflight` (the same ones `sync` makes), and the rule of `checkout SNAPSHOT` that a repository
/// with any local change is not moved. It reads the repository only.
struct MoveCheck {
    /// Every reason the move would break or overwrite something; empty when it can go ahead.
    var problems: [Diagnostic] = []

    /// Checks a move of `repository` (`label`, at `path` in the workspace) to `target`, detached or on `branch`.
    /// After an interrupted move the changed paths are that move's, and the preflight checks they can be finished.
    init(_ repository: Repository, label: String, path: String, to target: OID, branch: String?) throws {
        if try WorkTreeMove.interruptedMove(in: repository) == nil {
            let local = try repository.localChanges()
            let paths = local.conflicted + local.paths
            if !paths.isEmpty {
                problems.append(.error("local changes in \(path) (\(Self.list(paths)); commit or stash them first)", module: label))
                return
            }
        }
        do {
            try WorkTreeMove.preflight(repository, to: target, branch: branch)
        } catch let refusal as WorkTreeMoveRefusal {
            // The repository is named with its folder (`Core in Libs/Core`): the refusal's paths are relative to it.
            problems.append(.error("\(refusal); \(refusal.hint)", module: path == "." ? label : "\(label) in \(path)"))
        }
    }

    /// A few paths for a message, with a count of the rest.
    static func list(_ paths: [String]) -> String {
        let shown = paths.prefix(3).joined(separator: ", ")
        return paths.count > 3 ? "\(shown) and \(paths.count - 3) more" : shown
    }
}
