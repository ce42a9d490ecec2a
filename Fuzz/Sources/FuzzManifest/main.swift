import Foundation
import ModKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let file = URL(fileURLWithPath: "/nonexistent/ws/modkit.yml")
    guard (try? ManifestLoader.parse(text: text, file: file, displayPath: "modkit.yml")) != nil else { return 0 }
    // What decodes can take a new module; the edited text must decode too.
    if let edited = try? ManifestAppender.append([.init(name: "FuzzNew", path: "FuzzNew/Dir", url: "git@h:o'b/x.git")], to: text) {
        _ = try? ManifestLoader.parse(text: edited, file: file, displayPath: "modkit.yml")
    }
    return 0
}
