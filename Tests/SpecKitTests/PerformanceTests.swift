import Foundation
import Testing
@testable import SpecKit

/// Reading must stay linear. Absolute speed is measured by scripts/bench.sh, never asserted here: a shared
/// machine under load makes any time limit flaky; the growth ratio below is what a test can check.
@Suite struct PerformanceTests {
    /// A podspec of about 300 lines with many dependencies, comments, strings and subspecs.
    static let largePodspec: String = {
        var text = "Pod::Spec.new do |s|\n  s.name = 'Big' # \"quoted\"\n  s.description = <<-DESC\n    text 'quoted' #{1}\n  DESC\n"
        for index in 0..<60 {
            text += "  s.subspec 'Part\(index)' do |ss|\n"
            text += "    ss.source_files = 'Sources/Part\(index)/**/*.{h,m,swift}' # files\n"
            text += "    ss.dependency 'Core', '~> 1.\(index)', :configurations => ['Debug']\n"
            text += "  end\n"
        }
        return text + "end\n"
    }()

    @Test func readingAThousandFilesFindsEveryRequirement() throws {
        let manifest = (try? String(contentsOf: GoldenCase.root.appendingPathComponent("spm-multiline-comments/input.swift.txt"), encoding: .utf8)) ?? ""
        let clock = ContinuousClock()
        var count = 0
        let elapsed = try clock.measure {
            for _ in 0..<500 { count += try SpecReader.read(Self.largePodspec, kind: .podspec).count }
            for _ in 0..<500 { count += try SpecReader.read(manifest, kind: .packageSwift).count }
        }
        #expect(count == 500 * 60 + 500 * 2)
        print("reading 1,000 spec files took \(elapsed) (debug build)")
    }

    @Test func readingGrowsLinearlyWithFileSize() throws {
        let small = Self.largePodspec
        let large = String(repeating: small, count: 16)
        let clock = ContinuousClock()
        _ = try SpecReader.read(small, kind: .podspec)
        let smallTime = try clock.measure { for _ in 0..<16 { _ = try SpecReader.read(small, kind: .podspec) } }
        let largeTime = try clock.measure { _ = try SpecReader.read(large, kind: .podspec) }
        // Quadratic scanning would make one 16x file about 16x slower than sixteen small ones.
        #expect(largeTime < smallTime * 4 + .milliseconds(50), "16x file: \(largeTime), 16 small files: \(smallTime)")
    }
}
