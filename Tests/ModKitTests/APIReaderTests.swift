import Foundation
import Testing
@testable import ModKit

/// The API readers run on the real compilers: clang's JSON AST for Objective-C headers (with modkit's prelude where
/// Foundation is missing), swiftc + swift-api-digester for Swift targets.
@Suite struct APIReaderTests {
    /// An interface header as an SDK writes one: Foundation and CoreGraphics types, lightweight generics, nullability
    /// regions and annotations, Swift names, designated and unavailable initialisers, an enum and availability.
    static let sdkStyleHeader = """
    #import <Foundation/Foundation.h>
    #import <CoreGraphics/CoreGraphics.h>

    NS_ASSUME_NONNULL_BEGIN

    typedef NS_ENUM(NSInteger, PKPaymentStatus) {
        PKPaymentStatusSuccess,
        PKPaymentStatusFailure,
    } NS_SWIFT_NAME(PaymentStatus);

    @protocol PKPaymentService;
    @protocol PKPaymentAuthorizationDelegate;
    @class PKContact;

    API_AVAILABLE(ios(13.0), macos(11.0))
    NS_SWIFT_NAME(PaymentRequest)
    @interface PKPaymentRequest : NSObject <NSCopying, NSSecureCoding>
    - (instancetype)initWithMerchantIdentifier:(NSString *)merchantIdentifier amount:(CGFloat)amount NS_DESIGNATED_INITIALIZER;
    - (instancetype)init NS_UNAVAILABLE;
    @property (nonatomic, copy, readonly) NSString *merchantIdentifier;
    @property (nonatomic, copy) NSArray<NSString *> *supportedNetworks;
    @property (nonatomic, copy, nullable) NSDictionary<NSString *, id> *userInfo;
    @property (nonatomic) CGFloat amount;
    @property (nonatomic) NSUInteger quantity;
    @property (nonatomic, strong, nullable) PKContact *billingContact;
    @property (nonatomic, weak, nullable) id<PKPaymentAuthorizationDelegate> authorizationDelegate;
    @end

    NS_SWIFT_NAME(PaymentService)
    @protocol PKPaymentService <NSObject>
    - (BOOL)authorizeRequest:(PKPaymentRequest *)request error:(NSError * _Nullable * _Nullable)error NS_SWIFT_NAME(authorize(_:));
    - (void)refundWithIdentifier:(NSString *)identifier completion:(void (^)(BOOL refunded, NSError * _Nullable error))completion;
    + (nullable instancetype)sharedService;
    @optional
    @property (nonatomic, readonly, nullable) NSString *merchantName;
    @property (nonatomic, weak, nullable) id<PKPaymentService> delegate;
    @property (nonatomic, readonly) PKPaymentStatus status;
    @end

    NS_ASSUME_NONNULL_END

    """

    /// The same API with every macro written out as Apple's SDK defines it, and no framework imported (the types still
    /// come from the prelude, which every header gets).
    static let spelledOutHeader = sdkStyleHeader
        .replacingOccurrences(of: "#import <Foundation/Foundation.h>\n#import <CoreGraphics/CoreGraphics.h>\n", with: "")
        .replacingOccurrences(of: "NS_ASSUME_NONNULL_BEGIN", with: "_Pragma(\"clang assume_nonnull begin\")")
        .replacingOccurrences(of: "NS_ASSUME_NONNULL_END", with: "_Pragma(\"clang assume_nonnull end\")")
        .replacingOccurrences(of: "typedef NS_ENUM(NSInteger, PKPaymentStatus) {",
                              with: "typedef enum PKPaymentStatus : NSInteger PKPaymentStatus; enum PKPaymentStatus : NSInteger {")
        .replacingOccurrences(of: "NS_SWIFT_NAME(PaymentStatus)", with: "__attribute__((swift_name(\"PaymentStatus\")))")
        .replacingOccurrences(of: "NS_SWIFT_NAME(PaymentRequest)", with: "__attribute__((swift_name(\"PaymentRequest\")))")
        .replacingOccurrences(of: "NS_SWIFT_NAME(PaymentService)", with: "__attribute__((swift_name(\"PaymentService\")))")
        .replacingOccurrences(of: "NS_SWIFT_NAME(authorize(_:))", with: "__attribute__((swift_name(\"authorize(_:)\")))")
        .replacingOccurrences(of: "API_AVAILABLE(ios(13.0), macos(11.0))",
                              with: "__attribute__((availability(ios, introduced=13.0))) __attribute__((availability(macos, introduced=11.0)))")
        .replacingOccurrences(of: "NS_DESIGNATED_INITIALIZER", with: "__attribute__((objc_designated_initializer))")
        .replacingOccurrences(of: "NS_UNAVAILABLE", with: "__attribute__((unavailable))")

    func read(_ header: String) throws -> [APIDeclaration] {
        _ = try #require(findExecutable("clang"), "clang is needed")
        let root = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let file = root.appendingPathComponent("Headers/PKPaymentService.h")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(header.utf8).write(to: file)
        let scratch = root.appendingPathComponent("scratch")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        return try APIReader.declarations(in: root, scratch: scratch)
    }

    @Test func anSDKStyleHeaderIsReadAsTheSDKWouldDeclareIt() throws {
        let declarations = try read(Self.sdkStyleHeader)
        let lines = declarations.map { "\($0.isRequirement ? "requirement " : "")\($0.key) = \($0.signature)" }
        // The forward declarations add nothing; `@protocol PKPaymentService;` puts the protocol first, as its definition says it.
        #expect(lines == [
            "@protocol PKPaymentService = @protocol <NSObject>",
            "@interface PKPaymentRequest = @interface : NSObject",
            "@interface PKPaymentRequest › -initWithMerchantIdentifier:amount: = (instancetype _Nonnull)(NSString * _Nonnull),(CGFloat)",
            "@interface PKPaymentRequest › -init = (instancetype _Nonnull)",
            "@interface PKPaymentRequest › @property merchantIdentifier = (NSString * _Nonnull) readonly copy",
            "@interface PKPaymentRequest › @property supportedNetworks = (NSArray<NSString *> * _Nonnull) copy",
            "@interface PKPaymentRequest › @property userInfo = (NSDictionary<NSString *,id> * _Nullable) copy",
            "@interface PKPaymentRequest › @property amount = (CGFloat)",
            "@interface PKPaymentRequest › @property quantity = (NSUInteger)",
            "@interface PKPaymentRequest › @property billingContact = (PKContact * _Nullable) strong",
            "@interface PKPaymentRequest › @property authorizationDelegate = (id<PKPaymentAuthorizationDelegate> _Nullable) weak",
            "requirement @protocol PKPaymentService › -authorizeRequest:error: = (BOOL)(PKPaymentRequest * _Nonnull),(NSError * _Nullable * _Nullable)",
            "requirement @protocol PKPaymentService › -refundWithIdentifier:completion: = (void)(NSString * _Nonnull),(void (^ _Nonnull)(BOOL, NSError * _Nullable))",
            "requirement @protocol PKPaymentService › +sharedService = (instancetype _Nullable)",
            "requirement @protocol PKPaymentService › @property merchantName = (NSString * _Nullable) readonly",
            "requirement @protocol PKPaymentService › @property delegate = (id<PKPaymentService> _Nullable) weak",
            "requirement @protocol PKPaymentService › @property status = (PKPaymentStatus) readonly",
        ], "\(lines.joined(separator: "\n"))")
    }

    /// What the prelude supplies (frameworks, nullability regions, Swift names, enums, availability) yields the same
    /// declarations as the header that spells it all out.
    @Test func thePreludeChangesNoDeclaration() throws {
        #expect(!Self.spelledOutHeader.contains("NS_") && !Self.spelledOutHeader.contains("API_") && !Self.spelledOutHeader.contains("#import"))
        #expect(try read(Self.sdkStyleHeader) == read(Self.spelledOutHeader))
    }

    /// A target that imports another target of its package is compiled against it, whatever their alphabetical order.
    @Test(.timeLimit(.minutes(3)))
    func aSwiftTargetImportingAnotherTargetOfItsPackageIsRead() throws {
        _ = try #require(findExecutable("swift-api-digester"), "swift-api-digester is needed")
        let root = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let files = [
            "Sources/PaymentsInterface/PaymentService.swift": """
                public import Values
                import struct Values.Currency

                public protocol PaymentService: AnyObject {
                    func pay(_ amount: Money) -> Bool
                    var currency: Currency { get }
                }

                """,
            "Sources/Values/Money.swift": """
                public struct Money: Sendable, Equatable {
                    public var cents: Int
                    public init(cents: Int) { self.cents = cents }
                }
                public struct Currency: Sendable { public var code: String }

                """,
        ]
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        let scratch = root.appendingPathComponent("scratch")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let declarations = try APIReader.declarations(in: root, scratch: scratch)
        let byKey = Dictionary(declarations.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        let pay = try #require(byKey["protocol PaymentService › func pay(_:)"], "\(declarations.map(\.key))")
        #expect(pay.isRequirement && pay.signature.contains("Money"), "\(pay)")
        #expect(byKey["struct Money"] != nil && byKey["struct Money › var cents"] != nil, "\(declarations.map(\.key))")
        #expect(APIReader.inImportOrder(APIReader.swiftTargets(in: root)).map(\.0) == ["Values", "PaymentsInterface"])
    }

    @Test func importLinesNameTheirModule() {
        let lines: [(Substring, String?)] = [("import Core", "Core"), ("@_exported import Core", "Core"), ("public import Core", "Core"),
                                             ("import struct Values.Money", "Values"), ("@testable import Core.Sub", "Core"),
                                             ("// import Core", nil), ("let x = 1", nil), ("import", nil)]
        for (line, module) in lines { #expect(APIReader.importedModule(line) == module, "\(line)") }
    }
}
