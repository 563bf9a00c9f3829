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

    /// The newest journal cursor ever handed out, rolled back or not (0 before the first).
    public var journalHighWater: String {
        switch self {
        case .sqlite:
            "SELECT MAX(COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'journal'), 0), COALESCE((SELECT MAX(cursor) FROM journal), 0))"
        case .postgres:
            "SELECT GREATEST(COALESCE((SELECT MAX(cursor) FROM journal), 0), (SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM journal_cursor_seq))"
        }
    }
}
