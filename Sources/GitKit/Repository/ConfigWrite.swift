internal import CLibgit2

extension Repository {
    /// Sets a value in the repository's own config (`.git/config`).
    public func setConfigString(_ key: String, _ value: String) throws {
        remoteURLs = [:]
        let config = ConfigHandle(try make("git_repository_config") { git_repository_config(&$0, pointer) }, owner: self)
        let local = ConfigHandle(try make("git_config_open_level") { git_config_open_level(&$0, config.pointer, GIT_CONFIG_LEVEL_LOCAL) },
                                 owner: self)
        try check(git_config_set_string(local.pointer, key, value), "git_config_set_string")
    }
}
