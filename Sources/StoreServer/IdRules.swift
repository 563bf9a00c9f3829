import StoreKitModel

/// What an id from the network must look like before the store looks it up: the same rules the
/// catalog reads its own ids with, so an id no catalog could hold is refused with a reason instead
/// of travelling on to SQLite.
enum IdRules {
    /// In a path, as docs/openapi.json's `transactionId` parameter says.
    static let maxTransactionIdLength = 64

    /// Nil when `id` looks like this store's transaction ids (digits, 2000000000000001 and up).
    static func transactionIdProblem(_ id: String) -> String? {
        let digits = id.utf8.allSatisfy { (0x30...0x39).contains($0) }
        guard id.isEmpty || !digits || id.utf8.count > maxTransactionIdLength else { return nil }
        return
            "\(shown(id)) is not a transaction id of this store; expected 1 to \(maxTransactionIdLength) digits, e.g. 2000000000000001"
    }

    /// Nil when `id` could be a product identifier of a catalog (whether this one has it is StoreKit's business).
    static func productIdProblem(_ id: String) -> String? {
        // Code points first, as JSON Schema's maxLength counts them (docs/openapi.json); the
        // catalog's rule counts characters, which are never more.
        guard !id.isEmpty, id.unicodeScalars.count <= Product.maxIdLength else {
            return "\(shown(id)) must be 1 to \(Product.maxIdLength) characters long"
        }
        return Product.identifierProblem(id)
    }

    /// Nil unless `name` is longer than any catalog's account name.
    static func accountNameProblem(_ name: String) -> String? {
        guard name.unicodeScalars.count > Account.maxNameLength else { return nil }
        return
            "\(shown(name)) is longer than \(Account.maxNameLength) characters, the longest account name a catalog allows"
    }

    /// Throws `problem`, if any: 400 for a path parameter (the URL itself is wrong), 422 for a
    /// field of a body, as every other value a body gets wrong.
    static func refuse(_ problem: String?, field: String, inPath: Bool = false) throws {
        guard let problem else { return }
        if inPath { throw APIError.badRequest("the \(field) in the path: \(problem)", field: field) }
        throw APIError.invalid("\(field): \(problem)", field: field)
    }

    /// The start of a value, quoted, for a message that must stay short.
    private static func shown(_ text: String) -> String {
        text.unicodeScalars.count <= 40 ? text.debugDescription : String(text.prefix(40)).debugDescription + "…"
    }
}
