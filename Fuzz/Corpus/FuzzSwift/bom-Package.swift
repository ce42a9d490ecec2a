// swift-tools-version:5.9
import PackageDescription
let package = Package(name: "Bom", dependencies: [.package(url: "https://x/Core.git", from: "1.0.0")])
