import Foundation
import TestSupport
import Testing

@Test func helpDescribesEverySubcommand() throws {
    let result = try Executable.run(["--help"])
    #expect(result.status == 0)
    for name in ["products", "errors", "open"] {
        #expect(result.stdout.contains(name))
    }
}
