import Testing
@testable import SpecKit

/// Classification, positions and context of podspec dependency declarations.
@Suite struct PodspecReaderTests {
    let podspec = """
    Pod::Spec.new do |s|
      s.name = 'Payments' # s.dependency 'Commented'
      s.dependency 'Core'
      s.dependency "Net", "~> 2.0"
      s.dependency('Log', '>= 1.0', '< 2.0')
      s.dependency 'Exact', '1.2.3'
      s.dependency 'Equal', '= 1.2.3', :configurations => ['Debug']
      s.ios.dependency 'Mobile', %q{~> 3.0}
      s.subspec 'UI' do |anything|
        anything.dependency 'Core/UI'
        anything.subspec 'Views' do |v|
          v.osx.dependency 'Views', '~> 1.0'
        end
      end
      s.test_spec do |t|
        t.dependency 'Quick'
      end
      s.app_spec 'Demo' do |app|
        app.dependency 'Demo', version
      end
      s.dependency 'After'
    end
    """

    @Test func classifiesEveryForm() throws {
        let requirements = try SpecReader.read(podspec, kind: .podspec)
        #expect(requirements.map(\.name) == ["Core", "Net", "Log", "Exact", "Equal", "Mobile", "Core/UI", "Views", "Quick", "Demo", "After"])
        #expect(requirements.map(\.constraint) == [
            .unconstrained, .range("~> 2.0"), .range(">= 1.0, < 2.0"), .exact("1.2.3"), .exact("1.2.3"),
            .range("~> 3.0"), .unconstrained, .range("~> 1.0"), .unconstrained, .range("version"), .unconstrained,
        ])
        #expect(requirements.map(\.isPinned) == [false, false, false, true, true, false, false, false, false, false, false])
        #expect(requirements.map(\.rawText) == ["", "\"~> 2.0\"", "'>= 1.0', '< 2.0'", "'1.2.3'", "'= 1.2.3'", "%q{~> 3.0}", "", "'~> 1.0'", "", "version", ""])
    }

    @Test func reportsLinesAndColumns() throws {
        let requirements = try SpecReader.read(podspec, kind: .podspec)
        #expect(requirements.map(\.span.line) == [3, 4, 5, 6, 7, 8, 10, 12, 16, 19, 21])
        // `s.dependency 'Core'` has no requirement: the span is the insertion point after the name.
        #expect(requirements[0].span.column == 22)
        #expect(requirements[0].span.range.isEmpty)
        #expect(requirements[1].span.column == 23)
    }

    @Test func recordsContext() throws {
        let requirements = try SpecReader.read(podspec, kind: .podspec)
        let byName = Dictionary(uniqueKeysWithValues: requirements.map { ($0.name, $0.context) })
        #expect(byName["Core"] == RequirementContext())
        #expect(byName["Equal"]?.hasConfigurations == true)
        #expect(byName["Mobile"]?.platform == "ios")
        #expect(byName["Core/UI"] == RequirementContext(block: .subspec, specName: "UI"))
        #expect(byName["Views"] == RequirementContext(block: .subspec, specName: "UI/Views", platform: "osx"))
        #expect(byName["Quick"] == RequirementContext(block: .testSpec, specName: "Tests"))
        #expect(byName["Demo"] == RequirementContext(block: .appSpec, specName: "Demo"))
        #expect(byName["After"] == RequirementContext())
    }

    @Test func explainsUnrewritableRequirements() throws {
        let text = """
        v = '1.0'
        Pod::Spec.new do |s|
          s.dependency 'A', v
          s.dependency 'B', "~> #{v}"
          s.dependency 'C', s.version.to_s
          s.dependency 'D', <<~V
            1.0
          V
          s.dependency "#{s.name}/Sub"
          s.dependency 'E', '1.0'
          %w[F G].each { |name| s.dependency name, '~> 1.0' }
        end
        """
        let requirements = try SpecReader.read(text, kind: .podspec)
        #expect(requirements.map(\.name) == ["A", "B", "C", "D", "\"#{s.name}/Sub\"", "E", "name"])
        #expect(requirements.map(\.rewritable) == [false, false, false, false, false, true, false])
        #expect(requirements[6].constraint == .range("~> 1.0"))
        #expect(requirements[6].reason == "the dependency name is not a string literal")
        #expect(requirements[0].reason == "the version comes from the variable `v`")
        #expect(requirements[1].reason?.contains("interpolation") == true)
        #expect(requirements[2].reason?.contains("method call") == true)
        #expect(requirements[3].reason == "the version comes from a heredoc")
        #expect(requirements[4].reason == "the dependency name uses string interpolation")
        #expect(requirements[5].span.line == 10)
    }

    @Test func ignoresLookalikesInStringsCommentsAndHeredocs() throws {
        let text = """
        Pod::Spec.new do |s|
          s.summary = "s.dependency 'InString'"
          s.description = <<-DESC
            s.dependency 'InHeredoc'
          DESC
          # s.dependency 'InComment'
        =begin
          s.dependency 'InBlockComment'
        =end
          s.dependency 'Real' # s.dependency 'Trailing'
        end
        __END__
        s.dependency 'AfterEnd'
        """
        let requirements = try SpecReader.read(text, kind: .podspec)
        #expect(requirements.map(\.name) == ["Real"])
        #expect(requirements[0].span.line == 10)
    }
}
