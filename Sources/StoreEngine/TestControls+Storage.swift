import LocalState
import StoreCore
import StoreKitModel
import StoreSQL

/// Test controls live in the `settings` table, one key each, so they survive restarts and a
/// second process sees what the first one set.
extension TestControls {
    static func load(_ db: any SQLDatabase, defaults: TestControls) throws -> TestControls {
        // One query for all of them: this runs in every payment's write.
        let saved = try Dictionary(
            SQLRow.fetchAll(
                db.cachedStatement(
                    sql: "SELECT key, value FROM settings WHERE key >= 'controls.' AND key < 'controls/'")
            )
            .map { (row: SQLRow) -> (String, String) in (try row["key"], try row["value"]) },
            uniquingKeysWith: { first, _ in first })
        guard saved["controls.saved"] != nil else { return defaults }
        var controls = TestControls()
        let value = { (key: String) in saved["controls.\(key)"] }
        controls.nextOutcome = value("next").flatMap(PaymentOutcome.init(token:)) ?? .success
        controls.productOutcomes = Dictionary(
            (value("products") ?? "")
                .split(separator: "\n").compactMap { line -> (String, PaymentOutcome)? in
                    let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
                    guard parts.count == 2, let outcome = PaymentOutcome(token: parts[1]) else { return nil }
                    return (parts[0], outcome)
                }, uniquingKeysWith: { _, last in last })  // a hand-edited database must not trap
        controls.latencyMilliseconds = value("latency").flatMap(Int.init) ?? 0
        controls.askToBuy = value("askToBuy") == "1"
        controls.paymentsAllowed = value("paymentsAllowed") != "0"
        controls.timeRate = value("timeRate").flatMap(Int.init).flatMap(TimeRate.init(storedRawValue:)) ?? .realTime
        controls.storefront = value("storefront")
        controls.account = value("account")
        controls.verificationFailure = value("verification").flatMap(VerificationFailure.init(token:))
        controls.dropOrderIds = value("dropOrderIds") == "1"
        controls.billingIssues = value("billingIssues") == "1"
        controls.gracePeriod = value("gracePeriod") == "1"
        controls.everyPurchase = value("everyPurchase") == "1"
        controls.autoApproveRefunds = value("autoApproveRefunds") == "1"
        for line in (value("apiErrors") ?? "").split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let api = SimulatedAPI(rawValue: parts[0]),
                let error = PaymentOutcome(token: parts[1])?.failure
            else { continue }
            controls.apiErrors[api] = error
        }
        return controls
    }

    func save(_ db: any SQLDatabase) throws {
        let set = { (key: String, value: String?) in try StoreDatabase.setSetting(db, "controls.\(key)", value) }
        try set("saved", "1")
        try set("next", nextOutcome.token)
        try set(
            "products",
            productOutcomes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.token)" }.joined(separator: "\n"))
        try set("latency", String(latencyMilliseconds))
        try set("askToBuy", askToBuy ? "1" : "0")
        try set("paymentsAllowed", paymentsAllowed ? "1" : "0")
        try set("timeRate", String(timeRate.rawValue))
        try set("storefront", storefront)
        try set("account", account)
        try set("verification", verificationFailure?.token)
        try set("dropOrderIds", dropOrderIds ? "1" : "0")
        try set("billingIssues", billingIssues ? "1" : "0")
        try set("gracePeriod", gracePeriod ? "1" : "0")
        try set("everyPurchase", everyPurchase ? "1" : "0")
        try set("autoApproveRefunds", autoApproveRefunds ? "1" : "0")
        try set(
            "apiErrors",
            apiErrors.sorted { $0.key.rawValue < $1.key.rawValue }.map {
                "\($0.key.rawValue)=\(PaymentOutcome(failure: $0.value).token)"
            }.joined(separator: "\n"))
    }
}
