import Foundation

/// What the store announces no change of (its storefront setting, the messages its
/// subscriptions call for) is looked at every quarter of a second: `look` is given what it kept
/// from its last call and returns what is new.
enum LookedAt {
    static let interval = Duration.milliseconds(250)

    static func stream<Element: Sendable, Kept: Sendable>(
        keeping initial: Kept, _ look: @escaping @Sendable (inout Kept) async -> [Element]
    ) -> AsyncStream<Element> {
        AsyncStream { continuation in
            let task = Task {
                var kept = initial
                while !Task.isCancelled {
                    for element in await look(&kept) { continuation.yield(element) }
                    try? await Task.sleep(for: interval)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
