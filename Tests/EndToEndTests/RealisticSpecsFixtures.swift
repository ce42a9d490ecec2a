import Foundation

/// A workspace built from spec files in the shape of real projects: firebase-ios-sdk's several podspecs at one root,
/// facebook-ios-sdk's lockstep `"#{s.version}"`, an ISO-8859-1 podspec, a CRLF podspec with a BOM, package names with
/// hyphens, a `branch:` package, `:git`/`:branch` pods and a Cartfile with `v` tags.
enum RealisticSpecs {
    static let manifest = """
    version: 1
    workspace: Realistic
    modules:
      - name: firebase-ios-sdk
        path: firebase-ios-sdk
      - name: facebook-ios-sdk
        path: facebook-ios-sdk
      - name: LatinKit
        path: LatinKit
      - name: CRLFKit
        path: CRLFKit
      - name: swift-log
        path: swift-log
      - name: app-shell
        path: app-shell
        specs: [App/Package.swift, Example/Podfile, Cartfile]

    """

    static func firebasePodspec(_ name: String, summary: String, dependencies: [String], testDependencies: [String] = []) -> String {
        var text = """
        Pod::Spec.new do |s|
          s.name             = '\(name)'
          s.version          = '12.19.0'
          s.summary          = '\(summary)'

          s.description      = <<-DESC
        \(summary) for Apple platforms; it's part of the Firebase SDK.
                               DESC

          s.homepage         = 'https://firebase.google.com'
          s.license          = { :type => 'Apache-2.0', :file => 'LICENSE' }
          s.authors          = 'Google, Inc.'

          s.source           = {
            :git => 'https://github.com/firebase/firebase-ios-sdk.git',
            :tag => 'CocoaPods-' + s.version.to_s
          }
          ios_deployment_target = '15.0'
          s.ios.deployment_target = ios_deployment_target
          s.osx.deployment_target = '10.15'
          s.swift_version = '5.9'
          s.static_framework = true
          s.prefix_header_file = false

          s.source_files = [
            '\(name)/Sources/**/*.[mh]',
            '\(name)/Sources/**/*.swift',
          ]

        """
        for dependency in dependencies { text += "  s.dependency \(dependency)\n" }
        if !testDependencies.isEmpty {
            text += "\n  s.test_spec 'unit' do |unit_tests|\n    unit_tests.scheme = { :code_coverage => true }\n"
            text += "    unit_tests.source_files = '\(name)/Tests/Unit/**/*.swift'\n"
            for dependency in testDependencies { text += "    unit_tests.dependency \(dependency)\n" }
            text += "  end\n"
        }
        return text + "end\n"
    }

    static let firebase: [String: String] = [
        "FirebaseCoreInternal.podspec": firebasePodspec("FirebaseCoreInternal", summary: "Firebase Core Internal",
                                                        dependencies: ["'GoogleUtilities/NSData+zlib', '~> 8.1'"]),
        "FirebaseCore.podspec": firebasePodspec("FirebaseCore", summary: "Firebase Core", dependencies: [
            "'FirebaseCoreInternal', '~> 12.19.0'", "'GoogleUtilities/Environment', '~> 8.1'", "'GoogleUtilities/Logger', '~> 8.1'",
        ]),
        "FirebaseCoreExtension.podspec": firebasePodspec("FirebaseCoreExtension", summary: "Extended FirebaseCore APIs",
                                                         dependencies: ["'FirebaseCore', '~> 12.19.0'"]),
        "FirebaseAuth.podspec": firebasePodspec("FirebaseAuth", summary: "Apple platform client for Firebase Authentication", dependencies: [
            "'FirebaseCore', '~> 12.19.0'", "'FirebaseCoreExtension', '~> 12.19.0'",
            "'GoogleUtilities/AppDelegateSwizzler', '~> 8.1'", "'GTMSessionFetcher/Core', '>= 3.4', '< 6.0'",
        ], testDependencies: ["'OCMock'"]),
        "Podfile.lock": """
        PODS:
          - GoogleUtilities/AppDelegateSwizzler (8.1.0)
          - GoogleUtilities/Environment (8.1.0)
          - GoogleUtilities/Logger (8.1.0)
          - "GoogleUtilities/NSData+zlib (8.1.0)"
          - GTMSessionFetcher/Core (3.5.0)
          - OCMock (3.9.4)

        COCOAPODS: 1.16.2

        """,
    ]

    static func facebookPodspec(_ name: String, dependencies: [String]) -> String {
        var text = """
        # Copyright (c) Meta Platforms, Inc. and affiliates.
        # All rights reserved.

        Pod::Spec.new do |s|
          s.name = '\(name)'
          s.version = '18.0.0'
          s.summary = 'Official Facebook SDK for iOS to access Facebook Platform'
          s.homepage = 'https://developers.facebook.com/docs/ios/'
          s.license = {
            :type => 'Facebook Platform License',
            :text => 'Copyright (c) Meta Platforms, Inc. and affiliates.'
          }
          s.author = 'Facebook'
          s.platform = :ios, :tvos
          s.ios.deployment_target = '12.0'
          s.source = {
            :http => "https://github.com/facebook/facebook-ios-sdk/releases/download/v#{s.version}/\(name)-Static_XCFramework.zip",
            :sha1 => '1f8d1c3e5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d'
          }

        """
        for dependency in dependencies { text += "  s.dependency \(dependency)\n" }
        return text + "end\n"
    }

    static let facebook: [String: String] = [
        "FBSDKCoreKit_Basics.podspec": facebookPodspec("FBSDKCoreKit_Basics", dependencies: []),
        "FBAEMKit.podspec": facebookPodspec("FBAEMKit", dependencies: ["'FBSDKCoreKit_Basics', \"#{s.version}\""]),
        "FBSDKCoreKit.podspec": facebookPodspec("FBSDKCoreKit", dependencies: [
            "'FBSDKCoreKit_Basics', \"#{s.version}\"", "'FBAEMKit', \"#{s.version}\"",
        ]),
        "FBSDKLoginKit.podspec": facebookPodspec("FBSDKLoginKit", dependencies: ["'FBSDKCoreKit', s.version.to_s"]),
    ]

    /// ISO-8859-1: `é` is 0xE9 and `ü` is 0xFC, which are not UTF-8.
    static let latinPodspec: [UInt8] = Array("""
        # encoding: ISO-8859-1
        Pod::Spec.new do |s|
          s.name         = 'LatinKit'
          s.version      = '2.3.0'
          s.summary      = 'Caf\u{1}s and cr\u{2}pes'
          s.authors      = { 'Jos\u{1} M\u{3}ller' => 'jose@example.com' }
          s.source       = { :git => 'https://example.com/latin/LatinKit.git', :tag => s.version.to_s }
          s.dependency 'FirebaseCore', '~> 12.0' # Firebase by Google
        end

        """.utf8).map { $0 == 1 ? 0xE9 : $0 == 2 ? 0xEA : $0 == 3 ? 0xFC : $0 }

    /// CRLF line endings and a UTF-8 byte order mark.
    static let crlfPodspec: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("""
        Pod::Spec.new do |spec|
          spec.name     = "CRLFKit"
          spec.version  = "4.1.0"
          spec.summary  = "Edited on Windows"
          spec.source   = { :git => "https://example.com/CRLFKit.git", :tag => "#{spec.version}" }
          spec.dependency "LatinKit"
        end

        """.replacingOccurrences(of: "\n", with: "\r\n").utf8)

    static let swiftLog: [String: String] = [
        "Package.swift": """
        // swift-tools-version:5.9
        import PackageDescription

        let package = Package(name: "swift-log", products: [.library(name: "Logging", targets: ["Logging"])], targets: [.target(name: "Logging")])

        """,
        "VERSION": "1.6.1\n",
    ]

    static let collectionsRevision = "8d9834a6189db730f6264db7556a7ffb751e99ee"
    static let sdWebImageCommit = "b0f6bc9c9b0a5b4ff4c0ec9e4c3a1d3f7e5a2c11"
    static let xcconfigsCommit = "3d9d99634cae6d586e272543d527681283b33eb0"

    static let appShell: [String: String] = [
        "App/Package.swift": """
        // swift-tools-version:5.9
        import PackageDescription

        let snapshotVersion: Version = "1.17.0"

        let package = Package(
            name: "AppShell",
            platforms: [.iOS(.v15), .macOS(.v13)],
            dependencies: [
                .package(url: "https://github.com/apple/swift-log.git", from: "1.5.0"),
                .package(url: "https://github.com/apple/swift-collections.git", branch: "main"),
                .package(url: "https://github.com/pointfreeco/swift-snapshot-testing.git", exact: snapshotVersion),
            ],
            targets: [
                .target(name: "AppShell", dependencies: [
                    .product(name: "Logging", package: "swift-log"),
                    .product(name: "Collections", package: "swift-collections"),
                ]),
            ]
        )

        """,
        "App/Package.resolved": """
        {
          "originHash" : "5a0c1f0e3b7e2d4c9a8b6f1e0d2c3b4a5968778695a4b3c2d1e0f9a8b7c6d5e4",
          "pins" : [
            {
              "identity" : "swift-collections",
              "kind" : "remoteSourceControl",
              "location" : "https://github.com/apple/swift-collections.git",
              "state" : {
                "branch" : "main",
                "revision" : "\(collectionsRevision)"
              }
            }
          ],
          "version" : 3
        }

        """,
        "Example/Podfile": """
        platform :ios, '15.0'
        use_frameworks!

        target 'AppShellExample' do
          pod 'FirebaseAuth', '~> 12.19.0'
          pod 'CRLFKit'
          pod 'Kingfisher', '~> 7.10'
          pod 'SDWebImage', :git => 'https://github.com/SDWebImage/SDWebImage.git', :branch => 'master'
        end

        """,
        "Example/Podfile.lock": """
        PODS:
          - SDWebImage (5.19.0):
            - SDWebImage/Core (= 5.19.0)
          - SDWebImage/Core (5.19.0)

        DEPENDENCIES:
          - SDWebImage (from `https://github.com/SDWebImage/SDWebImage.git`, branch `master`)

        EXTERNAL SOURCES:
          SDWebImage:
            :branch: master
            :git: https://github.com/SDWebImage/SDWebImage.git

        CHECKOUT OPTIONS:
          SDWebImage:
            :commit: \(sdWebImageCommit)
            :git: https://github.com/SDWebImage/SDWebImage.git

        COCOAPODS: 1.16.2

        """,
        "Cartfile": """
        # Networking
        github "Moya/Moya" ~> 15.0
        github "ReactiveCocoa/ReactiveSwift" ~> 7.1
        github "jspahrsummers/xcconfigs" "master"
        github "Quick/Nimble" ~> 13.0

        """,
        "VERSION": "3.0.0\n",
        "Cartfile.resolved": """
        github "Moya/Moya" "v15.0.3"
        github "Quick/Nimble" "nightly-2024-05"
        github "ReactiveCocoa/ReactiveSwift" "7.1.1"
        github "jspahrsummers/xcconfigs" "\(xcconfigsCommit)"

        """,
    ]

    /// A stale lock at the workspace root: Kingfisher 7.6.0 lies outside `~> 7.10`.
    static let rootPodfileLock = "PODS:\n  - Kingfisher (7.6.0)\n\nCOCOAPODS: 1.16.2\n"
}
