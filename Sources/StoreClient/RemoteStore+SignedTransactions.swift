import Foundation
import StoreAPI
import StoreCore
import StoreKitModel

/// StoreKit 2's signed values as the server signs them: each account's transactions are read
/// once per call, with their JWS, as are its subscription statuses and its app transaction; the
/// root is the one the server serves.
extension RemoteStore: SignedTransactionSource {
    public func signedTransactions(_ transactions: [Transaction]) async throws -> [String: String] {
        var signed: [String: String] = [:]
        for account in Set(transactions.map(\.payment.account)).sorted() {
            let response = try await call(
                TransactionsResponse.self, .GET, "/v1/accounts/\(Self.segment(account))/transactions")
            for wire in response.transactions {
                if let jws = wire.jwsRepresentation { signed[wire.transactionId] = jws }
            }
        }
        let wanted = Set(transactions.map(\.id))
        return signed.filter { wanted.contains($0.key) }
    }

    public func signedSubscriptionStatuses(account: String) async throws -> [SignedSubscriptionStatus] {
        try await call(
            SubscriptionStatusesResponse.self, .GET, "/v1/accounts/\(Self.segment(account))/subscription-statuses"
        ).statuses.map(\.signed)
    }

    public func signedAppTransaction(account: String) async throws -> String {
        let path = "/v1/accounts/\(Self.segment(account))/app-transaction"
        guard let jws = try await call(WireAppTransaction.self, .GET, path).signedAppTransactionInfo else {
            throw StoreFailure(
                "\(baseURL)\(path) sent no signedAppTransactionInfo: the server is older than StoreKit 2's library; update it"
            )
        }
        return jws
    }

    public func signingRoot() async throws -> Data {
        let reply = try await transport.send(.GET, Self.rootPath, body: nil, idempotencyKey: nil, admin: false)
        guard reply.status == 200, !reply.body.isEmpty else {
            throw StoreFailure(
                "\(baseURL)\(Self.rootPath) answered \(reply.status): no root certificate to verify with")
        }
        return reply.body
    }

    static let rootPath = "/.well-known/storefront-root-ca.cer"
}
