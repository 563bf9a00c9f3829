import Foundation
import StoreCore

/// `POST /admin/transactions`: a transaction made outside the device, its fields named as
/// `storefront manage create` names its options. `purchaseDate` is ISO 8601 text or milliseconds
/// since 1970; it is kept as text until the route reads it, so a bad one is refused naming it.
public struct CreateTransactionRequest: Codable, Sendable, Hashable {
    public let productId: String
    public let account: String
    public let purchaseDate: String
    public let appAccountToken: String?
    public let offerId: String?
    /// Absent: on.
    public let autoRenew: Bool?

    /// The body's fields, which the server checks a body against.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case productId, account, purchaseDate, appAccountToken, offerId, autoRenew
    }

    public init(_ creation: TransactionCreation) {
        productId = creation.productId
        account = creation.account
        purchaseDate = String(creation.purchaseDate.epochMilliseconds)
        appAccountToken = creation.appAccountToken?.uuidString.lowercased()
        offerId = creation.offerId
        autoRenew = creation.autoRenew
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        productId = try container.decode(String.self, forKey: .productId)
        account = try container.decode(String.self, forKey: .account)
        if let milliseconds = try? container.decode(Int64.self, forKey: .purchaseDate) {
            purchaseDate = String(milliseconds)
        } else if let text = try? container.decode(String.self, forKey: .purchaseDate) {
            purchaseDate = text
        } else if container.contains(.purchaseDate) {
            throw DecodingError.dataCorruptedError(
                forKey: .purchaseDate, in: container, debugDescription: "expected \(TransactionCreation.dateInWords)")
        } else {
            throw DecodingError.keyNotFound(
                CodingKeys.purchaseDate, .init(codingPath: [], debugDescription: "purchaseDate is required"))
        }
        appAccountToken = try container.decodeIfPresent(String.self, forKey: .appAccountToken)
        offerId = try container.decodeIfPresent(String.self, forKey: .offerId)
        autoRenew = try container.decodeIfPresent(Bool.self, forKey: .autoRenew)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(productId, forKey: .productId)
        try container.encode(account, forKey: .account)
        if let milliseconds = Int64(purchaseDate) {
            try container.encode(milliseconds, forKey: .purchaseDate)
        } else {
            try container.encode(purchaseDate, forKey: .purchaseDate)
        }
        try container.encodeIfPresent(appAccountToken, forKey: .appAccountToken)
        try container.encodeIfPresent(offerId, forKey: .offerId)
        try container.encodeIfPresent(autoRenew, forKey: .autoRenew)
    }

    /// What is wrong with a field, named as the body names it.
    public struct Problem: Error, Sendable, Hashable {
        public let field: String
        public let message: String
    }

    /// The creation asked for; a `Problem` when the date or the token cannot be read.
    public func creation() throws(Problem) -> TransactionCreation {
        guard let date = TransactionCreation.date(from: purchaseDate) else {
            throw Problem(
                field: CodingKeys.purchaseDate.rawValue,
                message:
                    "purchaseDate \(String(purchaseDate.prefix(40)).debugDescription) is not \(TransactionCreation.dateInWords)"
            )
        }
        var token: UUID?
        if let appAccountToken {
            guard let uuid = UUID(uuidString: appAccountToken) else {
                throw Problem(
                    field: CodingKeys.appAccountToken.rawValue,
                    message:
                        "appAccountToken \(String(appAccountToken.prefix(40)).debugDescription) is not a UUID such as \"7e3fb20b-4cdb-47cc-936d-99d65f608138\""
                )
            }
            token = uuid
        }
        return TransactionCreation(
            productId: productId, account: account, purchaseDate: date, appAccountToken: token, offerId: offerId,
            autoRenew: autoRenew ?? true)
    }
}
