import Testing
@testable import SpecKit

/// Podfile `pod` lines: classification, targets, and local or git sources that are never rewritten.
@Suite struct PodfileReaderTests {
    let podfile = """
    platform :ios, '13.0'
    pod 'Top'
    target 'App' do
      pod 'Core', '~> 1.0'
      pod 'Local', :path => '../Local'
      pod 'Branch', :git => 'https://git.example.com/ios/Branch.git', :branch => 'dev'
      pod 'Commit', git: 'git@git.example.com:ios/Commit.git', commit: 'abc123'
      pod 'Tag', :git => 'https://git.example.com/ios/Tag.git', :tag => '1.0.0'
      pod 'Spec', :podspec => 'Spec.podspec'
      target 'AppTests' do
        pod 'Quick', '1.0.0', :configurations => ['Debug']
      end
    end
    """

    @Test func classifiesEveryForm() throws {
        let requirements = try SpecReader.read(podfile, kind: .podfile)
        #expect(requirements.map(\.name) == ["Top", "Core", "Local", "Branch", "Commit", "Tag", "Spec", "Quick"])
        #expect(requirements.map(\.constraint) == [
            .unconstrained, .range("~> 1.0"), .path("../Local"), .branch("dev"), .revision("abc123"), .revision("1.0.0"),
            .path("Spec.podspec"), .exact("1.0.0"),
        ])
        #expect(requirements.map(\.origin) == [.cocoapods, .cocoapods, .path, .git, .git, .git, .podspec, .cocoapods])
        #expect(requirements.map(\.span.line) == [2, 4, 5, 6, 7, 8, 9, 11])
    }

    @Test func neverRewritesPathGitOrPodspecEntries() throws {
        let requirements = try SpecReader.read(podfile, kind: .podfile)
        #expect(requirements.map(\.rewritable) == [true, true, false, false, false, false, false, true])
        let versions = ["Local": "1.0.0", "Branch": "1.0.0", "Spec": "1.0.0"]
        let plan = try SpecRewriter.plan(podfile, kind: .podfile, versions: versions)
        #expect(plan.newText == podfile)
        #expect(plan.skipped.map(\.request.requirement.name) == ["Local", "Branch", "Spec"])
    }

    @Test func recordsTargets() throws {
        let requirements = try SpecReader.read(podfile, kind: .podfile)
        #expect(requirements.map(\.context.target) == [nil, "App", "App", "App", "App", "App", "App", "AppTests"])
        #expect(requirements.last?.context.hasConfigurations == true)
    }
}
