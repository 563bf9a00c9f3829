import StoreCore
import StoreKitModel

/// A prepared situation the storefront starts from: test controls, what the app build does
/// wrong, and the purchases and store actions that lead there, in order. Read from plain data
/// (`ScenarioDecoder`); the built-in ones are written in the same format.
public struct Scenario: Sendable, Hashable {
    /// Lower-case words joined by `-`, as `--scenario NAME` takes it.
    public var name: String
    /// One line each, in English and (optionally) Simplified Chinese.
    public var descriptions: [Language: String]
    /// `manage set` settings applied first, in the order written (`account` and `storefront`
    /// choose where the storefront opens).
    public var controls: [ControlCommand]
    public var app: AppBuild
    public var steps: [ScenarioStep]

    public init(
        name: String, descriptions: [Language: String], controls: [ControlCommand] = [],
        app: AppBuild = AppBuild(), steps: [ScenarioStep] = []
    ) {
        self.name = name
        self.descriptions = descriptions
        self.controls = controls
        self.app = app
        self.steps = steps
    }

    /// The description in `language`, else the English one.
    public func description(in language: Language) -> String {
        descriptions[language] ?? descriptions[.english] ?? ""
    }

    /// The account the storefront opens on: the scenario's `account` control, if any.
    public var account: String? {
        controls.last { $0.control.name == "account" }?.values.first.flatMap { $0.isEmpty ? nil : $0 }
    }
}

/// What the app build under test does wrong.
public struct AppBuild: Sendable, Hashable {
    /// Products whose delivery crashes the app: the transaction stays unfinished, so the queue
    /// offers it again at every launch, and every launch crashes again.
    public var crashesDelivering: [String]

    public init(crashesDelivering: [String] = []) {
        self.crashesDelivering = crashesDelivering
    }
}

/// One thing that happened before the storefront opens.
public enum ScenarioStep: Sendable, Hashable {
    case buy(ScenarioPurchase)
    /// A transaction-manager action, as `storefront manage` takes it.
    case manage(ManageStep)
    /// A test control changed between steps.
    case set(ControlCommand)
    /// The app is opened on a device, which handles what the queue offers it (delivers, verifies,
    /// finishes), as an app's transaction observer does at launch.
    case launch(Device)
}

/// A purchase made while preparing the scenario.
public struct ScenarioPurchase: Sendable, Hashable {
    public var productId: String
    public var quantity: Int
    /// nil: the scenario's account.
    public var account: String?
    /// This payment's outcome, as `buy --outcome` takes it; nil leaves it to the test controls.
    public var outcome: PaymentOutcome?
    public var app: AppExit
    public var device: Device
    /// How a subscription is paid; nil: up front.
    public var billingPlan: BillingPlanType?

    public init(
        productId: String, quantity: Int = 1, account: String? = nil, outcome: PaymentOutcome? = nil,
        app: AppExit = .completes, device: Device = .this, billingPlan: BillingPlanType? = nil
    ) {
        self.billingPlan = billingPlan
        self.productId = productId
        self.quantity = quantity
        self.account = account
        self.outcome = outcome
        self.app = app
        self.device = device
    }
}

/// How far the app got with a purchase before it stopped.
public enum AppExit: String, Sendable, Hashable, CaseIterable {
    /// Delivered, verified and finished (or whatever the outcome allows).
    case completes
    /// Paid, and killed before it delivered anything: the transaction waits in the queue.
    case killedAfterPayment = "killed-after-payment"
    /// Delivered, and killed before its server verified it and it finished the transaction.
    case killedAfterDelivery = "killed-after-delivery"
}

/// Which of the account's devices acts.
public enum Device: String, Sendable, Hashable, CaseIterable {
    /// The one the storefront opens on.
    case this = "this-device"
    /// Another device of the same account, with an app ledger of its own.
    case other = "other-device"
}
