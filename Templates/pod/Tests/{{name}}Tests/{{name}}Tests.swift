import XCTest
@testable import {{name_identifier}}

final class {{Name}}Tests: XCTestCase {
    func testVersionIsThePodVersion() {
        XCTAssertEqual({{Name}}.version, "{{version}}")
    }
}
