import StoreCore
import Testing

@testable import StoreServer

/// The server's state directory is its `--db` option: advice about it (a database locked by
/// another process) named the other commands' `--state`. The answer itself names no file: the
/// server's log has the advice.
@Suite struct ServerOptionWordingTests {
    @Test func aLockedDatabaseIsA503NamingNoFileAndItsAdviceNamesTheDbOption() {
        let locked = StoreFailure(
            "/srv/store.sqlite is locked by another process (waited 5 s): close the other storefront or sqlite3 session using this state directory, or pass a different --state",
            kind: .unavailable)
        let error = APIError(locked)
        #expect(error.status == .serviceUnavailable)
        #expect(!error.message.contains("/srv/store.sqlite"), "\(error.message)")
        #expect(error.message.contains("Retry"), "\(error.message)")
        #expect(locked.namingServerOptions.message.hasSuffix("or pass a different --db"))
    }
}
