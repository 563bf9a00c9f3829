import Foundation
import StoreCore
@_spi(Storefront) import StoreKit
import StoreKitModel
import Synchronization

/// StoreKitTest's `SKTestSession`: the controls Xcode's StoreKit testing gives a test, over
/// Storefront's store. A session opens the store on its configuration file (a `.storekit` file
/// or a products.json): in a new temporary state directory, or on `STOREFRONT_STATE`, or the
/// served store `STOREFRONT_STORE` names. Every `SKTestSession` controls that one store, as
/// Apple's control the one test environment: run tests that change it one at a time.
public final class SKTestSession: @unchecked Sendable {
    let store: OpenedStore
    /// The configuration file the session read.
    public let configurationURL: URL
    /// Accepted for the API's sake: Storefront's StoreKit never shows a dialog.
    public var disableDialogs = true
    /// The failures `setSimulatedError` set, as given: the store keeps their error codes only.
    let simulatedErrors = Mutex<[String: any SKTestFailure]>([:])

    /// Finds `name` (with or without `.storekit`) among the test target's SwiftPM resources
    /// beside the test binary, then in the working directory.
    public convenience init(configurationFileNamed name: String) throws {
        guard let url = ConfigurationFile.find(named: name) else {
            throw SKTestError(
                .fileNotFound,
                "SKTestSession: no configuration file \(name) (looked for \(ConfigurationFile.candidates(name).joined(separator: ", ")) among the test bundle's resources and in \(FileManager.default.currentDirectoryPath)); add it to the test target's resources"
            )
        }
        try self.init(contentsOf: url)
    }

    public convenience init(contentsOf url: URL) throws {
        try self.init(contentsOf: url, environment: ProcessInfo.processInfo.environment)
    }

    /// A session whose store the given variables choose, not the process's.
    @_spi(Storefront) public init(contentsOf url: URL, environment: [String: String]) throws {
        guard FileManager.default.isReadableFile(atPath: url.path) else {
            throw SKTestError(.fileNotFound, "SKTestSession: cannot read \(url.path)")
        }
        configurationURL = url
        do {
            store = try BlockingCall.run {
                try await StoreConnection.shared.open(catalog: url, environment: environment)
            }
        } catch {
            throw SKTestError(.invalidURL, "SKTestSession: cannot open the store for \(url.path): \(error)")
        }
    }

    // MARK: Settings

    public var askToBuyEnabled: Bool {
        get { controls.askToBuy }
        set { change { $0.askToBuy = newValue } }
    }

    public var interruptedPurchasesEnabled: Bool {
        get { controls.interruptedPurchases }
        set { change { $0.interruptedPurchases = newValue } }
    }

    /// Every purchase fails with `failureError` while on.
    public var failTransactionsEnabled: Bool {
        get { controls.nextOutcome != .success && controls.everyPurchase }
        set { applyFailure(enabled: newValue, error: failureError) }
    }

    public var failureError: SKError.Code = .unknown {
        didSet { if failTransactionsEnabled { applyFailure(enabled: true, error: failureError) } }
    }

    /// The account's storefront, ISO 3166-1 alpha-3 (`USA`).
    public var storefront: String {
        get { controls.storefront ?? store.account.storefront }
        set { change { $0.storefront = newValue } }
    }

    /// The locale prices are shown in: the catalog's, else the storefront's.
    public var locale: Locale {
        let store = store
        let identifier = try? BlockingCall.run { store.locale(in: try await store.storefrontNow()) }
        return Locale(identifier: identifier ?? store.locale(in: store.storefront))
    }

    public var timeRate: TimeRate {
        get { TimeRate(rawValue: controls.timeRate.rawValue) }
        set {
            guard let rate = StoreKitModel.TimeRate(rawValue: newValue.rawValue) else { return }
            change { $0.timeRate = rate }
        }
    }

    public var billingGracePeriodIsEnabled: Bool {
        get { controls.gracePeriod }
        set { change { $0.gracePeriod = newValue } }
    }

    public var shouldEnterBillingRetryOnRenewal: Bool {
        get { controls.billingIssues }
        set { change { $0.billingIssues = newValue } }
    }

    var controls: TestControls {
        let store = store
        return (try? BlockingCall.run { try await store.backend.controls() }) ?? TestControls()
    }

    private func change(_ edit: @escaping @Sendable (inout TestControls) -> Void) {
        _ = try? BlockingCall.run { [self] in try await changeControls(edit) }
    }

    func changeControls(_ edit: (inout TestControls) -> Void) async throws {
        var controls = try await store.backend.controls()
        edit(&controls)
        try await store.backend.setControls(controls)
    }

    private func applyFailure(enabled: Bool, error code: SKError.Code) {
        change { controls in
            controls.nextOutcome = enabled ? (code == .paymentCancelled ? .cancel : .fail(code)) : .success
            controls.everyPurchase = enabled
        }
    }
}
