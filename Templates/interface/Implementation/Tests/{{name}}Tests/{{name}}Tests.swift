import XCTest
import {{name}}Interface
@testable import {{name}}

final class {{Name}}Tests: XCTestCase {
    func testImplementsItsInterface() {
        let service: any {{Name}}Service = {{Name}}()
        XCTAssertEqual(service.version, "{{version}}")
    }
}
