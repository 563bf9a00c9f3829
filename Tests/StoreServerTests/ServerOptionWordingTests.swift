import StoreCore
import Testing

@testable import StoreServer

/// The server's state directory is its `--db` option: advice about it in an answer (a database
/// locked by another process is 503) named the other commands' `--state`.
@Suite struct ServerOptionWordingTests {
    @Test func aLockedDatabaseAnswerNamesTheDbOption() {
        let locked = StoreFailure(
            "/srv/store.sqlite is locked by another process (waited 5 s): close the other storefront or sqlite3 session using this state directory, or pass a different --state",
            kind: .unavailable)
        let error = APIError(locked)
        #expect(error.status == .serviceUnavailable)
        #expect(error.message.hasSuffix("or pass a different --db"), "\(error.message)")
    }
}
