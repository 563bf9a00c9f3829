import StoreCore
import Testing

/// URLs as messages and reports show them: no password, no query value that may be a token.
@Suite struct URLCredentialsTests {
    @Test(arguments: [
        ("postgres://store:Hunter2Secret@db/x", "postgres://store:***@db/x"),
        ("Postgres://store:Hunter2Secret@db/x", "Postgres://store:***@db/x"),
        ("postgres://store:Hunter@2Secret@db/x", "postgres://store:***@db/x"),
        ("postgres://store:Hunter/2Secret@db/x", "postgres://store:***@db/x"),
        ("postgres:/store:Hunter2Secret@db/x", "postgres:/store:***@db/x"),
        (
            "postgres://store@db/x?password=Hunter2Secret&sslmode=require",
            "postgres://store@db/x?password=***&sslmode=require"
        ),
        (
            "https://me:Hunter2Secret@h/catalog.json?token=Hunter2Secret#Hunter2Secret",
            "https://me:***@h/catalog.json?token=***#***"
        ),
        ("https://h/x?email=me@example.com", "https://h/x?email=***"),
        ("/var/lib/Hunter2Secret", "/var/lib/Hunter2Secret"),
    ])
    func credentialsAreRedacted(url: String, shown: String) {
        let redacted = URLCredentials.redacted(url, keepingQuery: url.hasPrefix("postgres") ? ["sslmode"] : [])
        #expect(redacted == shown)
        if !url.hasPrefix("/") { #expect(!redacted.contains("Secret")) }
    }
}
