/// The fragments of SQL in which SQLite and PostgreSQL differ, for the store's queries.
public enum SQLDialect: Sendable, Hashable {
    case sqlite
    case postgres

    /// A subquery of the texts in a JSON array bound at `placeholder` (`?` or `?N`):
    /// `x IN (\(dialect.textsOfJSONArray("?")))`.
    public func textsOfJSONArray(_ placeholder: String) -> String {
        switch self {
        case .sqlite: "SELECT value FROM json_each(\(placeholder))"
        case .postgres: "SELECT jsonb_array_elements_text(CAST(\(placeholder) AS jsonb))"
        }
    }

    /// The largest of several values (`MAX(a, b)` in SQLite, `GREATEST(a, b)` in PostgreSQL).
    public var greatest: String {
        switch self {
        case .sqlite: "MAX"
        case .postgres: "GREATEST"
        }
    }

    /// Where "from now on" starts (0 before the first update): on SQLite the newest journal
    /// cursor ever handed out, rolled back or not; on PostgreSQL the newest committed.
    public var journalHighWater: String {
        switch self {
        case .sqlite:
            "SELECT MAX(COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'journal'), 0), COALESCE((SELECT MAX(cursor) FROM journal), 0))"
        // Not the identity's sequence: it moves outside transactions, so a writer's uncommitted
        // entries would count, and a client starting after them would never see them.
        case .postgres:
            "SELECT COALESCE(MAX(cursor), 0) FROM journal"
        }
    }
}
