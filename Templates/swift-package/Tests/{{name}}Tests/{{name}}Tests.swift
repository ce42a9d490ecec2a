import XCTest
@testable import {{name}}

final class {{Name}}Tests: XCTestCase {
    func testVersionIsTheModuleVersion() {
        XCTAssertEqual({{Name}}.version, "{{version}}")
    }
}
