/// Where the store's tables live: one SQLite file (the default) or a PostgreSQL database that
/// several servers share. The engine reads and writes only through this, so it runs the same on
/// either; each implementation makes a write durable before `write` returns, and serialises
/// writes across every process of the store.
public protocol StoreStorage: Sendable {
    /// Where the store is, for messages: a file's path, or a database URL without its password.
    var location: String { get }
    /// The SQL dialect its connections speak, for SQL built before a read or write starts.
    var dialect: SQLDialect { get }
    /// The last storage failure of a write, until one succeeds again (`/v1/health`).
    var health: StorageHealth { get }
    /// Runs `body` on a consistent snapshot.
    func read<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) throws -> T) async throws -> T
    /// Runs `body` as one transaction, alone among the store's writers, and commits it durably.
    /// If `body` throws, nothing it did is kept.
    func write<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) throws -> T) async throws -> T
    /// `write` for a caller that cannot wait asynchronously (opening the store).
    func writeNow<T>(_ body: (any SQLDatabase) throws -> T) throws -> T
    /// Commits other processes make, where the storage hears of them; nil where it does not.
    var commitsElsewhere: CommitsElsewhere? { get }
}

extension StoreStorage {
    public var commitsElsewhere: CommitsElsewhere? { nil }
}

/// One step of a schema's history: applied once, in order, inside the write that records it.
public struct SchemaMigration: Sendable {
    public let name: String
    public let apply: @Sendable (any SQLDatabase) throws -> Void

    public init(_ name: String, _ apply: @escaping @Sendable (any SQLDatabase) throws -> Void) {
        self.name = name
        self.apply = apply
    }
}
