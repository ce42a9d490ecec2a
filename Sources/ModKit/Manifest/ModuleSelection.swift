import Foundation

extension Manifest {
    /// The modules a command line selects, in manifest order; none of either selects all.
    ///
    /// Each of `arguments` is a module name, a module's path (relative to `directory`, else to the workspace
    /// root), a path inside a module, or `.` for the module `directory` lies in. Each of `groups` is a comma
    /// list: a group name selects its modules, `-name` leaves out the modules of that group, `all` every
    /// module. Named modules are always selected; exclusions apply to what groups select. Anything unknown
    /// is a usage error with a suggestion.
    public func select(_ arguments: [String], groups: [String], from directory: URL? = nil) throws(ManifestError) -> [Module] {
        var problems: [Diagnostic] = []
        var named = Set<String>()
        for argument in arguments {
            if let module = resolve(argument, from: directory) {
                named.insert(module.name)
            } else {
                problems.append(.error("no module named '\(argument)'\(DidYouMean.suffix(for: argument, among: modules.map(\.name)))",
                                       hint: "give a module's name or path ('.' is the module you are in); 'modkit list' shows them"))
            }
        }
        let words = groups.flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }.filter { !$0.isEmpty }
        var included = Set<String>(), excluded = Set<String>()
        var allGroups: [String] = []
        for group in modules.flatMap(\.groups) where !allGroups.contains(group) { allGroups.append(group) }
        var everything = false
        for word in words {
            let exclude = word.hasPrefix("-")
            let group = exclude ? String(word.dropFirst()) : word
            if group == "all" && !exclude {
                everything = true
                continue
            }
            guard allGroups.contains(group) else {
                problems.append(.error("no module is in group '\(group)'\(DidYouMean.suffix(for: group, among: allGroups + ["all"]))",
                                       hint: allGroups.isEmpty ? "no module of this workspace has 'groups:'" : "groups of this workspace: \(allGroups.joined(separator: ", "))"))
                continue
            }
            if exclude { excluded.insert(group) } else { included.insert(group) }
        }
        if !problems.isEmpty { throw ManifestError(diagnostics: problems) }
        if named.isEmpty, included.isEmpty, excluded.isEmpty, !everything { return modules }
        // What groups select: `all`, the included groups, or, when only exclusions are given, every module.
        let fromAll = everything || (included.isEmpty && named.isEmpty)
        return modules.filter { module in
            if named.contains(module.name) { return true }
            let byGroup = fromAll || !included.isDisjoint(with: module.groups)
            return byGroup && excluded.isDisjoint(with: module.groups)
        }
    }

    /// The module an argument names: by name, by path, or as the module a path lies in (the innermost one).
    private func resolve(_ argument: String, from directory: URL?) -> Module? {
        if let module = module(named: argument) { return module }
        var candidates: [String] = []
        if let directory {
            let absolute = argument.hasPrefix("/") ? argument : directory.standardizedFileURL.path + "/" + argument
            let rootPath = root.standardizedFileURL.path
            let normalized = URL(fileURLWithPath: absolute).standardizedFileURL.path
            if normalized == rootPath {
                candidates.append("")
            } else if normalized.hasPrefix(rootPath + "/") {
                candidates.append(String(normalized.dropFirst(rootPath.count + 1)))
            }
        }
        if case .success(let relative) = RelativePath.normalize(argument), !argument.hasPrefix("/") { candidates.append(relative) }
        for path in candidates {
            if let exact = modules.first(where: { $0.path == path }) { return exact }
            let containing = modules.filter { !$0.path.isEmpty && RelativePath.isInside(path, $0.path) }
            if let innermost = containing.max(by: { $0.path.count < $1.path.count }) { return innermost }
        }
        return nil
    }
}
