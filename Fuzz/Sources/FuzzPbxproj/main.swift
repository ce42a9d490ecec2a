import SpecKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = XcodeProjectReader.remotePackageURLs(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
