import JSONReading

/// A product's `subscription` read straight from the bytes (see `ProductsDecoder.directProduct`).
/// Most subscriptions are a period, and for an auto-renewable one its group and rank: those are
/// read as they come, and checked as `subscriptionInfo` checks them. One with anything more
/// (offers, a commitment plan) is parsed into a tree and read by `subscriptionInfo` as before.
extension ProductsDecoder {
    /// A `subscription` as written.
    enum WrittenSubscription {
        /// Only `period`, `group` and `rank`, each once: the texts with whether they are plain
        /// (`Cursor.readText`), the rank as written.
        case plain(period: (text: String, plain: Bool), group: (text: String, plain: Bool)?, rank: String?)
        case tree(JSONValue)

        var tree: JSONValue? {
            if case .tree(let value) = self { return value }
            return nil
        }
    }

    /// The subscription at the cursor: plain when it can be, else its tree.
    static func writtenSubscription(_ cursor: inout Cursor) throws(JSONSyntaxError) -> WrittenSubscription {
        let (start, depth) = (cursor.index, cursor.depth)
        var period: (text: String, plain: Bool)?
        var group: (text: String, plain: Bool)?
        var rank: String?
        let complete = try cursor.readObject { (value: inout Cursor, key: WrittenKey) throws(JSONSyntaxError) -> Bool in
            switch key {
            case "period":
                guard period == nil else { return false }
                period = try value.readText()
                return period != nil
            case "group":
                guard group == nil else { return false }
                group = try value.readText()
                return group != nil
            case "rank":
                guard rank == nil else { return false }
                rank = try value.readNumber()
                return rank != nil
            default:
                return false
            }
        }
        if complete, let period { return .plain(period: period, group: group, rank: rank) }
        (cursor.index, cursor.depth) = (start, depth)
        return .tree(try cursor.value())
    }

    /// The product's subscription, `.some(nil)` for none: a plain one as `subscriptionInfo` reads
    /// it, anything else by `subscriptionInfo` itself. Nil when a plain one has any problem: the
    /// product is then read through its tree, which says what.
    func directSubscription(
        _ written: WrittenSubscription?, type: ProductType, unavailable: Set<String>, check: inout Validation
    ) -> SubscriptionInfo?? {
        guard case .plain(let periodText, let group, let rank)? = written else {
            return .some(
                subscriptionInfo(written?.tree, .root, type: type, unavailable: unavailable, check: &check))
        }
        guard check.scannedString(periodText.text, plain: periodText.plain, maxLength: 200) != nil,
            let period = SubscriptionPeriod(iso8601: periodText.text)
        else { return nil }
        switch type {
        case .nonRenewing:
            guard group == nil, rank == nil else { return nil }
            return SubscriptionInfo(group: nil, period: period, rank: nil, introOffer: nil)
        case .autoRenewable:
            guard let group, check.scannedString(group.text, plain: group.plain, maxLength: 100) != nil,
                groups.contains(group.text),
                let rank = rank.flatMap({ Int($0) }), (1...100).contains(rank)
            else { return nil }
            return SubscriptionInfo(group: group.text, period: period, rank: rank, introOffer: nil)
        case .consumable, .nonConsumable:
            return nil
        }
    }
}
