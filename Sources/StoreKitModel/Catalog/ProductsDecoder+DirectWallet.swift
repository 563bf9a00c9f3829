import JSONReading

/// A consumable's `wallet` read straight from the bytes (see `ProductsDecoder.directProduct`):
/// `{"balance": "gems", "amount": 100}` is read as it comes and checked as `walletGrant` checks
/// it. Anything else is parsed into a tree and read by `walletGrant` as before.
extension ProductsDecoder {
    /// A `wallet` as written.
    enum WrittenWallet {
        /// Exactly `balance` (its text, and whether it is plain) and `amount` (as written).
        case plain(balance: (text: String, plain: Bool), amount: String)
        case tree(JSONValue)

        var tree: JSONValue? {
            if case .tree(let value) = self { return value }
            return nil
        }
    }

    /// The wallet at the cursor: plain when it can be, else its tree.
    static func writtenWallet(_ cursor: inout Cursor) throws(JSONSyntaxError) -> WrittenWallet {
        let (start, depth) = (cursor.index, cursor.depth)
        var balance: (text: String, plain: Bool)?
        var amount: String?
        let complete = try cursor.readObject { (value: inout Cursor, key: WrittenKey) throws(JSONSyntaxError) -> Bool in
            switch key {
            case "balance":
                guard balance == nil else { return false }
                balance = try value.readText()
                return balance != nil
            case "amount":
                guard amount == nil else { return false }
                amount = try value.readNumber()
                return amount != nil
            default:
                return false
            }
        }
        if complete, let balance, let amount { return .plain(balance: balance, amount: amount) }
        (cursor.index, cursor.depth) = (start, depth)
        return .tree(try cursor.value())
    }

    /// The product's wallet grant, `.some(nil)` for none: a plain wallet as `walletGrant` reads
    /// it, anything else by `walletGrant` itself. Nil when a plain wallet has any problem: the
    /// product is then read through its tree, which says what.
    func directWallet(_ written: WrittenWallet?, type: ProductType, check: inout Validation) -> WalletGrant?? {
        guard case .plain(let balance, let amountText)? = written else {
            return .some(walletGrant(written?.tree, .root, type: type, check: &check))
        }
        guard type == .consumable, check.scannedString(balance.text, plain: balance.plain, maxLength: 40) != nil,
            let amount = Int(amountText), (1...1_000_000).contains(amount)
        else { return nil }
        return WalletGrant(balance: balance.text, amount: amount)
    }
}
