extension ResolvedVersions {
    /// Reads a `Package.resolved` of format version 1 (`object.pins[].repositoryURL`) or 2 and 3 (`pins[].location`).
    public static func packageResolved(_ text: String) throws(SpecReadError) -> ResolvedVersions {
        let root = try JSONScanner.parse(SourceText(text))
        let pins: JSONNode?
        if let object = root["object"] { pins = object["pins"] } else { pins = root["pins"] }
        guard let pins, case .array(let entries) = pins.value else {
            throw SpecReadError(line: 1, column: 1, message: "Package.resolved has no pins")
        }
        var packages: [Package] = []
        for pin in entries {
            guard let location = pin["location"]?.string ?? pin["repositoryURL"]?.string else { continue }
            let identity = pin["identity"]?.string ?? packageIdentity(forLocation: location)
            let state = pin["state"]
            packages.append(Package(identity: identity.lowercased(), location: location,
                                           version: state?["version"]?.string, revision: state?["revision"]?.string))
        }
        var result = ResolvedVersions()
        result.packages = packages
        return result
    }
}
