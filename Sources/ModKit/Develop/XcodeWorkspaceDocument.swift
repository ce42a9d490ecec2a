/// The `contents.xcworkspacedata` of the workspace `modkit develop` writes, in Xcode's own layout: the items of the
/// user's workspace (repeated, since it sits in the same folder), the project, and a FileRef per local package.
enum XcodeWorkspaceDocument {
    /// Deeper Groups are still written, without more indentation, so hostile nesting cannot blow up the output.
    private static let deepestIndent = 32

    /// `items` come from the user's workspace; `project` (`App.xcodeproj`) is added unless they list it already; `packages`
    /// are `group:` locations relative to the workspace's folder, each added unless the items list it already.
    static func render(items: [XMLElementNode], project: String?, packages: [String]) -> String {
        var listed = folderPaths(of: items)
        var added: [XMLElementNode] = []
        if let project, !listed.contains(project) {
            added.append(fileRef("group:" + project))
        }
        for package in packages where listed.insert(package.hasPrefix("group:") ? String(package.dropFirst("group:".count)) : package).inserted {
            added.append(fileRef(package))
        }

        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            "<!-- Written by modkit develop, which removes it when the overrides are turned off. -->",
            "<Workspace",
            #"   version = "1.0">"#,
        ]
        var stack: [(node: XMLElementNode, depth: Int, closes: Bool)] = (items + added).reversed().map { ($0, 1, false) }
        while let (node, depth, closes) = stack.popLast() {
            let indent = String(repeating: "   ", count: min(depth, deepestIndent))
            if closes {
                lines.append(indent + "</\(node.name)>")
                continue
            }
            if node.attributes.isEmpty {
                lines.append(indent + "<\(node.name)>")
            } else {
                lines.append(indent + "<\(node.name)")
                for (index, attribute) in node.attributes.enumerated() {
                    let end = index == node.attributes.count - 1 ? ">" : ""
                    lines.append(indent + "   \(attribute.name) = \"\(XMLTree.escape(attribute.value))\"" + end)
                }
            }
            stack.append((node, depth, true))
            stack.append(contentsOf: node.children.reversed().map { ($0, depth + 1, false) })
        }
        lines.append("</Workspace>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The paths, relative to the workspace's folder, of the items a workspace lists: `container:P` is P, and `group:P`
    /// is P inside the paths of the Groups around it (`<Group location="group:Legacy"><FileRef location="group:App.xcodeproj">`
    /// is Legacy/App.xcodeproj). Absolute and other locations are left out.
    static func folderPaths(of items: [XMLElementNode]) -> Set<String> {
        var paths = Set<String>()
        var pending = items.map { ($0, "") }
        while let (item, base) = pending.popLast() {
            var path = base
            if let location = item["location"] {
                if location.hasPrefix("container:") {
                    path = String(location.dropFirst("container:".count))
                } else if location.hasPrefix("group:") {
                    let relative = String(location.dropFirst("group:".count))
                    path = base.isEmpty ? relative : base + "/" + relative
                }
                if location.hasPrefix("container:") || location.hasPrefix("group:") { paths.insert(path) }
            }
            pending.append(contentsOf: item.children.map { ($0, item.name == "Group" ? path : base) })
        }
        return paths
    }

    private static func fileRef(_ location: String) -> XMLElementNode {
        XMLElementNode(name: "FileRef", attributes: [("location", location)], line: 0, column: 0)
    }
}
