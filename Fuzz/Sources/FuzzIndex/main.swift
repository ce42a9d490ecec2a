import GitKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    // Collecting the entries walks every path the proof of a clean work tree later uses.
    _ = IndexCacheTree(indexFile: Array(UnsafeBufferPointer(start: data, count: size)), collectingEntries: true)
    return 0
}
