import Foundation
import TestSupport

/// A store that writes App Store Server Notifications to its outbox, and what it wrote.
extension StoreFixture {
    /// Where the notifying store's outbox sends: nothing listens there, so deliveries wait.
    static let notificationURL = "http://127.0.0.1:9/notifications"

    static func notifying() throws -> StoreFixture {
        let fixture = try StoreFixture()
        fixture.store.outbox.setURLs([notificationURL])
        return fixture
    }

    /// Every notification written so far, oldest first, as "TYPE/SUBTYPE".
    func told() async throws -> [String] {
        try await store.notifications.recent(limit: 1000).reversed().map { record in
            [record.notification.event.type.rawValue, record.notification.event.subtype?.rawValue].compactMap { $0 }
                .joined(separator: "/")
        }
    }
}
