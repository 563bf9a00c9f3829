import Foundation
import Synchronization

/// Where server notifications go and who is told that new ones wait. The URLs are read by every
/// write that records an event, so they live in memory; the server sets them at start and when
/// `/admin` changes them. With none, no event is written to the outbox, as the App Store sends
/// nothing to an app without a notification URL.
public final class NotificationOutbox: Sendable {
    private let state = Mutex(State())

    private struct State {
        var urls: [String] = []
        var waiting: AsyncStream<Void>.Continuation?
    }

    public init() {}

    public var urls: [String] { state.withLock { $0.urls } }

    public func setURLs(_ urls: [String]) {
        var unique: [String] = []
        for url in urls where !unique.contains(url) { unique.append(url) }
        state.withLock { $0.urls = unique }
    }

    /// A signal each time a commit wrote notifications (or made retries due now). One listener:
    /// a second call ends the first one's stream.
    public func signals() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let previous = state.withLock { state in
            defer { state.waiting = continuation }
            return state.waiting
        }
        previous?.finish()
        return stream
    }

    /// Ends the listener's stream (the deliverer stops).
    public func finishSignals() {
        state.withLock { state in
            defer { state.waiting = nil }
            return state.waiting
        }?.finish()
    }

    /// Wakes the deliverer.
    func signal() {
        _ = state.withLock { $0.waiting }?.yield()
    }
}
