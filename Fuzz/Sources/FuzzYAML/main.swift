import Foundation
@testable import ModKit
import YAMLKit

/// Every scalar of the document, emitted by YAMLKit's scalar emitter, must read back as the same string.
func checkEmitter(_ node: YAMLNode) {
    switch node {
    case .scalar(let scalar):
        guard let value = scalar.string else { return }
        for context in [YAML.ScalarContext.block, .flow] {
            let text = context == .block ? "k: \(YAML.scalar(value))\n" : "[\(YAML.scalar(value, in: .flow))]\n"
            let back = (try? YAML.parse(text)).flatMap { context == .block ? $0["k"] : $0.sequence?.items.first }
            precondition(back?.string == value, "the emitter wrote \(value.debugDescription) as \(text.debugDescription)")
        }
    case .mapping(let mapping):
        for (key, value) in mapping.entries { checkEmitter(key); checkEmitter(value) }
    case .sequence(let sequence):
        for item in sequence.items { checkEmitter(item) }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let text = try? YAML.text(fromUTF8: bytes), let root = try? YAML.parse(text) {
        checkEmitter(root)
    }
    _ = try? SnapshotFile.parse(bytes, displayPath: "v1:.modkit/snapshots/v1.yml", tag: "v1")
    if let text = try? YAML.text(fromUTF8: bytes) {
        // west.yml and .repos, as `init --import` and `imports:` read them.
        let source = ImportSource(url: URL(fileURLWithPath: "/nonexistent/ws/west.yml"), displayPath: "west.yml", text: text)
        _ = try? WestImporter.read(source)
        _ = try? VcstoolImporter.read(source)
    }
    _ = try? Template.decode(bytes, directory: URL(fileURLWithPath: "/nonexistent/template"), name: "t", displayPath: "t", origin: .path)
    return 0
}
