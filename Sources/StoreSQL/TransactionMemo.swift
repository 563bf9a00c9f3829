/// What a write has already read and will read again unchanged, kept for the length of its
/// transaction: on PostgreSQL a server's batch of writes is one transaction, and each payment of
/// it would otherwise read the same rows (the test controls) in a round trip of its own. Whoever
/// writes what a value was read from forgets it.
public final class TransactionMemo {
    private var values: [String: Any] = [:]

    public init() {}

    public func value<T>(_ key: String, as type: T.Type = T.self) -> T? {
        values[key] as? T
    }

    public func keep(_ value: some Any, as key: String) {
        values[key] = value
    }

    public func forget(_ key: String) {
        values.removeValue(forKey: key)
    }

    /// Part of the transaction was rolled back: what it read may have been its own writes.
    public func forgetAll() {
        values.removeAll()
    }
}
