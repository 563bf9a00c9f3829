import Foundation
import ServerRecords
import Testing

@testable import StoreServer

/// What the deliverer starts: never more than the per-URL limit to one receiver, so one that
/// hangs holds only its own share and another URL's deliveries start at once.
@Suite struct DeliveryConcurrencyTests {
    static let hanging = "http://127.0.0.1:9/hangs"
    static let working = "http://127.0.0.1:9/works"

    func delivery(_ url: String) -> NotificationDelivery {
        NotificationDelivery(
            notification: StoredNotification(
                sequence: 1, uuid: UUID(), event: NotificationEvent(.oneTimeCharge), transactionId: "2000000000000001",
                createdAt: Date(timeIntervalSince1970: 1_800_000_000), signedPayload: nil),
            url: url, attempts: 0)
    }

    @Test func aURLAtItsLimitWaitsWhileAnotherURLsDeliveriesStart() {
        let inFlight = delivery(Self.hanging)
        let busy: Set<String> = [inFlight.notification.uuid.uuidString + " " + Self.hanging]
        let due = [delivery(Self.hanging), delivery(Self.hanging), delivery(Self.working), delivery(Self.working)]
        let one = NotificationDeliverer.take(due, busy: busy, room: 31, perURL: 1)
        #expect(one.map(\.url) == [Self.working], "the hanging URL holds its one slot; the other gets one")
        let two = NotificationDeliverer.take(due, busy: busy, room: 31, perURL: 2)
        #expect(two.map(\.url) == [Self.hanging, Self.working, Self.working])
        let roomForOne = NotificationDeliverer.take(due, busy: busy, room: 1, perURL: 4)
        #expect(roomForOne.count == 1, "never more than the room overall")
    }
}
