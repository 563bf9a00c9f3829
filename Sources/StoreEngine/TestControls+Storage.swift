import GRDB
import StoreKitModel

/// Test controls live in the `settings` table, one key each, so they survive restarts and a
/// second process sees what the first one set.
extension TestControls {
    static func load(_ db: Database, defaults: TestControls) throws -> TestControls {
        guard try StoreDatabase.setting(db, "controls.saved") != nil else { return defaults }
        var controls = TestControls()
        let value = { (key: String) in try StoreDatabase.setting(db, "controls.\(key)") }
        controls.nextOutcome = try value("next").flatMap(PaymentOutcome.init(token:)) ?? .success
        controls.productOutcomes = Dictionary(uniqueKeysWithValues: try (value("products") ?? "")
            .split(separator: "\n").compactMap { line -> (String, PaymentOutcome)? in
                let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2, let outcome = PaymentOutcome(token: parts[1]) else { return nil }
                return (parts[0], outcome)
            })
        controls.latencyMilliseconds = try value("latency").flatMap(Int.init) ?? 0
        controls.askToBuy = try value("askToBuy") == "1"
        controls.paymentsAllowed = try value("paymentsAllowed") != "0"
        controls.timeRate = try value("timeRate").flatMap(Int.init).flatMap(TimeRate.init(rawValue:)) ?? .realTime
        controls.storefront = try value("storefront")
        controls.account = try value("account")
        controls.verificationFailure = try value("verification").flatMap(VerificationFailure.init(token:))
        controls.dropOrderIds = try value("dropOrderIds") == "1"
        return controls
    }

    func save(_ db: Database) throws {
        let set = { (key: String, value: String?) in try StoreDatabase.setSetting(db, "controls.\(key)", value) }
        try set("saved", "1")
        try set("next", nextOutcome.token)
        try set("products", productOutcomes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.token)" }.joined(separator: "\n"))
        try set("latency", String(latencyMilliseconds))
        try set("askToBuy", askToBuy ? "1" : "0")
        try set("paymentsAllowed", paymentsAllowed ? "1" : "0")
        try set("timeRate", String(timeRate.rawValue))
        try set("storefront", storefront)
        try set("account", account)
        try set("verification", verificationFailure?.token)
        try set("dropOrderIds", dropOrderIds ? "1" : "0")
    }
}
