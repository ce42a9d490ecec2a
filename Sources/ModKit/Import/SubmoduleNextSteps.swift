import YAMLKit

/// The way from submodules to modkit, step by step, written so that no step can delete anyone's work.
public enum SubmoduleNextSteps {
    /// The steps as lines of text for the imported `modules` (paths relative to the superproject, which is the workspace root).
    public static func lines(for modules: [ImportedModule]) -> [String] {
        let paths = modules.map { StringEscaping.shellWord($0.path) }.joined(separator: " ")
        var lines = [
            "Next steps — the submodules keep working until the team has switched:",
            "  1. Commit the manifest:",
            "       git add modkit.yml .gitignore .modkit/.gitignore && git commit -m 'Describe the modules in modkit.yml'",
            "  2. Check it: 'modkit list' shows every module; in a fresh directory 'modkit sync' checks out the same commits.",
            "  Once everyone uses modkit, retire the submodules (working trees, branches and stashes all stay):",
            "  3. Stop tracking them in the superproject — this removes only the gitlinks, not the folders:",
            "       git rm -q --cached \(paths)",
            "       git rm -q .gitmodules && git commit -m 'Replace git submodules with modkit'",
            "  4. Give each module folder its own .git directory back (every clone, once, after pulling step 3):",
        ]
        for module in modules {
            let path = StringEscaping.shellWord(module.path)
            lines.append("       d=$(git -C \(path) rev-parse --absolute-git-dir) && [ -f \(path)/.git ] && rm \(path)/.git && mv \"$d\" \(path)/.git && git -C \(path) config --unset core.worktree")
        }
        lines.append("  Never use 'git submodule deinit -f' or delete a module folder to do this: both throw away uncommitted work.")
        lines.append("  From then on 'modkit tag VERSION' tags every module, which a tag on the superproject never did.")
        return lines
    }

    /// The path as one shell word: plain when safe, single-quoted otherwise.
}
