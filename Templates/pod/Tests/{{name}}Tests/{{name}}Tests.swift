import XCTest
@testable import {{name}}

final class {{Name}}Tests: XCTestCase {
    func testVersionIsThePodVersion() {
        XCTAssertEqual({{Name}}.version, "{{version}}")
    }
}
