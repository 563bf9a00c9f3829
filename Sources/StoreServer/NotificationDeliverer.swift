import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import ServerRecords
import ServiceLifecycle
import StoreCore
import StoreEngine
import Synchronization

/// Sends the outbox's notifications: each due delivery is POSTed as `{"signedPayload"}` to its
/// URL, its attempt recorded, and a failure retried on Apple's schedule. It wakes when a commit
/// wrote notifications, when a retry falls due, and while a URL is set every second; with none it
/// reads nothing until one is. Expiries are found by the store's scheduler (`StoreScheduler`).
/// Many deliveries are in flight at once, so a receiver that hangs delays only its own.
struct NotificationDeliverer: Service {
    let service: StoreService
    let logger: Logger
    /// Deliveries in flight at most (and at most `notificationConcurrencyPerURL` per URL): a
    /// receiver that hangs holds its own share, and under a burst of payments the deliverer takes
    /// a bounded part of the machine, catching up once the burst is over.
    static let concurrency = 32

    private var concurrencyPerURL: Int { service.configuration.notificationConcurrencyPerURL }

    /// How long a claimed delivery stays this server's (`claimDeliveries`): three of its attempt's
    /// timeouts, at least a minute, so only a server that died leaves one to another.
    private var lease: TimeInterval {
        let timeout = service.configuration.notificationTimeout.components
        return max(60, 3 * (Double(timeout.seconds) + Double(timeout.attoseconds) / 1e18))
    }

    private var store: SimulatedStore { service.store }
    private var clock: any StoreClock { service.clock }

    func run() async throws {
        let client = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: Self.clientConfiguration)
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
        var lastURLScan = Date.distantPast
        // URLs removed since their notifications were written, found once a minute.
        var lingering: [String] = []
        await withDiscardingTaskGroup { group in
            while !Task.isCancelled {
                var wake = clock.now().addingTimeInterval(1)
                do {
                    if clock.now().timeIntervalSince(lastURLScan) >= 60 {
                        lingering = try await store.notifications.pendingURLs()
                        lastURLScan = clock.now()
                    }
                    try await recordFinished(inFlight)
                    let busy = inFlight.keys
                    let room = Self.concurrency - busy.count
                    // Per URL, those in flight (at most concurrencyPerURL) and as many more.
                    let urls = store.outbox.urls + lingering.filter { !store.outbox.urls.contains($0) }
                    // With no URL to send to, nothing is read until a notification is written (the
                    // doorbell) or the next look for lingering URLs.
                    if urls.isEmpty, busy.isEmpty {
                        await doorbell.wait(until: lastURLScan.addingTimeInterval(60), on: clock)
                        continue
                    }
                    let now = clock.now()
                    let taken =
                        room <= 0
                        ? []
                        : Self.take(
                            try await store.notifications.dueDeliveries(
                                at: now, urls: urls, limit: 2 * concurrencyPerURL),
                            busy: busy, room: room, perURL: concurrencyPerURL)
                    let due = try await store.notifications.claimDeliveries(
                        taken, at: now, until: now.addingTimeInterval(lease))
                    let signed = try await service.signedPayloads(due.map(\.notification))
                    for delivery in due {
                        inFlight.insert(Self.key(delivery))
                        group.addTask {
                            let attempt = await attempt(
                                delivery, payload: signed[delivery.notification.uuid] ?? "", client: client)
                            inFlight.finish(delivery, attempt)
                            doorbell.ring()
                        }
                    }
                    if taken.count == room, room > 0 { continue }
                    if let next = try await store.notifications.nextDeliveryDue(after: clock.now()) {
                        wake = min(wake, next)
                    }
                } catch is CancellationError {
                    // Stopping: the loop ends at its next look.
                } catch {
                    logger.warning("notifications: \(error)")
                }
                await doorbell.wait(until: wake, on: clock)
            }
        }
        // The attempts that ended while the loop was stopping: recorded, so a success is not sent again.
        do {
            try await recordFinished(inFlight)
        } catch {
            logger.warning("notifications: the last attempts were not recorded and will be sent again: \(error)")
        }
    }

    /// One POST, and how it ended.
    private func attempt(_ delivery: NotificationDelivery, payload: String, client: HTTPClient) async -> SendAttempt {
        let outcome = await NotificationPost.send(
            payload, to: delivery.url, client: client, timeout: service.configuration.notificationTimeout)
        if outcome.result != .success {
            logger.info(
                "notification \(delivery.notification.uuid.uuidString.lowercased()) to \(delivery.url): \(outcome.detail ?? outcome.result.rawValue)"
            )
        }
        return SendAttempt(
            url: delivery.url, date: clock.now(), result: outcome.result, httpStatus: outcome.status,
            detail: outcome.detail)
    }

    /// Records the attempts finished since the last look in one commit; only then may their
    /// deliveries be taken again (a retry). Unrecorded, they stay due and are sent again with the
    /// same UUID, which receivers tolerate anyway: Apple's notifications are at least once.
    private func recordFinished(_ inFlight: InFlight) async throws {
        let finished = inFlight.takeFinished()
        guard !finished.isEmpty else { return }
        defer { inFlight.release(finished.map { Self.key($0.1) }) }
        try await store.notifications.recordAttempts(finished)
    }

    /// The due deliveries to start now: not in flight already, within the limits.
    static func take(_ due: [NotificationDelivery], busy: Set<String>, room: Int, perURL concurrencyPerURL: Int)
        -> [NotificationDelivery]
    {
        var perURL: [String: Int] = [:]
        for key in busy { perURL[String(key.split(separator: " ", maxSplits: 1).last ?? ""), default: 0] += 1 }
        var taken: [NotificationDelivery] = []
        for delivery in due
        where taken.count < room && !busy.contains(key(delivery))
            && perURL[delivery.url, default: 0] < concurrencyPerURL
        {
            perURL[delivery.url, default: 0] += 1
            taken.append(delivery)
        }
        return taken
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

/// The deliveries being attempted or whose attempt waits to be recorded, so a batch read
/// meanwhile does not take them twice.
final class InFlight: Sendable {
    private let state = Mutex((keys: Set<String>(), finished: [(SendAttempt, NotificationDelivery)]()))

    var keys: Set<String> { state.withLock { $0.keys } }
    func insert(_ key: String) { _ = state.withLock { $0.keys.insert(key) } }
    func finish(_ delivery: NotificationDelivery, _ attempt: SendAttempt) {
        state.withLock { $0.finished.append((attempt, delivery)) }
    }

    func takeFinished() -> [(SendAttempt, NotificationDelivery)] {
        state.withLock { state in
            defer { state.finished = [] }
            return state.finished
        }
    }

    func release(_ keys: [String]) { state.withLock { $0.keys.subtract(keys) } }
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

    /// Returns when rung (or rung since the last wait), or when `clock` reaches `deadline`.
    func wait(until deadline: Date, on clock: any StoreClock) async {
        let timer = Task {
            try? await clock.sleep(until: deadline)
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
