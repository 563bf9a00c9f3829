import PostgresStore
import StoreCore
import StoreSQL
import Testing

/// The pieces of the storage seam that need no database: placeholders, scripts, URLs.
@Suite struct StorageSeamTests {
    @Test(arguments: [
        ("SELECT 1", "SELECT 1"),
        ("a = ? AND b = ?", "a = $1 AND b = $2"),
        ("a = ?2 AND b = ?1 AND c = ?", "a = $2 AND b = $1 AND c = $3"),
        ("x = '?' AND y = ?", "x = '?' AND y = $1"),
        ("x = 'it''s ?' AND \"odd?\" = ?", "x = 'it''s ?' AND \"odd?\" = $1"),
        ("(?3 IS NULL OR s IN (?3)) AND t = ?1", "($3 IS NULL OR s IN ($3)) AND t = $1"),
    ])
    func placeholdersAreNumberedAsSQLiteNumbersThem(sql: String, numbered: String) {
        #expect(Placeholders.numbered(sql) == numbered)
    }

    @Test func aScriptSplitsAtSemicolonsOutsideQuotes() {
        let script = "CREATE TABLE a (x TEXT DEFAULT ';');\n\nINSERT INTO a VALUES ('b;c'); ;\n"
        #expect(
            Placeholders.statements(of: script) == [
                "CREATE TABLE a (x TEXT DEFAULT ';')", "INSERT INTO a VALUES ('b;c')",
            ])
    }

    @Test func aRowReadsItsColumnsByPositionAndByName() throws {
        let row = SQLRow(
            columns: SQLColumns(["id", "Price", "expires"]), values: [.text("7"), .real(1.5), .null])
        #expect(try row[0] as String == "7")
        #expect(try row["price"] as Double == 1.5)
        #expect((try row["expires"] as Double?) == nil)
        #expect((try row["missing"] as String?) == nil)
        #expect(Bool(sqlValue: .integer(1)) == true)
        #expect(Int(sqlValue: .real(3)) == 3)
        #expect(Int(sqlValue: .real(3.5)) == nil)
    }

    @Test func aPostgresURLIsReadAndShownWithoutItsPassword() throws {
        let place = try PostgresLocation("postgres://store:s%40cret@db.internal:6543/storefront")
        #expect(place.username == "store")
        #expect(place.password == "s@cret")
        #expect(place.host == "db.internal")
        #expect(place.port == 6543)
        #expect(place.database == "storefront")
        #expect(place.description == "postgres://store@db.internal:6543/storefront")
        let socket = try PostgresLocation("postgresql://store@/storefront?host=/var/run/postgresql")
        #expect(socket.socketDirectory == "/var/run/postgresql")
        #expect(socket.port == 5432)
        #expect(socket.description == "postgres://store@/storefront?host=/var/run/postgresql")
    }

    @Test(arguments: [
        ("postgres://db.internal/storefront", "names no user"),
        ("postgres://store@db.internal/", "names no database"),
        ("postgres://store:pw@db.internal:99999/x", "port 99999 is out of range"),
        ("mysql://store@db/x", "is not a PostgreSQL URL"),
    ])
    func aWrongURLSaysWhatIsMissing(url: String, problem: String) {
        #expect {
            _ = try PostgresLocation(url)
        } throws: { error in
            let message = "\(error)"
            return message.contains(problem) && !message.contains(":pw")
        }
    }
}
