import Foundation
import Testing

/// Workspaces for `modkit develop`: directory modules with podspecs, and consumer Podfiles in the manifest repository.
extension Sandbox {
    /// The bytes of a file below the sandbox, or nil when it does not exist.
    func bytes(_ relative: String) -> Data? { FileManager.default.contents(atPath: url(relative).path) }

    /// Writes exact bytes (CRLF, Latin-1, no final newline…) to a file below the sandbox.
    func writeBytes(_ data: Data, to relative: String) throws {
        let file = url(relative)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
    }

    /// Core 1.2.0; Network 2.0.0; Feature 1.0.0 → Network (podspec only); Legacy 0.5.0. The manifest repository `ws` is a
    /// committed git repository; `consumers` are the Podfiles (relative to `ws`) each fixture adds.
    func makePodWorkspace() throws {
        try write("""
        version: 1
        workspace: Develop
        modules:
          - name: Core
            path: Modules/Core
          - name: Network
            path: Modules/Network
          - name: Feature
            path: Features/Feature
          - name: App
            path: Apps/App

        """, to: "ws/modkit.yml")
        try write("Pod::Spec.new do |s|\n  s.name = 'Core'\n  s.version = '1.2.0'\nend\n", to: "ws/Modules/Core/Core.podspec")
        try write("Pod::Spec.new do |s|\n  s.name = 'Network'\n  s.version = '2.0.0'\n  s.dependency 'Core', '~> 1.2'\nend\n",
                  to: "ws/Modules/Network/Network.podspec")
        try write("Pod::Spec.new do |s|\n  s.name = 'Feature'\n  s.version = '1.0.0'\n  s.dependency 'Network', '~> 2.0'\nend\n",
                  to: "ws/Features/Feature/Feature.podspec")
        try write("1.0.0\n", to: "ws/Apps/App/VERSION")
        try git("init", "-q", "-b", "main", in: "ws")
    }

    /// The app's Podfile of the must-show case: `pod 'Core', '~> 1.0'`, Feature (which reaches Network only through its
    /// podspec), a comment, a `:git` pod, CRLF endings and a Latin-1 byte in a comment.
    static let appPodfile: Data = {
        var bytes = Array("platform :ios, '13.0'\r\n# The app: Core and the feature pods; Caf".utf8) + [0xE9] + Array("\r\n".utf8)
        bytes += Array("""
        target 'App' do\r
          use_frameworks!\r
          pod 'Core', '~> 1.0' # the foundation\r
          pod 'Feature', '~> 1.0', :modular_headers => true\r
          pod 'Alamofire', :git => 'https://github.com/Alamofire/Alamofire.git', :tag => '5.8.0'\r
        end\r

        """.utf8)
        return Data(bytes)
    }()

    /// Runs `podfile` through Ruby with a Podfile-DSL stand-in; returns each pod with its requirements, `:path` and target.
    func evaluatePodfile(_ podfile: String) throws -> [[String: Any]] {
        try #require((try? run("/usr/bin/env", ["ruby", "-v"], in: root).status) == 0, "ruby is needed (scripts/test.sh installs it)")
        try write("""
        # A Podfile-DSL stand-in: records each pod with its requirements, options and target.
        require 'json'
        PODS = []
        $target = nil
        def pod(name, *requirements)
          options = requirements.last.is_a?(Hash) ? requirements.pop : {}
          PODS << { 'name' => name, 'requirements' => requirements.map(&:to_s), 'options' => options.keys.map(&:to_s),
                    'path' => options[:path], 'target' => $target }
        end
        def target(name, *_options)
          outer, $target = $target, name
          yield if block_given?
          $target = outer
        end
        def abstract_target(name, &block)
          target(name, &block)
        end
        %w[source platform use_frameworks! inhibit_all_warnings! inherit! project workspace install! post_install pre_install
           use_modular_headers!].each { |name| define_method(name) { |*_args, &_block| nil } }
        at_exit { puts JSON.generate(PODS) }

        """, to: "podfile_dsl.rb")
        let result = try run("/usr/bin/env", ["ruby", "-r", url("podfile_dsl.rb").path, url(podfile).path], in: root)
        try #require(result.status == 0, "ruby rejects \(podfile): \(result.err)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [[String: Any]])
    }

    /// A `:path` value of a Podfile resolved against the Podfile's folder, as CocoaPods resolves it.
    func resolvedPodPath(_ path: String, podfile: String) -> String {
        url(podfile).deletingLastPathComponent().appendingPathComponent(path).standardizedFileURL.path
    }
}
