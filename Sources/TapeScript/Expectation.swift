import Foundation

extension Tape {
    /// A fact about the store that an `Expect` line asserts. A screen can show what a purchase
    /// should end in while the store holds something else; these read the store itself.
    public enum Expectation: Sendable, Equatable {
        /// `Expect transaction 1 state purchased`, `… product ID`, `… price 0.99`.
        case transaction(TransactionRef, TransactionField, String)
        /// `Expect wallet gems 300`: the app's balance of a consumable's currency.
        case wallet(balance: String, amount: Int)
        /// `Expect owned ID` / `Expect not owned ID`: a non-consumable the account is entitled to.
        case owned(productId: String, owned: Bool)
        /// `Expect subscription ID subscribed`: StoreKit's renewal state of the subscription.
        case subscription(productId: String, state: String)
    }

    /// Which transaction: the Nth bought in this run (from 1), or the last.
    public enum TransactionRef: Sendable, Equatable, CustomStringConvertible {
        case number(Int)
        case last

        public var description: String {
            switch self {
            case .number(let number): "\(number)"
            case .last: "last"
            }
        }
    }

    public enum TransactionField: String, Sendable, Equatable, CaseIterable {
        case state, product, price
    }
}

/// What the store holds when an `Expect` is checked, read by the player.
public struct StoreFacts: Sendable, Equatable {
    public struct Transaction: Sendable, Equatable {
        public let productId: String
        /// `purchasing`, `purchased`, `failed`, `restored`, `deferred`, or `refunded` once revoked.
        public let state: String
        /// What was charged, an exact decimal; nil before it was.
        public let price: String?

        public init(productId: String, state: String, price: String?) {
            self.productId = productId
            self.state = state
            self.price = price
        }
    }

    /// By transaction id.
    public var transactions: [String: Transaction]
    public var balances: [String: Int]
    public var owned: Set<String>
    /// Renewal state by product id.
    public var subscriptions: [String: String]

    public init(
        transactions: [String: Transaction] = [:], balances: [String: Int] = [:], owned: Set<String> = [],
        subscriptions: [String: String] = [:]
    ) {
        self.transactions = transactions
        self.balances = balances
        self.owned = owned
        self.subscriptions = subscriptions
    }
}

extension Tape.Expectation {
    /// The transaction states an `Expect … state` may name.
    public static let states = ["purchasing", "purchased", "failed", "restored", "deferred", "refunded"]
    /// The renewal states an `Expect subscription` may name (`none`: no subscription to it).
    public static let subscriptionStates = [
        "subscribed", "expired", "inGracePeriod", "inBillingRetryPeriod", "none",
    ]

    /// What the store holds in its place when it does not hold the expectation, nil when it does.
    /// `bought`: the ids of the transactions bought in this run, in order.
    public func mismatch(in facts: StoreFacts, bought: [String]) -> String? {
        switch self {
        case .transaction(let ref, let field, let value):
            guard let id = Self.transactionId(ref, bought: bought) else {
                return "the run bought \(bought.count) transaction\(bought.count == 1 ? "" : "s")"
            }
            guard let transaction = facts.transactions[id] else { return "the store has no transaction \(id)" }
            let held = Self.field(field, of: transaction)
            // A price is an amount: 0.99 and 0.990 are the same charge.
            let same = field == .price ? Decimal(string: value) == Decimal(string: held) : value == held
            return same ? nil : "transaction \(id) \(field.rawValue) \(held)"
        case .wallet(let balance, let amount):
            let held = facts.balances[balance] ?? 0
            return held == amount ? nil : "wallet \(balance) \(held)"
        case .owned(let productId, let owned):
            return facts.owned.contains(productId) == owned ? nil : owned ? "not owned" : "owned"
        case .subscription(let productId, let state):
            let held = facts.subscriptions[productId] ?? "none"
            return held == state ? nil : "subscription \(productId) \(held)"
        }
    }

    private static func transactionId(_ ref: Tape.TransactionRef, bought: [String]) -> String? {
        switch ref {
        case .last: bought.last
        case .number(let number): number <= bought.count ? bought[number - 1] : nil
        }
    }

    private static func field(_ field: Tape.TransactionField, of transaction: StoreFacts.Transaction) -> String {
        switch field {
        case .state: transaction.state
        case .product: transaction.productId
        case .price: transaction.price ?? "none"
        }
    }
}
