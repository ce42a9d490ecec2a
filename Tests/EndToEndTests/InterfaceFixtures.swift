import Foundation
import Testing

/// A monorepo with an interface pair released once: `PaymentsInterface` 1.0 (Swift protocol `PaymentService`, or an
/// Objective-C header with `@protocol PaymentService <NSObject>`) and `Payments` 1.0.0 implementing it, tagged
/// `PaymentsInterface/1.0` and `Payments/1.0.0`.
struct PaymentsPair {
    let sandbox: Sandbox
    let objc: Bool

    static let swiftInterface = """
    public protocol PaymentService: AnyObject {
        func pay(amount: Int) -> Bool
        func refund(id: String)
    }

    """

    static let objcInterface = """
    #import <Foundation/Foundation.h>

    NS_ASSUME_NONNULL_BEGIN

    @protocol PaymentService <NSObject>
    - (BOOL)payAmount:(NSInteger)amount;
    - (void)refundWithIdentifier:(NSString *)identifier;
    @property (nonatomic, readonly, nullable) NSString *merchantName;
    @end

    NS_ASSUME_NONNULL_END

    """

    /// The interface's source file, relative to the workspace.
    var interfaceFile: String { objc ? "PaymentsInterface/Headers/PaymentService.h" : "PaymentsInterface/Sources/PaymentsInterface/PaymentService.swift" }

    init(objc: Bool = false) throws {
        sandbox = try Sandbox()
        self.objc = objc
        try sandbox.write("""
        version: 1
        workspace: Shop
        modules:
          - name: PaymentsInterface
            path: PaymentsInterface
          - name: Payments
            path: Payments
            implements: PaymentsInterface

        """, to: "ws/modkit.yml")
        if objc {
            try sandbox.write("""
            Pod::Spec.new do |s|
              s.name    = 'PaymentsInterface'
              s.version = '1.0'
              s.source_files = 'Headers/*.h'
            end

            """, to: "ws/PaymentsInterface/PaymentsInterface.podspec")
            try sandbox.write(Self.objcInterface, to: "ws/" + interfaceFile)
            try sandbox.write("""
            Pod::Spec.new do |s|
              s.name    = 'Payments'
              s.version = '1.0.0'
              s.dependency 'PaymentsInterface', '1.0'
            end

            """, to: "ws/Payments/Payments.podspec")
        } else {
            try sandbox.write("1.0\n", to: "ws/PaymentsInterface/VERSION")
            try sandbox.write("""
            // swift-tools-version:5.9
            import PackageDescription

            let package = Package(name: "PaymentsInterface", products: [.library(name: "PaymentsInterface", targets: ["PaymentsInterface"])],
                                  targets: [.target(name: "PaymentsInterface")])

            """, to: "ws/PaymentsInterface/Package.swift")
            try sandbox.write(Self.swiftInterface, to: "ws/" + interfaceFile)
            try sandbox.write("1.0.0\n", to: "ws/Payments/VERSION")
            try sandbox.write("""
            // swift-tools-version:5.9
            import PackageDescription

            let package = Package(name: "Payments", dependencies: [.package(path: "../PaymentsInterface")],
                                  targets: [.target(name: "Payments", dependencies: ["PaymentsInterface"])])

            """, to: "ws/Payments/Package.swift")
        }
        try sandbox.write("# Payments\n", to: "ws/Payments/README.md")
        try sandbox.git("init", "-q", "-b", "main", in: "ws")
        try sandbox.git("add", "-A", in: "ws")
        try sandbox.git("commit", "-qm", "feat: payments", in: "ws")
        try sandbox.git("tag", "-a", "PaymentsInterface/1.0", "-m", "PaymentsInterface 1.0", in: "ws")
        try sandbox.git("tag", "-a", "Payments/1.0.0", "-m", "Payments 1.0.0", in: "ws")
    }

    /// Rewrites the interface file and commits it with `message`.
    func changeInterface(_ text: String, message: String = "chore: tidy the interface") throws {
        try sandbox.write(text, to: "ws/" + interfaceFile)
        try sandbox.git("commit", "-qam", message, in: "ws")
    }

    /// The interface without its refund requirement, or with one more.
    var removed: String {
        objc ? Self.objcInterface.replacingOccurrences(of: "- (void)refundWithIdentifier:(NSString *)identifier;\n", with: "")
            : Self.swiftInterface.replacingOccurrences(of: "    func refund(id: String)\n", with: "")
    }

    var added: String {
        objc ? Self.objcInterface.replacingOccurrences(of: "@end", with: "- (NSInteger)balance;\n@end")
            : Self.swiftInterface.replacingOccurrences(of: "    func refund(id: String)\n", with: "    func refund(id: String)\n    func balance() -> Int\n")
    }

    func modkit(_ arguments: String...) throws -> ProcessResult {
        try sandbox.run(Sandbox.modkitBinary.path, arguments, in: sandbox.url("ws"))
    }
}
