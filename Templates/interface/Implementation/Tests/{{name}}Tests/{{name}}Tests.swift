import XCTest
import {{name_identifier}}Interface
@testable import {{name_identifier}}

final class {{Name}}Tests: XCTestCase {
    func testImplementsItsInterface() {
        let service: any {{Name}}Service = {{Name}}()
        XCTAssertEqual(service.version, "{{version}}")
    }
}
