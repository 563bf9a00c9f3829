import Foundation
import StoreCore
import StoreKitModel
import StoreSQL

/// What the App Store tells an app of an account outside its transactions: StoreKit's messages
/// (`Message.messages`) and the purchases the customer started on the App Store
/// (`PurchaseIntent.intents`). Each is kept in the store until an app of the account takes it,
/// then never given again, so a served store delivers it to whichever app of the account looks
/// first, and a restart loses none.
///
/// A win-back offer's message is sent as Apple sends it, when the customer is eligible for the
/// offer: at the first look after the account's subscription ended within the offer's
/// conditions, once for that lapse, and only while the `win-back-messages` control (the
/// sandbox's Display Win-back Offer Sheet) is on.
extension SimulatedStore {
    public func takeMessages(account: String) async throws -> [AppStoreMessage] {
        guard catalog.account(named: account) != nil else { return [] }
        // An ended subscription that is due to renew is not lapsed: renewals first.
        try await renewDue()
        let now = clock.now()
        // An app looks several times a second: a read says whether anything is due, and only
        // then is the store's writer taken.
        let due = try await database.read { db in
            try self.hasWaiting("store_messages", account: account, db)
                || !(try self.winBackMessagesDue(account: account, at: now, db).isEmpty)
        }
        guard due else { return [] }
        return try await database.write { db in
            for due in try self.winBackMessagesDue(account: account, at: now, db) {
                try db.execute(
                    sql:
                        "INSERT INTO store_messages (account, reason, product_id, offer_id, episode, sent_at) VALUES (?, ?, ?, ?, ?, ?)",
                    arguments: [
                        account, StoreMessageReason.winBackOffer.rawValue, due.productId, due.offerId, due.episode,
                        now.timeIntervalSince1970,
                    ])
            }
            let rows = try SQLRow.fetchAll(
                db,
                sql:
                    "SELECT seq, reason, product_id, offer_id, sent_at FROM store_messages WHERE account = ? AND delivered_at IS NULL ORDER BY seq",
                arguments: [account])
            let messages = try rows.map { row in
                AppStoreMessage(
                    id: try row[0], reason: try row.parsed(1, as: "a StoreKit message reason", StoreMessageReason.init),
                    productId: try row[2], offerId: try row[3], sentDate: Date(timeIntervalSince1970: try row[4]))
            }
            try self.markDelivered("store_messages", messages.map(\.id), at: now, db)
            return messages
        }
    }

    public func takePurchaseIntents(account: String) async throws -> [PurchaseIntentInfo] {
        guard catalog.account(named: account) != nil else { return [] }
        guard try await database.read({ db in try self.hasWaiting("purchase_intents", account: account, db) }) else {
            return []
        }
        let now = clock.now()
        return try await database.write { db in
            let rows = try SQLRow.fetchAll(
                db,
                sql:
                    "SELECT seq, product_id, offer_id, created_at FROM purchase_intents WHERE account = ? AND delivered_at IS NULL ORDER BY seq",
                arguments: [account])
            let intents = try rows.map { row in
                PurchaseIntentInfo(
                    id: try row[0], productId: try row[1], offerId: try row[2],
                    createdDate: Date(timeIntervalSince1970: try row[3]))
            }
            try self.markDelivered("purchase_intents", intents.map(\.id), at: now, db)
            return intents
        }
    }

    /// `manage message REASON --account A`: the App Store sends the account a message, in the
    /// caller's write.
    nonisolated func sendMessage(_ reason: StoreMessageReason, to account: String, at now: Date, _ db: any SQLDatabase)
        throws
    {
        try requireAccount(account)
        guard StoreMessageReason.sendable.contains(reason) else {
            throw StoreFailure(
                "a \(reason.rawValue) message cannot be sent; it comes when the subscription calls for it (the message a tester sends is \(StoreMessageReason.sendableInWords))",
                kind: .invalid)
        }
        try db.execute(
            sql: "INSERT INTO store_messages (account, reason, sent_at) VALUES (?, ?, ?)",
            arguments: [account, reason.rawValue, now.timeIntervalSince1970])
    }

    /// `manage purchase-intent PRODUCT [--offer ID] --account A`: the customer taps the promoted
    /// product on the App Store, or redeems its win-back offer there, in the caller's write. The
    /// App Store offers a win-back offer only to a customer eligible for it, so an offer the
    /// account may not take now is refused, as the product page would not have shown it.
    nonisolated func recordPurchaseIntent(
        account: String, productId: String, offerId: String?, at now: Date, _ db: any SQLDatabase
    ) throws {
        try requireAccount(account)
        guard let product = catalog.product(id: productId) else {
            throw StoreFailure(
                "no product \(productId) in the catalog; see `storefront products`", kind: .notFound)
        }
        // The App Store promotes a product only where it sells it.
        let storefront =
            try storefrontOverride ?? TestControls.load(db, defaults: defaults).storefront
            ?? catalog.account(named: account)?.storefront ?? catalog.defaultStorefront
        guard product.prices[storefront] != nil else {
            throw StoreFailure(
                "\(productId) is not sold in \(storefront), where \(account) buys; the App Store shows a product only where it sells it",
                kind: .conflict)
        }
        if let offerId {
            let winBack = (product.subscription?.offers ?? []).filter { $0.kind == .winBack }
            guard let offer = winBack.first(where: { $0.id == offerId }) else {
                let known = winBack.map(\.id)
                throw StoreFailure(
                    "\(offerId) is not a win-back offer of \(productId) (\(known.isEmpty ? "it has none" : "it has \(known.joined(separator: ", "))")); a purchase intent carries the win-back offer redeemed on the App Store",
                    kind: .invalid)
            }
            let history = try offerHistory(account: account, at: now, db)
            let verdict = OfferEligibility.verdict(
                for: offer, of: product, history: history, rate: try timeRate(db), at: now)
            if let reason = verdict.reason {
                throw StoreFailure(
                    "\(account) is not eligible for win-back offer \(offerId): \(reason.message); the App Store shows a win-back offer only to an account that may take it",
                    kind: .conflict)
            }
        }
        try db.execute(
            sql: "INSERT INTO purchase_intents (account, product_id, offer_id, created_at) VALUES (?, ?, ?, ?)",
            arguments: [account, productId, offerId, now.timeIntervalSince1970])
    }

    /// Forgets the messages and purchase intents of `account` (nil: of every account), in the
    /// caller's write: a win-back message's lapse names a transaction that is gone.
    nonisolated func clearMessagesAndIntents(of account: String?, _ db: any SQLDatabase) throws {
        for table in ["store_messages", "purchase_intents"] {
            if let account {
                try db.execute(sql: "DELETE FROM \(table) WHERE account = ?", arguments: [account])
            } else {
                try db.execute(sql: "DELETE FROM \(table)")
            }
        }
    }

    /// A win-back message the account is due: its group's best offer it may take now, for a
    /// lapse no message was sent for.
    struct WinBackMessage: Sendable, Hashable {
        let productId: String
        let offerId: String
        /// The lapse: the account's latest transaction in the group.
        let episode: String
    }

    /// The win-back messages `account` is due now, one per group it lapsed from and may win back
    /// (the first eligible offer of the group's products, in the catalog's order); none while the
    /// control is off.
    nonisolated func winBackMessagesDue(account: String, at now: Date, _ db: any SQLDatabase) throws
        -> [WinBackMessage]
    {
        let controls = try TestControls.load(db, defaults: defaults)
        guard controls.winBackMessages else { return [] }
        let paid = try StoredTransaction.fetchAll(db, where: "account = ? AND state IN \(StateSQL.paid)", [account])
        guard !paid.isEmpty else { return [] }
        let history = OfferHistory(
            entitlements: entitlements(of: paid, at: now), history: paid.map(\.published), catalog: catalog, at: now)
        var due: [WinBackMessage] = []
        for (group, standing) in history.groups.sorted(by: { $0.key < $1.key }) {
            guard case .lapsed = standing.status else { continue }
            let members = groupMembers[group]?.products ?? []
            let offers = members.flatMap { product in
                (product.subscription?.offers ?? []).filter { $0.kind == .winBack }.map { (product, $0) }
            }
            guard
                let (product, offer) = offers.first(where: { product, offer in
                    OfferEligibility.verdict(
                        for: offer, of: product, history: history, rate: controls.timeRate, at: now
                    ).isEligible
                }),
                let latest = paid.last(where: { row in members.contains { $0.id == row.transaction.productId } })
            else { continue }
            let sent = try SQLRow.fetchOne(
                db, sql: "SELECT 1 FROM store_messages WHERE account = ? AND reason = ? AND episode = ?",
                arguments: [account, StoreMessageReason.winBackOffer.rawValue, latest.id])
            guard sent == nil else { continue }
            due.append(WinBackMessage(productId: product.id, offerId: offer.id, episode: latest.id))
        }
        return due
    }

    private nonisolated func hasWaiting(_ table: String, account: String, _ db: any SQLDatabase) throws -> Bool {
        try SQLRow.fetchOne(
            db, sql: "SELECT 1 FROM \(table) WHERE account = ? AND delivered_at IS NULL LIMIT 1", arguments: [account])
            != nil
    }

    private nonisolated func markDelivered(_ table: String, _ ids: [Int64], at now: Date, _ db: any SQLDatabase) throws
    {
        for id in ids {
            try db.execute(
                sql: "UPDATE \(table) SET delivered_at = ? WHERE seq = ?", arguments: [now.timeIntervalSince1970, id])
        }
    }

    private nonisolated func requireAccount(_ account: String) throws {
        guard catalog.account(named: account) != nil else {
            let known = catalog.accounts.map(\.name).joined(separator: ", ")
            throw StoreFailure(
                "no account \(account) in the catalog (it has \(known)); name one of them with --account",
                kind: .notFound)
        }
    }
}
