import Foundation

extension Storefront {
    /// StoreKit 2's `Storefront.Storefronts`: the account's storefront each time it changes.
    public struct Storefronts: AsyncSequence, Sendable {
        public typealias Element = Storefront
        public typealias AsyncIterator = AsyncStream<Storefront>.Iterator

        public func makeAsyncIterator() -> AsyncIterator {
            // Nil until the first look: the storefront then is the starting point, not a change.
            LookedAt.stream(keeping: Storefront?.none) { last in
                guard let now = await Storefront.current else { return [] }
                defer { last = now }
                return last == nil || last == now ? [] : [now]
            }
            .makeAsyncIterator()
        }
    }

    /// The storefront each time it changes (a session's `storefront`, `storefront manage set
    /// storefront`), seen within a quarter of a second (`LookedAt`).
    public static var updates: Storefronts { Storefronts() }
}
