import AppSide
import CellGrid
import Foundation
import StoreCore
import StoreKitModel
import StorefrontUI
import Synchronization

/// Performs the reducer's effects against the store and the app's ledger, one at a time in the
/// order asked (so a refresh never overtakes the purchase it follows), on a task of its own:
/// the UI loop never waits for the disk or the network.
///
/// It also guarantees the order in which the UI learns things, so the reducer needs no state to
/// reconcile races:
/// - a payment is reported added before any update of its transaction, even when the store
///   publishes the update while the add is still returning;
/// - a snapshot reduced after controls were changed carries those controls, even when it was
///   read from the store before they were written.
public final class EffectRunner: Sendable {
    public let store: any StoreBackend
    public let observer: PurchaseObserver
    /// Where Ctrl+S saves the screen; nil where nothing may be saved.
    public let screens: ScreenFiles?
    /// For presenters: each purchase step (purchasing, purchased, delivered, verified, finished…)
    /// reaches the UI at least this long after the one before, so an audience can follow; nil
    /// passes them on at once. The store and the app are not slowed, only what the screen shows.
    public let slowMotion: Duration?
    /// What slow motion spaces the steps by and what a screenshot is named after.
    public let clock: any StoreClock
    let offersKey: (@Sendable () async throws -> OfferSigningKey)?
    private let queue: AsyncStream<Job>.Continuation
    private let work: AsyncStream<Job>
    /// Taken to report a result and by `turn`, so a turn's reductions and its effects' bookkeeping
    /// happen with no report in between.
    private let order = Mutex(Ordering())

    /// An effect as the worker takes it. A screenshot carries its screen, drawn when the turn
    /// asked for it: by the time the worker gets to it the state has moved on.
    enum Job: Sendable {
        case effect(Effect)
        case saveScreen(Grid)
    }

    struct Ordering: Sendable {
        /// Results reported since the UI loop's last turn, oldest first.
        var reports: [Action] = []
        /// A payment is being added: the store's updates wait here until it is reported added.
        var adding = false
        var held: [TransactionUpdate] = []
        /// Controls the UI asked to set that are not written yet, oldest first.
        var unwrittenControls: [TestControls] = []
        /// Slow motion: when the next purchase step may reach the UI.
        var nextStep: Date?
        /// Who is told of each report as it is made (`reported()`).
        var listeners: [AsyncStream<Action>.Continuation] = []

        /// Queues a result for the UI's next turn and tells the listeners, in the order the UI
        /// will learn them.
        mutating func report(_ action: Action) {
            reports.append(action)
            listeners.removeAll { listener in
                if case .terminated = listener.yield(action) { true } else { false }
            }
        }
    }

    /// `offersKey`: the key the store keeps for a catalog that names none, which promotional
    /// offers are signed with (`SimulatedStore.offersKey`); nil signs with the catalog's.
    public init(
        store: any StoreBackend, observer: PurchaseObserver, screens: ScreenFiles? = nil, slowMotion: Duration? = nil,
        clock: any StoreClock = SystemClock(), offersKey: (@Sendable () async throws -> OfferSigningKey)? = nil
    ) {
        self.offersKey = offersKey
        self.store = store
        self.observer = observer
        self.screens = screens
        self.slowMotion = slowMotion
        self.clock = clock
        (work, queue) = AsyncStream.makeStream(of: Job.self, bufferingPolicy: .unbounded)
    }

    /// Every report from now on, as it is made and in the order the UI's turns will take it: what
    /// a loop or a test awaits instead of polling `turn`. A report is still the next turn's, the
    /// stream only tells of it (in slow motion, before it may be shown).
    public func reported() -> AsyncStream<Action> {
        let (stream, continuation) = AsyncStream.makeStream(of: Action.self, bufferingPolicy: .unbounded)
        order.withLock { order in order.listeners.append(continuation) }
        return stream
    }

    /// Queues effects to run after every effect queued before them.
    public func submit(_ effects: [Effect]) {
        order.withLock { order in enqueue(effects, &order) }
    }

    /// `screen`: what a screenshot among `effects` saves; nil outside a turn, which alone has a
    /// state to draw.
    private func enqueue(_ effects: [Effect], _ order: inout Ordering, screen: Grid? = nil) {
        for effect in effects {
            if case .setControls(let controls) = effect { order.unwrittenControls.append(controls) }
            if effect == .saveScreen, let screen {
                queue.yield(.saveScreen(screen))
            } else {
                queue.yield(.effect(effect))
            }
        }
    }

    /// One turn of the UI loop: the results reported since the last turn, then the loop's own
    /// actions (keys, the clock), each reduced in that order into `state`; the effects they ask
    /// for are queued. A screenshot is of the state the action that asked for it left, drawn here
    /// before the next action changes it. Returns how many actions were reduced.
    public func turn(_ local: [Action], state: inout AppState, reduce: (inout AppState, Action) -> [Effect]) -> Int {
        order.withLock { order in
            let actions = due(&order) + local
            for action in actions {
                let effects = reduce(&state, action)
                enqueue(effects, &order, screen: effects.contains(.saveScreen) ? View.render(state) : nil)
            }
            return actions.count
        }
    }

    /// The reports the UI may learn now, oldest first: all of them, or in slow motion everything
    /// up to the next purchase step that is not due yet (one step of a batch of app steps at a
    /// time), so the order never changes.
    private func due(_ order: inout Ordering) -> [Action] {
        guard let slowMotion else {
            defer { order.reports.removeAll(keepingCapacity: true) }
            return order.reports
        }
        var released: [Action] = []
        let now = clock.now()
        while let first = order.reports.first {
            guard let (step, rest) = Self.purchaseStep(first) else {
                released.append(order.reports.removeFirst())
                continue
            }
            if let next = order.nextStep, next > now { break }
            released.append(step)
            if let rest { order.reports[0] = rest } else { order.reports.removeFirst() }
            let (seconds, attoseconds) = slowMotion.components
            order.nextStep = now.addingTimeInterval(Double(seconds) + Double(attoseconds) / 1e18)
        }
        return released
    }

    /// A report that moves a purchase along, split into its first step and what remains.
    private static func purchaseStep(_ action: Action) -> (Action, Action?)? {
        switch action {
        case .paymentAdded: (action, nil)
        case .transactionUpdate(let update) where update.transaction.state != .purchasing: (action, nil)
        case .appSteps(let steps) where steps.count > 1: (.appSteps([steps[0]]), .appSteps(Array(steps.dropFirst())))
        case .appSteps(let steps) where steps.count == 1: (action, nil)
        default: nil
        }
    }

    /// Runs the effects until the stream ends or the task is cancelled, `first` (completing what an earlier
    /// process left half done) before the first of them: the UI submits them after its first frame, which so
    /// shares the cores with none of this. Then forwards the store's transaction updates to the UI.
    public func start(first: @escaping @Sendable () async throws -> Void) -> Task<Void, Never> {
        Task {
            var ranFirst = false
            for await job in work {
                // Cancelled: the effects still queued are dropped, not run.
                if Task.isCancelled { break }
                if !ranFirst {
                    await run(first)
                    await forwardUpdates()
                    ranFirst = true
                }
                switch job {
                case .effect(let effect): await run { try await self.perform(effect) }
                case .saveScreen(let grid): saveScreen(grid)
                }
            }
        }
    }

    /// Ends the effects: the ones queued are still run, later ones are dropped.
    public func finish() {
        queue.finish()
    }

    /// Subscribes before it returns, so no effect's update is missed; after `first`, whose updates
    /// (orphans completed, renewals) the UI gets from the unfinished transactions it replays, once.
    private func forwardUpdates() async {
        let updates = await store.updates()
        Task {
            for await update in updates {
                order.withLock { order in
                    if order.adding {
                        order.held.append(update)
                    } else {
                        order.report(.transactionUpdate(update))
                    }
                }
            }
        }
    }

    private func report(_ action: Action) {
        order.withLock { order in order.report(action) }
    }

    /// One job; its failure becomes a message for the UI.
    private func run(_ job: () async throws -> Void) async {
        do {
            try await job()
        } catch let crash as AppCrash {
            report(
                .appCrashed(
                    AppCrashReport(
                        transactionId: crash.transactionId, productId: crash.productId, crashes: crash.crashes)))
        } catch let error as StoreFailure {
            report(.effectFailed(error.message))
        } catch {
            report(.effectFailed(String(describing: error)))
        }
    }

    private func perform(_ effect: Effect) async throws {
        switch effect {
        case .loadProducts(let storefront):
            do {
                report(
                    .productsLoaded(
                        try await store.products(ids: observer.catalog.allProductIds, storefront: storefront)))
            } catch let error as StoreError {
                // A simulated load-products error: what StoreKit's request would report.
                report(
                    .productsFailed("\(error.domain) \(error.code) \(error.name): \(error.text(in: .english).message)"))
            } catch {
                report(.productsFailed((error as? StoreFailure)?.message ?? String(describing: error)))
            }
        case .buy(let productId, let quantity, let account, let plan):
            // The order id is chosen here, so a payment whose answer never came can be found later.
            let orderId = UUID().uuidString
            do {
                try await buy(
                    Payment(
                        productId: productId, quantity: quantity, applicationUsername: orderId, account: account,
                        billingPlan: plan))
            } catch let failure as StoreFailure where failure.kind == .unavailable {
                report(
                    .paymentUnconfirmed(
                        productId: productId, quantity: quantity, orderId: orderId, reason: failure.message))
            }
        case .buyWithOffer(let productId, let offerId, let account, let plan):
            let orderId = UUID().uuidString.lowercased()
            // A promotional offer is signed as the app's server signs it, over this order id.
            let promotional =
                observer.catalog.product(id: productId)?.subscription?.offer(id: offerId)?.kind == .promotional
            let key = promotional && observer.catalog.settings.offerSigningKey == nil ? try await offersKey?() : nil
            let offer = try PromotionalOfferSigner.paymentOffer(
                offerId, productId: productId, applicationUsername: orderId, catalog: observer.catalog, key: key)
            try await buy(
                Payment(
                    productId: productId, applicationUsername: orderId, account: account, offer: offer,
                    billingPlan: plan))
        case .redeem(let code, let productId, let account):
            try await buy(
                Payment(
                    productId: productId, applicationUsername: UUID().uuidString, account: account, offer: .code(code)))
        case .handle(let update):
            report(.appSteps(try await observer.handle(update)))
        case .refresh(let account):
            await refresh(account: account)
        case .replayUnfinished(let account):
            // The queue's updates go through the reducer, which hands each to the observer.
            let queue = try await store.unfinished(account: account)
            for update in queue { report(.transactionUpdate(update)) }
            let steps = try await observer.launchBeyond(queue, account: account)
            if !steps.isEmpty {
                // The UI names a step's product from the history, which holds these only after a read.
                await refresh(account: account)
                report(.appSteps(steps))
            }
        case .loadAppTransaction(let account):
            report(.appTransactionLoaded(account: account, try await store.appTransaction(account: account)))
        case .restore(let account):
            do {
                let restored = try await store.restore(account: account)
                report(.restoreFinished(restored.isEmpty ? .nothing : .restored(restored.map(\.transaction.productId))))
            } catch let error as StoreError {
                report(.restoreFinished(.failed(error)))
            }
        case .setControls(let controls):
            defer { order.withLock { order in _ = order.unwrittenControls.removeFirst() } }
            try await store.setControls(controls)
        case .manage(let action):
            // Updates it causes (an approval, a renewal) arrive through the store's update stream.
            _ = try await store.perform(action)
        case .manageAndReport(let action):
            await manageAndReport(action)
        case .loadEveryAccount:
            do {
                let transactions = try await store.transactions(account: nil)
                report(.everyAccountLoaded(transactions, families: try await store.families()))
            } catch {
                report(.refreshFailed((error as? StoreFailure)?.message ?? String(describing: error)))
            }
        case .loadCancellationMessage(let account, let productId, let locale):
            // No message is what the App Store shows when it has none to show: not an error sheet.
            let message = try? await store.cancellationMessage(account: account, productId: productId, locale: locale)
            report(.cancellationMessage(productId: productId, message ?? nil))
        case .retryVerification(let account):
            let steps = try await observer.retryDue(account: account)
            if !steps.isEmpty { report(.appSteps(steps)) }
        case .saveScreen:
            // Submitted outside a turn, which alone has a state to draw (`turn`).
            report(.screenNotSaved("no screen was drawn to save"))
        case .fixApp:
            try observer.ledger.fixCrashes()
            report(.appFixed)
        case .quit:
            break
        }
    }

    private func saveScreen(_ grid: Grid) {
        guard let screens else {
            report(.screenNotSaved("this storefront has no directory for screens"))
            return
        }
        do {
            report(.screenSaved(ScreenFiles.abbreviated(try screens.save(grid, at: clock.now()))))
        } catch {
            report(.screenNotSaved("\(screens.directory.path): \(error.localizedDescription)"))
        }
    }

    /// Adds the payment, holding the store's updates until the payment is reported added.
    private func buy(_ payment: Payment) async throws {
        order.withLock { order in order.adding = true }
        var added: Transaction?
        defer {
            order.withLock { order in
                if let added { order.report(.paymentAdded(added)) }
                for update in order.held { order.report(.transactionUpdate(update)) }
                order.held = []
                order.adding = false
            }
        }
        added = try await observer.buy(payment)
    }

    /// A manager action whose outcome the manager shows: a refusal is the store's reason in the
    /// status line, not an error sheet over the manager.
    private func manageAndReport(_ action: ManageAction) async {
        do {
            let updates = try await store.perform(action)
            report(.managed(action, .done(updates.map(\.transaction))))
        } catch let failure as StoreFailure {
            report(.managed(action, .refused(failure.message)))
        } catch {
            report(.managed(action, .refused(String(describing: error))))
        }
    }

    /// Periodic and quiet: a store that does not answer is a state to show, not a sheet per try.
    private func refresh(account: String) async {
        do {
            var snapshot = StoreSnapshot(
                history: try await store.transactions(account: account),
                pending: try await observer.pending(account: account),
                balances: try observer.ledger.balances(account: account),
                entitlements: try await store.entitlements(account: account),
                controls: try await store.controls(), account: account)
            // The wallet is the app's: a non-renewing subscription runs for the term the app keeps.
            snapshot.entitlements = try observer.ledger.withAppTerms(
                snapshot.entitlements, account: account, catalog: observer.catalog, rate: snapshot.controls.timeRate)
            // Taken last, as StoreKit hands them to the app: each is given once, so nothing that
            // could fail after them may lose them. A take that fails took nothing, and is no
            // reason to call the store down (a server of an earlier version has no such route).
            snapshot.messages = (try? await store.takeMessages(account: account)) ?? []
            snapshot.intents = (try? await store.takePurchaseIntents(account: account)) ?? []
            order.withLock { order in
                if let latest = order.unwrittenControls.last { snapshot.controls = latest }
                order.report(.snapshot(snapshot))
            }
        } catch {
            report(.refreshFailed((error as? StoreFailure)?.message ?? String(describing: error)))
        }
    }
}
