extension WorkspaceSpecs {
    /// Every guarded unit with its version, guard languages and workspace dependencies from the spec files.
    ///
    /// A module is one unit, except a module with several podspecs (firebase-ios-sdk): each of its pods is a unit of its own,
    /// at its own `s.version`, depending on what its own podspec requires, so a pod built against another version of a
    /// sibling pod is refused too. Requirements on such a module are guarded only when they name one of its pods.
    public var guardModules: [GuardModule] {
        let podModules = Set(modules.filter { $0.podFiles.count > 1 }.map(\.module.name))
        return modules.flatMap { specs -> [GuardModule] in
            let languages = GuardLanguage.set(from: specs.module.guardLanguages)
            guard podModules.contains(specs.module.name) else {
                var unit = GuardModule(name: specs.module.name, directory: specs.directory, version: specs.version.version, languages: languages,
                                       dependencies: guardTargets(of: specs.files, podModules: podModules))
                for dependency in unit.dependencies where specs.module.guardMode(for: dependency) != .exact {
                    unit.modes[dependency] = specs.module.guardMode(for: dependency)
                }
                return [unit]
            }
            return specs.podFiles.map { file in
                let version = file.declaration?.version?.literal.flatMap(SemanticVersion.init) ?? specs.version.version
                return GuardModule(name: file.podName!, module: specs.module.name, directory: specs.directory, version: version,
                                   languages: languages, dependencies: guardTargets(of: [file], podModules: podModules))
            }
        }
    }

    /// The units the requirements of `files` name, in first-seen order: a pod of a module in `podModules`, else a workspace module.
    func guardTargets(of files: [SpecFile], podModules: Set<String>) -> [String] {
        var seen = Set<String>()
        return files.flatMap { file in
            file.requirements.compactMap { requirement -> String? in
                if let pod = pod(for: requirement), podModules.contains(pod.module) { return pod.name }
                guard let target = module(for: requirement, in: file), !podModules.contains(target) else { return nil }
                return target
            }
        }.filter { seen.insert($0).inserted }
    }
}

extension WorkspaceSpecs.ModuleSpecs {
    /// The module's podspecs and podspec.json files, one per pod.
    var podFiles: [SpecFile] { files.filter { $0.podName != nil } }
}
