import Foundation
import Testing

/// Xcode consumers for `modkit develop`: a project.pbxproj as Xcode 15 writes it, with remote Swift package references.
extension Sandbox {
    /// A `project.pbxproj` of an app target that uses the products of remote packages: each url gets an
    /// `XCRemoteSwiftPackageReference` and an `XCSwiftPackageProductDependency`, as Xcode writes them; plus a local package
    /// reference and a commented-out remote, which are no remote dependency.
    static func pbxproj(app: String, remotes: [(url: String, product: String)]) -> String {
        var references = "", products = "", packageList = "", productList = "", frameworks = "", buildFiles = ""
        for (index, remote) in remotes.enumerated() {
            let reference = String(format: "8D1A%020X", index + 1), product = String(format: "8D1B%020X", index + 1)
            let buildFile = String(format: "8D1C%020X", index + 1)
            let package = remote.url.split(separator: "/").last.map { String($0).replacingOccurrences(of: ".git", with: "") } ?? remote.product
            references += """
            \t\t\(reference) /* XCRemoteSwiftPackageReference "\(package)" */ = {
            \t\t\tisa = XCRemoteSwiftPackageReference;
            \t\t\trepositoryURL = "\(remote.url)";
            \t\t\trequirement = {
            \t\t\t\tkind = upToNextMajorVersion;
            \t\t\t\tminimumVersion = 1.0.0;
            \t\t\t};
            \t\t};

            """
            products += """
            \t\t\(product) /* \(remote.product) */ = {
            \t\t\tisa = XCSwiftPackageProductDependency;
            \t\t\tpackage = \(reference) /* XCRemoteSwiftPackageReference "\(package)" */;
            \t\t\tproductName = \(remote.product);
            \t\t};

            """
            packageList += "\t\t\t\t\(reference) /* XCRemoteSwiftPackageReference \"\(package)\" */,\n"
            productList += "\t\t\t\t\(product) /* \(remote.product) */,\n"
            frameworks += "\t\t\t\t\(buildFile) /* \(remote.product) in Frameworks */,\n"
            buildFiles += "\t\t\(buildFile) /* \(remote.product) in Frameworks */ = {isa = PBXBuildFile; productRef = \(product) /* \(remote.product) */; };\n"
        }
        return """
        // !$*UTF8*$!
        {
        \tarchiveVersion = 1;
        \tclasses = {
        \t};
        \tobjectVersion = 60;
        \tobjects = {

        /* Begin PBXBuildFile section */
        \(buildFiles)\t\t8D00000000000000000000A1 /* AppMain.swift in Sources */ = {isa = PBXBuildFile; fileRef = 8D00000000000000000000A2 /* AppMain.swift */; };
        /* End PBXBuildFile section */

        /* Begin PBXFileReference section */
        \t\t8D00000000000000000000A2 /* AppMain.swift */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = AppMain.swift; sourceTree = "<group>"; };
        \t\t8D00000000000000000000A3 /* \(app).app */ = {isa = PBXFileReference; explicitFileType = wrapper.application; includeInIndex = 0; path = \(app).app; sourceTree = BUILT_PRODUCTS_DIR; };
        /* End PBXFileReference section */

        /* Begin PBXFrameworksBuildPhase section */
        \t\t8D00000000000000000000A4 /* Frameworks */ = {
        \t\t\tisa = PBXFrameworksBuildPhase;
        \t\t\tbuildActionMask = 2147483647;
        \t\t\tfiles = (
        \(frameworks)\t\t\t);
        \t\t\trunOnlyForDeploymentPostprocessing = 0;
        \t\t};
        /* End PBXFrameworksBuildPhase section */

        /* Begin PBXNativeTarget section */
        \t\t8D00000000000000000000A5 /* \(app) */ = {
        \t\t\tisa = PBXNativeTarget;
        \t\t\tbuildPhases = (
        \t\t\t\t8D00000000000000000000A4 /* Frameworks */,
        \t\t\t);
        \t\t\tname = \(app);
        \t\t\tpackageProductDependencies = (
        \(productList)\t\t\t);
        \t\t\tproductName = \(app);
        \t\t\tproductReference = 8D00000000000000000000A3 /* \(app).app */;
        \t\t\tproductType = "com.apple.product-type.application";
        \t\t};
        /* End PBXNativeTarget section */

        /* Begin PBXProject section */
        \t\t8D00000000000000000000A6 /* Project object */ = {
        \t\t\tisa = PBXProject;
        \t\t\tattributes = {
        \t\t\t\tBuildIndependentTargetsInParallel = 1;
        \t\t\t\tLastSwiftUpdateCheck = 1500;
        \t\t\t};
        \t\t\tcompatibilityVersion = "Xcode 14.0";
        \t\t\tpackageReferences = (
        \(packageList)\t\t\t\t8D00000000000000000000A7 /* XCLocalSwiftPackageReference "Tools" */,
        \t\t\t);
        \t\t\tprojectDirPath = "";
        \t\t\ttargets = (
        \t\t\t\t8D00000000000000000000A5 /* \(app) */,
        \t\t\t);
        \t\t};
        /* End PBXProject section */

        /* Begin XCLocalSwiftPackageReference section */
        \t\t8D00000000000000000000A7 /* XCLocalSwiftPackageReference "Tools" */ = {
        \t\t\tisa = XCLocalSwiftPackageReference;
        \t\t\trelativePath = Tools;
        \t\t};
        /* End XCLocalSwiftPackageReference section */

        /* Begin XCRemoteSwiftPackageReference section */
        \(references)/*\t\t8D00000000000000000000A8 = { isa = XCRemoteSwiftPackageReference; repositoryURL = "https://github.com/example/Commented.git"; }; */
        /* End XCRemoteSwiftPackageReference section */

        /* Begin XCSwiftPackageProductDependency section */
        \(products)/* End XCSwiftPackageProductDependency section */
        \t};
        \trootObject = 8D00000000000000000000A6 /* Project object */;
        }

        """
    }

    /// The items of an Xcode workspace read with Python's own XML parser (`xml.dom.minidom`): each FileRef's location,
    /// in document order, with the names of the Groups it sits in; the test fails when Python does not accept the file.
    func workspaceFileRefs(_ relative: String) throws -> [String] {
        let script = """
        import sys, xml.dom.minidom
        document = xml.dom.minidom.parse(sys.argv[1])
        assert document.documentElement.tagName == 'Workspace', document.documentElement.tagName
        for ref in document.getElementsByTagName('FileRef'):
            groups, parent = [], ref.parentNode
            while parent is not None and getattr(parent, 'tagName', None) == 'Group':
                groups.insert(0, parent.getAttribute('name'))
                parent = parent.parentNode
            print('/'.join(groups + [ref.getAttribute('location')]))
        """
        let result = try run("/usr/bin/env", ["python3", "-c", script, url(relative).path], in: root)
        try #require(result.status == 0, "python3 rejects \(relative): \(result.err)")
        return result.out.split(separator: "\n").map(String.init)
    }

    /// Every file below `relative` (`.modkit` and `.git` left out) with its bytes, to compare a tree before and after.
    func tree(_ relative: String) -> [String: Data] {
        let base = url(relative).standardizedFileURL.resolvingSymlinksInPath().path
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: base)
        while let path = enumerator?.nextObject() as? String {
            let parts = path.split(separator: "/")
            if parts.first == ".modkit" || parts.contains(".git") { continue }
            if let data = FileManager.default.contents(atPath: base + "/" + path) { files[path] = data }
        }
        return files
    }
}
