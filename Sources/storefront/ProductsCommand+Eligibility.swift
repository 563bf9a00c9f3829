import Foundation
import LocalState
import SQLiteStore
import StoreClient
import StoreCore
import StoreEngine
import StoreKitModel

/// Whether an account may take each offer `products --json` lists, by the rule the store applies
/// (`OfferEligibility`): the account's standing read from the state directory's store, or from
/// the served store with `--store`.
struct OfferStanding {
    let account: String
    let history: OfferHistory
    let rate: TimeRate
    let now: Date

    func verdict(_ offer: SubscriptionOffer, of product: Product) -> OfferEligibility.Verdict {
        OfferEligibility.verdict(for: offer, of: product, history: history, rate: rate, at: now)
    }

    func verdict(_ offer: OneTimeOffer) -> OfferEligibility.Verdict {
        OfferEligibility.verdict(for: offer, history: history, rate: rate, at: now)
    }

    func introductory(_ product: Product) -> OfferEligibility.Verdict {
        OfferEligibility.introductory(product, history: history)
    }

    /// From the simulated store in `state`; an account of a state directory with no store yet has
    /// no history (nothing is created to find that out).
    static func local(catalog: Catalog, state: String?, account: String?) async throws -> OfferStanding {
        let directory = StateDirectory.resolve(flag: state, environment: ProcessInfo.processInfo.environment)
        let file = directory.url.appendingPathComponent("store.sqlite").path
        guard FileManager.default.fileExists(atPath: file) else {
            let name = account ?? catalog.defaultAccount.name
            return OfferStanding(
                account: name, history: OfferHistory(), rate: catalog.settings.timeRate, now: Date())
        }
        let store = try SimulatedStore(
            catalog: catalog, database: StoreDatabase(storage: SQLiteStorage.store(in: directory)))
        let controls = try await store.controls()
        let name = account ?? controls.account ?? catalog.defaultAccount.name
        return OfferStanding(
            account: name, history: try await store.offerHistory(account: name), rate: controls.timeRate,
            now: store.clock.now())
    }

    /// From the store served at `url` (its entitlements and transactions; it reports no code counts).
    static func remote(_ store: RemoteStore, catalog: Catalog, account: String?) async throws -> OfferStanding {
        let controls = try await store.controls()
        let name = account ?? controls.account ?? catalog.defaultAccount.name
        return OfferStanding(
            account: name, history: try await AccountOffers.history(store: store, account: name, catalog: catalog),
            rate: controls.timeRate, now: Date())
    }
}
