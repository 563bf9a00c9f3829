import Foundation
import StoreCore
@_spi(Storefront) import StoreKit
@_spi(Storefront) import StoreKitTest
import Testing

/// Every suite of the StoreKit library, one test at a time: a session replaces the store every
/// StoreKit call in the process reaches, as Apple's test sessions share one test environment.
@Suite(.serialized) enum StoreKitLibrary {}

/// A session on the repository's products.json in a store of its own, whatever the process's
/// variables say; `environment` adds to them.
func session(_ environment: [String: String] = [:]) throws -> SKTestSession {
    let catalog = repositoryRoot.appendingPathComponent("products.json")
    return try SKTestSession(contentsOf: catalog, environment: environment)
}

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

enum Products {
    static let gems = "com.example.storefront.gems.100"
    static let removeAds = "com.example.storefront.removeads"
    static let monthly = "com.example.storefront.premium.monthly"
    static let yearly = "com.example.storefront.premium.yearly"
    static let plusMonthly = "com.example.storefront.premiumplus.monthly"
    static let season = "com.example.storefront.pass.season"
}

/// Waits up to `seconds` for `condition`, polling: an update arrives on its own time.
func eventually(seconds: Double = 30, _ condition: () async throws -> Bool) async throws -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try await condition() { return true }
        try await Task.sleep(for: .milliseconds(20))
    }
    return false
}

/// Collects what a sequence yields, in a task of its own, until cancelled.
final class Collected<Element: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Element] = []
    private var task: Task<Void, Never>?

    init<S: AsyncSequence & Sendable>(_ sequence: S) where S.Element == Element {
        task = Task {
            do {
                for try await value in sequence { self.append(value) }
            } catch {}
        }
    }

    private func append(_ value: Element) {
        lock.lock()
        values.append(value)
        lock.unlock()
    }

    var all: [Element] {
        lock.lock()
        defer { lock.unlock() }
        return values
    }

    func stop() { task?.cancel() }
}

/// Every result of a sequence that ends.
func collect(_ transactions: Transaction.Transactions) async -> [StoreKit.VerificationResult<Transaction>] {
    var all: [StoreKit.VerificationResult<Transaction>] = []
    for await result in transactions { all.append(result) }
    return all
}

/// Changes the open store's test controls, as `storefront manage set` does.
func changeControls(_ edit: (inout TestControls) -> Void) async throws {
    let store = try await StoreConnection.shared.store()
    var controls = try await store.backend.controls()
    edit(&controls)
    try await store.backend.setControls(controls)
}
