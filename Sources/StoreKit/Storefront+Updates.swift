import Foundation

extension Storefront {
    /// StoreKit 2's `Storefront.Storefronts`: the account's storefront each time it changes.
    public struct Storefronts: AsyncSequence, Sendable {
        public typealias Element = Storefront
        public typealias AsyncIterator = AsyncStream<Storefront>.Iterator

        public func makeAsyncIterator() -> AsyncIterator {
            AsyncStream { continuation in
                let task = Task {
                    var last = await Storefront.current
                    while !Task.isCancelled {
                        try? await Task.sleep(for: Storefront.lookEvery)
                        let now = await Storefront.current
                        if let now, now != last { continuation.yield(now) }
                        if now != nil { last = now }
                    }
                    continuation.finish()
                }
                continuation.onTermination = { _ in task.cancel() }
            }
            .makeAsyncIterator()
        }
    }

    /// The storefront each time it changes (a session's `storefront`, `storefront manage set
    /// storefront`), seen within `lookEvery`: the store announces no change, so it is looked at.
    public static var updates: Storefronts { Storefronts() }

    static let lookEvery = Duration.milliseconds(250)
}
