import Foundation
import YAMLKit

/// Reads the public API of a module's sources with the compilers: Swift through `swiftc -emit-module` and
/// `swift-api-digester -dump-sdk`, Objective-C headers through `clang -Xclang -ast-dump=json`.
public enum APIReader {
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Every public declaration of the module in `directory`: each `Sources/<Target>` of Swift files (a target after the targets
    /// it imports, which it is compiled against), and every header.
    public static func declarations(in directory: URL, scratch: URL) throws -> [APIDeclaration] {
        var result: [APIDeclaration] = []
        for (target, files) in inImportOrder(swiftTargets(in: directory)) {
            result += try swiftDeclarations(module: target, files: files, scratch: scratch)
        }
        let headers = files(in: directory, extensions: ["h"])
        if !headers.isEmpty { result += try objcDeclarations(headers: headers, scratch: scratch) }
        return result
    }

    /// Files below `directory` with one of `extensions`, sorted; build output and generated guards left out.
    static func files(in directory: URL, extensions: Set<String>) -> [URL] {
        guard let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else { return [] }
        var found: [URL] = []
        for case let url as URL in walker {
            let name = url.lastPathComponent
            if name == ".build" || name == ".git" || name == "Generated" || name == "Tests" || name == "Pods" || name == "DerivedData" {
                walker.skipDescendants()
                continue
            }
            if extensions.contains(url.pathExtension) { found.append(url) }
        }
        return found.sorted { $0.path < $1.path }
    }

    /// `Sources/<Target>/**/*.swift` of a Swift package; a module without `Sources/` but with Swift files is one target named by its folder.
    static func swiftTargets(in directory: URL) -> [(String, [URL])] {
        let sources = directory.appendingPathComponent("Sources")
        if let targets = try? FileManager.default.contentsOfDirectory(atPath: sources.path) {
            return targets.sorted().compactMap { target in
                let swift = files(in: sources.appendingPathComponent(target), extensions: ["swift"])
                return swift.isEmpty ? nil : (target, swift)
            }
        }
        return []
    }

    // MARK: Swift

    /// The targets ordered so that each comes after the targets of the same package it imports (alphabetical otherwise), so
    /// its module is compiled, into the shared module folder, before a target that needs it.
    static func inImportOrder(_ targets: [(String, [URL])]) -> [(String, [URL])] {
        let byName = Dictionary(targets.map { (Identifier.derived(from: $0.0), $0) }, uniquingKeysWith: { first, _ in first })
        var ordered: [(String, [URL])] = []
        var visited = Set<String>()
        func visit(_ name: String) {
            guard let target = byName[name], visited.insert(name).inserted else { return }
            for file in target.1 {
                let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
                for line in text.split(separator: "\n") { importedModule(line).map(visit) }
            }
            ordered.append(target)
        }
        for (target, _) in targets { visit(Identifier.derived(from: target)) }
        return ordered
    }

    /// The module a Swift `import` line names (`import Core`, `@_exported import Core`, `public import struct Core.Money`), nil for other lines.
    static func importedModule(_ line: Substring) -> String? {
        var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })[...]
        while let first = words.first, first.hasPrefix("@") || ["public", "package", "internal", "fileprivate", "private"].contains(first) {
            words = words.dropFirst()
        }
        guard words.first == "import", words.count > 1 else { return nil }
        words = words.dropFirst()
        if ["struct", "class", "enum", "protocol", "typealias", "func", "let", "var", "actor"].contains(words.first!), words.count > 1 {
            words = words.dropFirst()
        }
        return words.first.map { String($0.prefix { $0 != "." }) }
    }

    static func swiftDeclarations(module: String, files: [URL], scratch: URL) throws -> [APIDeclaration] {
        let out = scratch.appendingPathComponent("swift-\(module)", isDirectory: true)
        let modules = scratch.appendingPathComponent("swift-modules", isDirectory: true)
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: modules, withIntermediateDirectories: true)
        let name = Identifier.derived(from: module)
        try run(["swiftc", "-emit-module", "-parse-as-library", "-module-name", name, "-I", modules.path,
                 "-emit-module-path", modules.appendingPathComponent("\(name).swiftmodule").path] + files.map(\.path), in: scratch, what: "swiftc -emit-module of \(module)")
        let dump = out.appendingPathComponent("api.json")
        try run(["swift-api-digester", "-dump-sdk", "-module", name, "-I", modules.path, "-o", dump.path], in: scratch, what: "swift-api-digester -dump-sdk of \(module)")
        let data = try Data(contentsOf: dump)
        guard let json = try JSONSerialization.jsonObject(with: data) as? [String: Any], let root = json["ABIRoot"] as? [String: Any] else {
            throw Failure(description: "swift-api-digester wrote no ABIRoot for \(module)")
        }
        var result: [APIDeclaration] = []
        swiftWalk(root, containers: [], into: &result)
        return result
    }

    /// Declarations are nodes with a `declKind`; their type children make the signature, nested declarations are walked.
    private static func swiftWalk(_ node: [String: Any], containers: [String], into result: inout [APIDeclaration]) {
        for child in node["children"] as? [[String: Any]] ?? [] {
            guard let declKind = child["declKind"] as? String, declKind != "Import" else { continue }
            if child["implicit"] as? Bool == true { continue }
            let printed = child["printedName"] as? String ?? child["name"] as? String ?? "?"
            let place = containers + ["\(declKind.lowercased()) \(printed)"]
            let types = (child["children"] as? [[String: Any]] ?? []).filter { $0["declKind"] == nil && ($0["kind"] as? String)?.hasPrefix("Type") == true }
            var signature = ([declKind] + types.map(typeText)).joined(separator: " ")
            for flag in ["static", "isLet", "throwing", "isAsync", "hasSetter", "mutating"] where child[flag] as? Bool == true { signature += " " + flag }
            if let generic = child["genericSig"] as? String, child["protocolReq"] as? Bool != true { signature += " " + generic }
            if let conformances = child["conformances"] as? [[String: Any]] {
                signature += " : " + conformances.compactMap { $0["printedName"] as? String }.sorted().joined(separator: ", ")
            }
            result.append(APIDeclaration(key: place.joined(separator: " › "), signature: signature, isRequirement: child["protocolReq"] as? Bool == true))
            swiftWalk(child, containers: place, into: &result)
        }
    }

    private static func typeText(_ node: [String: Any]) -> String {
        let name = node["printedName"] as? String ?? "?"
        let children = node["children"] as? [[String: Any]] ?? []
        return children.isEmpty || node["kind"] as? String == "TypeNominal" ? name : name + "<" + children.map(typeText).joined(separator: ",") + ">"
    }

    // MARK: Objective-C

    /// What an interface header takes from Foundation, CoreGraphics and UIKit where they are missing (Linux; on macOS too, so
    /// the result does not depend on the SDK): the types as the SDK declares them (generic collections, BOOL, NSInteger, CGFloat),
    /// and the macros as the SDK expands them where that changes a declaration (`NS_ASSUME_NONNULL_BEGIN` makes pointers
    /// `_Nonnull`, `NS_SWIFT_NAME` is `swift_name`); availability macros expand to nothing, they change no signature read here.
    static let prelude = """
    #ifndef MODKIT_API_PRELUDE
    #define MODKIT_API_PRELUDE
    typedef signed char BOOL;
    #define YES ((BOOL)1)
    #define NO ((BOOL)0)
    typedef long NSInteger;
    typedef unsigned long NSUInteger;
    typedef double CGFloat;
    typedef double NSTimeInterval;
    #define NS_ASSUME_NONNULL_BEGIN _Pragma("clang assume_nonnull begin")
    #define NS_ASSUME_NONNULL_END _Pragma("clang assume_nonnull end")
    #define NS_SWIFT_NAME(_name) __attribute__((swift_name(#_name)))
    #define NS_REFINED_FOR_SWIFT __attribute__((swift_private))
    #define NS_SWIFT_UNAVAILABLE(_message) __attribute__((availability(swift, unavailable, message = _message)))
    #define NS_DESIGNATED_INITIALIZER __attribute__((objc_designated_initializer))
    #define NS_UNAVAILABLE __attribute__((unavailable))
    #define NS_ENUM(_type, _name) enum _name : _type _name; enum _name : _type
    #define NS_OPTIONS(_type, _name) enum _name : _type _name; enum _name : _type
    #define NS_SWIFT_SENDABLE
    #define FOUNDATION_EXPORT extern
    #define API_AVAILABLE(...)
    #define API_UNAVAILABLE(...)
    #define API_DEPRECATED(...)
    @protocol NSObject
    @end
    @interface NSObject <NSObject>
    - (instancetype)init;
    @end
    @protocol NSCopying
    @end
    @protocol NSCoding
    @end
    @protocol NSSecureCoding <NSCoding>
    @end
    @interface NSString : NSObject <NSCopying, NSSecureCoding>
    @end
    @interface NSNumber : NSObject <NSCopying, NSSecureCoding>
    @end
    @interface NSData : NSObject <NSCopying, NSSecureCoding>
    @end
    @interface NSDate : NSObject <NSCopying, NSSecureCoding>
    @end
    @interface NSURL : NSObject <NSCopying, NSSecureCoding>
    @end
    @interface NSError : NSObject <NSCopying, NSSecureCoding>
    @end
    @interface NSArray<__covariant ObjectType> : NSObject <NSCopying, NSSecureCoding>
    @end
    @interface NSDictionary<__covariant KeyType, __covariant ObjectType> : NSObject <NSCopying, NSSecureCoding>
    @end
    @interface NSSet<__covariant ObjectType> : NSObject <NSCopying, NSSecureCoding>
    @end
    #endif

    """

    /// The names the prelude declares (typedefs, protocols, classes), read from it so the two cannot drift apart; they are not the module's API.
    static let preludeNames: Set<String> = {
        var names = Set<String>()
        for line in prelude.split(separator: "\n") {
            let words = line.split(whereSeparator: { $0 == " " || $0 == ";" || $0 == "<" || $0 == ":" })
            guard let first = words.first else { continue }
            if first == "@protocol" || first == "@interface", words.count > 1 { names.insert(String(words[1])) }
            if first == "typedef", let last = words.last { names.insert(String(last)) }
        }
        return names
    }()

    static func objcDeclarations(headers: [URL], scratch: URL) throws -> [APIDeclaration] {
        let include = scratch.appendingPathComponent("objc-prelude", isDirectory: true)
        for framework in ["Foundation", "UIKit", "CoreGraphics"] {
            let folder = include.appendingPathComponent(framework, isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(prelude.utf8).write(to: folder.appendingPathComponent("\(framework).h"))
        }
        let preludeFile = include.appendingPathComponent("prelude.h")
        try Data(prelude.utf8).write(to: preludeFile)
        var result: [APIDeclaration] = []
        for header in headers {
            let dump = scratch.appendingPathComponent("clang-\(UUID().uuidString.prefix(8)).json")
            try run(["clang", "-x", "objective-c", "-fsyntax-only", "-fobjc-runtime=macosx", "-fblocks", "-I", include.path,
                     "-I", header.deletingLastPathComponent().path, "-include", preludeFile.path,
                     "-Xclang", "-ast-dump=json", header.path], in: scratch, what: "clang -ast-dump=json of \(header.lastPathComponent)", stdout: dump)
            let data = try Data(contentsOf: dump)
            guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any] else { continue }
            for node in root["inner"] as? [[String: Any]] ?? [] { objcDeclaration(node, into: &result) }
        }
        var seen = Set<String>()
        return result.filter { seen.insert($0.key).inserted }
    }

    private static func objcDeclaration(_ node: [String: Any], into result: inout [APIDeclaration]) {
        guard node["isImplicit"] as? Bool != true, let kind = node["kind"] as? String, let name = node["name"] as? String,
              !preludeNames.contains(name), !name.hasPrefix("__") else { return }
        // A forward declaration (`@class UIView;`, `@protocol Delegate;`) names a type declared elsewhere: not this header's API.
        // clang's JSON does not mark it; it has no members, and no superclass or adopted protocol of its own.
        let hasSuper = ((node["super"] as? [String: Any])?["id"] as? String).map { $0 != "0x0" } ?? false
        if node["inner"] == nil && !hasSuper && node["protocols"] == nil { return }
        let container: String
        var signature: String
        switch kind {
        case "ObjCProtocolDecl":
            container = "@protocol \(name)"
            signature = "@protocol <" + ((node["protocols"] as? [[String: Any]])?.compactMap { $0["name"] as? String }.joined(separator: ", ") ?? "") + ">"
        case "ObjCInterfaceDecl":
            container = "@interface \(name)"
            signature = "@interface : " + ((node["super"] as? [String: Any])?["name"] as? String ?? "")
        case "ObjCCategoryDecl":
            container = "@interface \((node["interface"] as? [String: Any])?["name"] as? String ?? "?") (\(name))"
            signature = "@category"
        default:
            return
        }
        result.append(APIDeclaration(key: container, signature: signature))
        for member in node["inner"] as? [[String: Any]] ?? [] {
            guard member["isImplicit"] as? Bool != true, let memberKind = member["kind"] as? String else { continue }
            switch memberKind {
            case "ObjCMethodDecl":
                let selector = member["name"] as? String ?? "?"
                let instance = member["instance"] as? Bool ?? true
                let returns = (member["returnType"] as? [String: Any])?["qualType"] as? String ?? "id"
                let parameters = (member["inner"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "ParmVarDecl" }
                    .map { ($0["type"] as? [String: Any])?["qualType"] as? String ?? "?" }
                let requirement = kind == "ObjCProtocolDecl"
                result.append(APIDeclaration(key: "\(container) › \(instance ? "-" : "+")\(selector)",
                                             signature: "(\(returns))" + parameters.map { "(\($0))" }.joined(separator: ","),
                                             isRequirement: requirement))
            case "ObjCPropertyDecl":
                let type = (member["type"] as? [String: Any])?["qualType"] as? String ?? "?"
                let attributes = ["readonly", "class", "copy", "weak", "strong", "nullable", "nonnull"].filter { member[$0] as? Bool == true }
                result.append(APIDeclaration(key: "\(container) › @property \(member["name"] as? String ?? "?")",
                                             signature: "(\(type))" + (attributes.isEmpty ? "" : " " + attributes.joined(separator: " ")),
                                             isRequirement: kind == "ObjCProtocolDecl"))
            default:
                continue
            }
        }
    }

    // MARK: Processes

    /// Runs a compiler tool with arguments (no shell), failing with its output when it exits non-zero.
    static func run(_ arguments: [String], in directory: URL, what: String, stdout: URL? = nil) throws {
        let command = arguments.map(StringEscaping.shellWord).joined(separator: " ") + (stdout.map { " > " + StringEscaping.shellWord($0.path) } ?? "")
        let result = try ShellCommand.run(stdout == nil ? command : command + " 2>" + StringEscaping.shellWord(directory.appendingPathComponent("stderr.txt").path),
                                          in: directory, environment: ProcessInfo.processInfo.environment)
        guard result.status == 0 else {
            let errors = (try? String(contentsOf: directory.appendingPathComponent("stderr.txt"), encoding: .utf8)) ?? ""
            throw Failure(description: "\(what) failed (exit \(result.status)):\n" + (result.output + errors).split(separator: "\n").prefix(20).joined(separator: "\n"))
        }
    }

}
