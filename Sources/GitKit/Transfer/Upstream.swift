internal import CLibgit2

extension Repository {
    /// The upstream of a local branch ("origin/develop") and the commit it points at (nil when that ref is missing).
    ///
    /// Reads `branch.<b>.remote`/`merge` and the remote's fetch refspec from one config snapshot, which is much
    /// cheaper than libgit2's answer (it loads the whole remote, and before 1.6 leaks ~20 KiB per config entry each
    /// time); a merge outside `refs/heads/` or an unusual refspec takes that slower path.
    public func tracking(ofBranch branch: String) throws -> (upstream: String, target: OID?)? {
        let config = try configSnapshot()
        func loadingRemote() throws -> (upstream: String, target: OID?)? {
            guard let slow = try upstreamByLoadingRemote(ofBranch: branch) else { return nil }
            return (slow, try? resolveCommit("refs/remotes/\(slow)"))
        }
        guard let remote = try config.string("branch.\(branch).remote"), let merge = try config.string("branch.\(branch).merge") else { return nil }
        guard merge.hasPrefix("refs/heads/") else { return try loadingRemote() }
        let mergedBranch = String(merge.dropFirst("refs/heads/".count))
        let reference: String
        let upstream: String
        if remote == "." {
            reference = merge
            upstream = mergedBranch
        } else {
            let standard = "refs/heads/*:refs/remotes/\(remote)/*"
            guard let fetch = try config.string("remote.\(remote).fetch"), fetch == standard || fetch == "+" + standard else {
                return try loadingRemote()
            }
            reference = "refs/remotes/\(remote)/\(mergedBranch)"
            upstream = "\(remote)/\(mergedBranch)"
        }
        var oid = git_oid()
        let found = git_reference_name_to_id(&oid, pointer, reference)
        if found == GIT_ENOTFOUND.rawValue { return (upstream, nil) }
        try check(found, "git_reference_name_to_id")
        return (upstream, OID(oid))
    }
}

extension Repository {
    /// The commits a reference pointed at according to its reflog, newest first, at most `limit` entries read.
    public func reflogTargets(_ reference: String, limit: Int = 50) throws -> [OID] {
        let reflog = try make("git_reflog_read") { git_reflog_read(&$0, pointer, reference) }
        defer { git_reflog_free(reflog) }
        var targets: [OID] = []
        for index in 0..<min(git_reflog_entrycount(reflog), limit) {
            guard let entry = git_reflog_entry_byindex(reflog, index) else { continue }
            for id in [git_reflog_entry_id_new(entry), git_reflog_entry_id_old(entry)] {
                guard let id, git_oid_is_zero(id) == 0 else { continue }
                let oid = OID(id.pointee)
                if !targets.contains(oid) { targets.append(oid) }
            }
        }
        return targets
    }
}
