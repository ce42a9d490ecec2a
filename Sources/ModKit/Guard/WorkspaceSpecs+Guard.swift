extension WorkspaceSpecs {
    /// Every module as guard sees it: its version, guard languages and workspace dependencies from the spec files.
    public var guardModules: [GuardModule] {
        modules.map { module in
            GuardModule(name: module.module.name, directory: module.directory, version: module.version.version,
                        languages: GuardLanguage.set(from: module.module.guardLanguages),
                        dependencies: dependencies(of: module.module.name))
        }
    }
}
