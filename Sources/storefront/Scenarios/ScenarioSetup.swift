import AppSide
import Foundation
import LocalState
import Scenarios
import StoreCore
import StoreKitModel

/// Plays a scenario's steps against a freshly opened store and the app's ledger, as the app,
/// the transaction manager and the test controls would have, so the storefront opens on the
/// situation the scenario describes.
struct ScenarioSetup {
    let scenario: Scenario
    let session: StoreSession
    /// The last transaction bought so far: what `last` names.
    private var last: String?
    private var otherDevice: PurchaseObserver?

    init(scenario: Scenario, session: StoreSession) {
        self.scenario = scenario
        self.session = session
    }

    var catalog: Catalog { session.context.catalog }

    mutating func run() async throws {
        try await placed("controls") { setup in try await setup.setControls(setup.scenario.controls) }
        for (index, step) in scenario.steps.enumerated() {
            try await placed("steps[\(index)]") { setup in try await setup.perform(step) }
        }
        // Planted last: the steps above play the app before it had this bug.
        try session.ledger.crash(delivering: scenario.app.crashesDelivering)
    }

    /// Runs `work`, naming `place` (a path in the scenario) in what the store or the setup refused.
    private mutating func placed(_ place: String, _ work: (inout ScenarioSetup) async throws -> Void) async throws {
        do {
            try await work(&self)
        } catch let failure as StoreFailure {
            throw ScenarioFailure(place: place, message: failure.message)
        } catch let problem as SetupProblem {
            throw ScenarioFailure(place: place, message: problem.message)
        }
    }

    private mutating func perform(_ step: ScenarioStep) async throws {
        switch step {
        case .buy(let purchase):
            last = try await buy(purchase)
        case .manage(let command):
            let id: String
            switch command.transaction {
            case .id(let named)?: id = named
            case .last?:
                guard let last else {
                    throw SetupProblem(
                        message: "`last` names the last transaction bought in the scenario, and none was")
                }
                id = last
            case nil: id = ""
            }
            let updates = try await session.store.perform(command.action(on: id))
            // What `create` made is bought, as a purchase is: `last` names its newest period.
            if command.creation != nil, let newest = updates.last { last = newest.transaction.id }
        case .set(let command):
            try await setControls([command])
        case .launch(let device):
            try await observer(device).launch(account: try await account(nil))
        }
    }

    /// Adds the payment and plays the app as far as the purchase says it got.
    private mutating func buy(_ purchase: ScenarioPurchase) async throws -> String {
        let observer = try await observer(purchase.device)
        let payment = Payment(
            productId: purchase.productId, quantity: purchase.quantity, applicationUsername: nil,
            account: try await account(purchase.account), billingPlan: purchase.billingPlan)
        let updates = await session.store.updates()
        let started = try await observer.buy(payment, forcing: purchase.outcome)
        waiting: for await update in updates
        where update.transaction.id == started.id && update.transaction.state != .purchasing {
            switch purchase.app {
            case .killedAfterPayment: break
            case .killedAfterDelivery: _ = try await observer.handle(update, stopAfterDelivery: true)
            case .completes: _ = try await observer.handle(update)
            }
            break waiting
        }
        return started.id
    }

    /// The purchase's account, else the scenario's, else the store's default, else the catalog's.
    private func account(_ named: String?) async throws -> String {
        if let named { return named }
        if let account = scenario.account { return account }
        return try await session.store.controls().account ?? catalog.defaultAccount.name
    }

    private mutating func observer(_ device: Device) async throws -> PurchaseObserver {
        switch device {
        case .this:
            return session.observer
        case .other:
            if let otherDevice { return otherDevice }
            // Another device of the account: the same store, an app ledger of its own.
            let directory = session.stateDirectory.appendingPathComponent("other-device")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let ledger = try AppLedger(state: StateDirectory(url: directory)).bound(
                to: try await session.store.storeId()
            ).ledger
            let observer = PurchaseObserver(store: session.store, ledger: ledger, catalog: catalog)
            otherDevice = observer
            return observer
        }
    }

    private func setControls(_ commands: [ControlCommand]) async throws {
        guard !commands.isEmpty else { return }
        var controls = try await session.store.controls()
        for command in commands {
            do {
                try command.apply(to: &controls, catalog: catalog)
            } catch {
                throw SetupProblem(message: error.description)
            }
        }
        try await session.store.setControls(controls)
    }
}

/// What the setup itself refused in a step (not the store).
private struct SetupProblem: Error {
    let message: String
}

/// A step (or the controls) the store refused while the scenario was prepared.
struct ScenarioFailure: Error {
    /// Where in the scenario: `controls` or `steps[2]`.
    let place: String
    let message: String
}
