import XCTest
@testable import {{name_identifier}}

final class {{Name}}Tests: XCTestCase {
    func testVersionIsTheModuleVersion() {
        XCTAssertEqual({{Name}}.version, "{{version}}")
    }
}
