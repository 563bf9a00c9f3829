import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle
import StoreCore
import StoreEngine
import Synchronization

/// Sends the outbox's notifications: each due delivery is POSTed as `{"signedPayload"}` to its
/// URL, its attempt recorded, and a failure retried on Apple's schedule. It wakes when a commit
/// wrote notifications, when a retry falls due, and every second to sweep for expiries. Many
/// deliveries are in flight at once, so a receiver that hangs delays only its own.
struct NotificationDeliverer: Service {
    let service: StoreService
    let logger: Logger
    /// Deliveries in flight at most.
    static let concurrency = 32
    /// Deliveries read from the outbox at a time.
    static let batch = 64

    private var store: any ServedStore { service.store }

    func run() async throws {
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: Self.clientConfiguration)
        let doorbell = Doorbell()
        let inFlight = InFlight()
        let signals = store.outbox.signals()
        await withDiscardingTaskGroup { group in
            group.addTask {
                for await _ in signals { doorbell.ring() }
            }
            group.addTask {
                await cancelWhenGracefulShutdown {
                    await withTaskCancellationHandler {
                        await deliverLoop(client: client, doorbell: doorbell, inFlight: inFlight)
                    } onCancel: {
                        doorbell.ring()
                    }
                }
                store.outbox.finishSignals()
            }
        }
        try? await client.shutdown()
    }

    private func deliverLoop(client: HTTPClient, doorbell: Doorbell, inFlight: InFlight) async {
        var lastSweep = ContinuousClock.now - .seconds(1)
        await withDiscardingTaskGroup { group in
            while !Task.isCancelled {
                var wait: Duration = .seconds(1)
                do {
                    if ContinuousClock.now - lastSweep >= .seconds(1) {
                        try await store.sweepTimedEvents()
                        lastSweep = ContinuousClock.now
                    }
                    let busy = inFlight.keys
                    let room = Self.concurrency - busy.count
                    let due = room <= 0 ? [] : try await store.dueDeliveries(at: Date(), limit: Self.batch + busy.count)
                        .filter { !busy.contains(Self.key($0)) }.prefix(room)
                    let signed = try await sign(Array(due))
                    for delivery in due {
                        inFlight.insert(Self.key(delivery))
                        group.addTask {
                            await attempt(delivery, payload: signed[delivery.notification.uuid] ?? "", client: client)
                            inFlight.remove(Self.key(delivery))
                            doorbell.ring()
                        }
                    }
                    if due.count == room, room > 0 { continue }
                    if let next = try await store.nextDeliveryDue() {
                        wait = min(wait, .milliseconds(max(0, Int64(next.timeIntervalSinceNow * 1000))))
                    }
                } catch {
                    logger.warning("notifications: \(error)")
                }
                await doorbell.wait(upTo: wait)
            }
        }
    }

    /// Each notification's payload, signed once: the kept one, or signed now and kept in one commit.
    private func sign(_ due: [NotificationDelivery]) async throws -> [UUID: String] {
        var payloads: [UUID: String] = [:]
        var unsigned: [UUID: String] = [:]
        for delivery in due {
            let notification = delivery.notification
            if let kept = notification.signedPayload {
                payloads[notification.uuid] = kept
            } else if unsigned[notification.uuid] == nil {
                unsigned[notification.uuid] = try await service.sign(notification)
            }
        }
        return payloads.merging(try await store.keepSignedPayloads(unsigned)) { kept, _ in kept }
    }

    private func attempt(_ delivery: NotificationDelivery, payload: String, client: HTTPClient) async {
        let outcome = await NotificationPost.send(payload, to: delivery.url, client: client, timeout: service.configuration.notificationTimeout)
        let attempt = SendAttempt(url: delivery.url, date: Date(), result: outcome.result, httpStatus: outcome.status, detail: outcome.detail)
        if outcome.result != .success {
            logger.info("notification \(delivery.notification.uuid.uuidString.lowercased()) to \(delivery.url): \(outcome.detail ?? outcome.result.rawValue)")
        }
        do {
            try await store.recordAttempt(attempt, of: delivery)
        } catch {
            // Not recorded: it stays due and is sent again with the same UUID, which receivers
            // must tolerate anyway (Apple's notifications are at least once).
            logger.warning("notification \(delivery.notification.uuid.uuidString.lowercased()): attempt not recorded: \(error)")
        }
    }

    private static func key(_ delivery: NotificationDelivery) -> String {
        delivery.notification.uuid.uuidString + " " + delivery.url
    }

    /// No redirects followed (Apple reports them rather than following them), no retries inside
    /// the client: the outbox decides.
    static var clientConfiguration: HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout.connect = .seconds(3)
        return configuration
    }
}

/// The deliveries being attempted, so a batch read meanwhile does not take them twice.
final class InFlight: Sendable {
    private let state = Mutex(Set<String>())

    var keys: Set<String> { state.withLock { $0 } }
    func insert(_ key: String) { _ = state.withLock { $0.insert(key) } }
    func remove(_ key: String) { _ = state.withLock { $0.remove(key) } }
}

/// Wakes a waiting loop early: rung by new notifications, finished attempts, and shutdown.
final class Doorbell: Sendable {
    private let state = Mutex<(rung: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

    func ring() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
                state.rung = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Returns when rung (or rung since the last wait), or after `limit`.
    func wait(upTo limit: Duration) async {
        let timer = Task {
            try? await Task.sleep(for: limit)
            if !Task.isCancelled { ring() }
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.rung {
                    state.rung = false
                    return true
                }
                state.waiter = continuation
                return false
            }
            if now { continuation.resume() }
        }
        timer.cancel()
    }
}
