// swift-tools-version:5.9
import PackageDescription
let package = Package(
    name: "App",
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.0.0"),
        .package(url: "https://h/x.git", "1.0.0"..<"2.0.0"),
        .package(path: "../Core"),
        .package(url: #"https://h/raw.git"#, exact: "1.2.3"),
    ],
    targets: [.target(name: "App", dependencies: [.product(name: "NIO", package: "swift-nio")])]
)
/* block /* nested */ comment */
let s = """
  multi \(line)
  """
