import Foundation
import ServerRecords
import StoreCore
import StoreSQL

/// The Retention Messaging API's state: uploaded messages and images, the default message of
/// each product and locale, the real-time URL and the performance tests of it. Every change is
/// committed before the route answers, as Apple's are before its API answers.
public struct RetentionMessaging: Sendable {
    /// Apple's limit of images per app; Apple names no number for messages, so the same is used.
    public static let retentionLimit = 2000

    let database: StoreDatabase
    let clock: any StoreClock

    init(_ store: SimulatedStore) {
        database = store.database
        clock = store.clock
    }

    public func uploadImage(_ image: RetentionImage, png: Data, limit: Int = retentionLimit) async throws
        -> Result<Void, RetentionRefusal>
    {
        let now = clock.now()
        return try await database.write { db in
            let id = image.id.uuidString.lowercased()
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM retention_images WHERE id = ?", arguments: [id]) == true {
                return .failure(.alreadyExists)
            }
            guard try Int.fetchOne(db, sql: "SELECT count(*) FROM retention_images") ?? 0 < limit else {
                return .failure(.limitReached)
            }
            try db.execute(
                sql: "INSERT INTO retention_images (id, state, size, png, uploaded_at) VALUES (?, ?, ?, ?, ?)",
                arguments: [id, image.state.rawValue, image.size.rawValue, png, now.timeIntervalSince1970])
            return .success(())
        }
    }

    /// Deletes an image no message shows.
    public func deleteImage(_ id: UUID) async throws -> Result<Void, RetentionRefusal> {
        try await database.write { db in
            let key = id.uuidString.lowercased()
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM retention_message_images WHERE image_id = ?", arguments: [key])
                == true
            {
                return .failure(.imageInUse)
            }
            try db.execute(sql: "DELETE FROM retention_images WHERE id = ?", arguments: [key])
            return try db.changesCount > 0 ? .success(()) : .failure(.notFound)
        }
    }

    /// The images, oldest upload first.
    public func images() async throws -> [RetentionImage] {
        try await database.read { db in
            try SQLRow.fetchAll(db, sql: "SELECT id, state, size FROM retention_images ORDER BY uploaded_at, id")
                .map(Self.image)
        }
    }

    /// Stores a message whose images exist and have the size their place needs.
    public func uploadMessage(_ message: RetentionMessage, limit: Int = retentionLimit) async throws
        -> Result<Void, RetentionRefusal>
    {
        let now = clock.now()
        return try await database.write { db in
            let id = message.id.uuidString.lowercased()
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM retention_messages WHERE id = ?", arguments: [id]) == true {
                return .failure(.alreadyExists)
            }
            guard try Int.fetchOne(db, sql: "SELECT count(*) FROM retention_messages") ?? 0 < limit else {
                return .failure(.limitReached)
            }
            let wanted =
                (message.image.map { [($0.imageIdentifier, RetentionImageSize.fullSize)] } ?? [])
                + message.bulletPoints.map { ($0.imageIdentifier, .bulletPoint) }
            for (imageId, size) in wanted {
                guard let image = try Self.image(db, imageId) else { return .failure(.imageNotFound(imageId)) }
                guard image.size == size else { return .failure(.imageWrongSize(imageId, size)) }
            }
            try db.execute(
                sql: "INSERT INTO retention_messages (id, state, body, uploaded_at) VALUES (?, ?, ?, ?)",
                arguments: [
                    id, message.state.rawValue, String(decoding: try JSONEncoder().encode(message), as: UTF8.self),
                    now.timeIntervalSince1970,
                ])
            for imageId in Set(message.imageIds) {
                try db.execute(
                    sql: "INSERT INTO retention_message_images (message_id, image_id) VALUES (?, ?)",
                    arguments: [id, imageId.uuidString.lowercased()])
            }
            return .success(())
        }
    }

    /// Deletes a message, and any default configuration that named it (Apple has no error for a
    /// message in use, so deleting one leaves those products and locales without a default).
    public func deleteMessage(_ id: UUID) async throws -> Bool {
        try await database.write { db in
            let key = id.uuidString.lowercased()
            try db.execute(sql: "DELETE FROM retention_message_images WHERE message_id = ?", arguments: [key])
            try db.execute(sql: "DELETE FROM retention_defaults WHERE message_id = ?", arguments: [key])
            try db.execute(sql: "DELETE FROM retention_messages WHERE id = ?", arguments: [key])
            return try db.changesCount > 0
        }
    }

    /// The messages, oldest upload first.
    public func messages() async throws -> [RetentionMessage] {
        try await database.read { db in
            try SQLRow.fetchAll(db, sql: "SELECT body FROM retention_messages ORDER BY uploaded_at, id")
                .map(Self.message)
        }
    }

    public func message(_ id: UUID) async throws -> RetentionMessage? {
        try await database.read { db in try Self.message(db, id) }
    }

    /// The images a message shows, for checking their state before it is shown.
    public func images(_ ids: [UUID]) async throws -> [RetentionImage] {
        try await database.read { db in try ids.compactMap { try Self.image(db, $0) } }
    }

    /// Makes an approved message, whose images are approved, the default for a product and locale.
    public func setDefaultMessage(productId: String, locale: String, messageId: UUID) async throws
        -> Result<Void, RetentionRefusal>
    {
        try await database.write { db in
            guard let message = try Self.message(db, messageId) else { return .failure(.notFound) }
            guard message.state == .approved else { return .failure(.messageNotApproved) }
            for imageId in message.imageIds where try Self.image(db, imageId)?.state != .approved {
                return .failure(.imageNotApproved)
            }
            try db.execute(
                sql: """
                    INSERT INTO retention_defaults (product_id, locale, message_id) VALUES (?, ?, ?)
                    ON CONFLICT(product_id, locale) DO UPDATE SET message_id = excluded.message_id
                    """, arguments: [productId, locale, messageId.uuidString.lowercased()])
            return .success(())
        }
    }

    public func defaultMessage(productId: String, locale: String) async throws -> UUID? {
        try await database.read { db in
            try String.fetchOne(
                db, sql: "SELECT message_id FROM retention_defaults WHERE product_id = ? AND locale = ?",
                arguments: [productId, locale]
            ).flatMap(UUID.init(uuidString:))
        }
    }

    public func deleteDefaultMessage(productId: String, locale: String) async throws -> Bool {
        try await database.write { db in
            try db.execute(
                sql: "DELETE FROM retention_defaults WHERE product_id = ? AND locale = ?",
                arguments: [productId, locale])
            return try db.changesCount > 0
        }
    }

    /// App Review's decision on a message, which the simulated store takes from `/admin`; false
    /// when there is no such message.
    public func reviewMessage(_ id: UUID, _ state: ReviewState) async throws -> Bool {
        try await database.write { db in
            guard let message = try Self.message(db, id) else { return false }
            let reviewed = message.reviewed(state)
            try db.execute(
                sql: "UPDATE retention_messages SET state = ?, body = ? WHERE id = ?",
                arguments: [
                    state.rawValue, String(decoding: try JSONEncoder().encode(reviewed), as: UTF8.self),
                    id.uuidString.lowercased(),
                ])
            return true
        }
    }

    /// App Review's decision on an image; false when there is no such image.
    public func reviewImage(_ id: UUID, _ state: ReviewState) async throws -> Bool {
        try await database.write { db in
            try db.execute(
                sql: "UPDATE retention_images SET state = ? WHERE id = ?",
                arguments: [state.rawValue, id.uuidString.lowercased()])
            return try db.changesCount > 0
        }
    }

    /// The Get Retention Message endpoint's URL; nil: none configured.
    public func realtimeURL() async throws -> String? {
        try await database.read { db in try StoreDatabase.setting(db, Self.realtimeURLSetting) }
    }

    public func setRealtimeURL(_ url: String?) async throws {
        try await database.write { db in try StoreDatabase.setSetting(db, Self.realtimeURLSetting, url) }
    }

    static let realtimeURLSetting = "retention.realtime_url"

    /// Records a performance test as it starts (no result) and again when it finishes.
    public func savePerformanceTest(_ test: RetentionPerformanceTest) async throws {
        try await database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO retention_performance_tests (id, target, started_at, result) VALUES (?, ?, ?, ?)
                    ON CONFLICT(id) DO UPDATE SET result = excluded.result
                    """,
                arguments: [test.id, test.target, test.startedAt.timeIntervalSince1970, test.result])
        }
    }

    public func performanceTests() async throws -> [RetentionPerformanceTest] {
        try await database.read { db in
            try SQLRow.fetchAll(
                db, sql: "SELECT id, target, started_at, result FROM retention_performance_tests ORDER BY started_at"
            ).map { row in
                RetentionPerformanceTest(
                    id: try row[0], target: try row[1], startedAt: Date(timeIntervalSince1970: try row[2]),
                    result: try row[3])
            }
        }
    }

    private static func image(_ row: SQLRow) throws -> RetentionImage {
        RetentionImage(
            id: try row.parsed(0, as: "a UUID", UUID.init(uuidString:)),
            state: try row.parsed(1, as: "a review state", ReviewState.init(rawValue:)),
            size: try row.parsed(2, as: "an image size", RetentionImageSize.init(rawValue:)))
    }

    private static func image(_ db: any SQLDatabase, _ id: UUID) throws -> RetentionImage? {
        try SQLRow.fetchOne(
            db, sql: "SELECT id, state, size FROM retention_images WHERE id = ?",
            arguments: [id.uuidString.lowercased()]
        ).map(image)
    }

    private static func message(_ db: any SQLDatabase, _ id: UUID) throws -> RetentionMessage? {
        try SQLRow.fetchOne(
            db, sql: "SELECT body FROM retention_messages WHERE id = ?", arguments: [id.uuidString.lowercased()]
        ).map(message)
    }

    /// A message as kept: JSON that is not one is a damaged row, refused by name.
    private static func message(_ row: SQLRow) throws -> RetentionMessage {
        try row.json("body", as: "JSON of a retention message") { text in
            try JSONDecoder().decode(RetentionMessage.self, from: Data(text.utf8))
        }
    }
}
