import Foundation
import ServerRecords
import StoreCore
import StoreKitModel

/// What the App Store Server API and StoreKit 2's subscription statuses sign: a transaction as the
/// server keeps it, a chain's renewal info, and the app transaction. One rule for the server's
/// routes and for a store in the app's own process, so both sign the same payloads.
extension TransactionSigner {
    /// A transaction's JWS as the App Store Server API returns it: signed when it last changed,
    /// with the app account token a server set on its chain.
    public func signed(_ transaction: ServerTransaction, catalog: Catalog, environment: StoreEnvironment) -> String {
        signOnce(
            Self.payload(
                for: transaction.transaction, details: transaction.details, catalog: catalog,
                environment: environment, signedAt: transaction.modifiedDate,
                appAccountToken: transaction.appAccountToken))
    }

    /// A transaction's JWS as the App Store Server API answers a request for it: signed `now`, as
    /// Apple signs each answer, so `signedDate` is when it was read.
    public func signed(
        _ transaction: ServerTransaction, catalog: Catalog, environment: StoreEnvironment, at now: Date
    ) -> String {
        sign(
            Self.payload(
                for: transaction.transaction, details: transaction.details, catalog: catalog,
                environment: environment, signedAt: now, appAccountToken: transaction.appAccountToken))
    }

    /// A chain's renewal info, signed now as Apple signs it at each request.
    public func signedRenewalInfo(
        _ status: SubscriptionStatus, catalog: Catalog, environment: StoreEnvironment, at now: Date
    ) -> String {
        sign(SignedRenewalInfoPayload(status, catalog: catalog, environment: environment, signedAt: now))
    }

    /// A chain's status with its latest transaction and renewal info signed.
    public func signedStatus(
        _ status: SubscriptionStatus, catalog: Catalog, environment: StoreEnvironment, at now: Date
    ) -> SignedSubscriptionStatus {
        SignedSubscriptionStatus(
            groupId: status.groupId, originalTransactionId: status.originalTransactionId,
            status: status.status.rawValue,
            signedTransactionInfo: signed(status.latest, catalog: catalog, environment: environment),
            signedRenewalInfo: signedRenewalInfo(status, catalog: catalog, environment: environment, at: now))
    }

    /// The account's app transaction, signed now.
    public func signedAppTransaction(_ info: AppTransactionInfo, appAppleId: Int64?, at now: Date) -> String {
        sign(SignedAppTransactionPayload(info, appAppleId: appAppleId, at: now))
    }
}
