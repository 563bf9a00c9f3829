import StoreKitModel
import Testing

/// The names these enums write in JSON, on the wire and on screen, with the number each goes
/// with: renaming a case in Swift must leave them as they are.
@Suite struct NamedCaseTests {
    @Test func errorNamesArePinned() {
        #expect(
            names(SKErrorCode.self) == [
                0: "unknown", 1: "clientInvalid", 2: "paymentCancelled", 3: "paymentInvalid", 4: "paymentNotAllowed",
                5: "storeProductNotAvailable", 6: "cloudServicePermissionDenied",
                7: "cloudServiceNetworkConnectionFailed",
                8: "cloudServiceRevoked", 9: "privacyAcknowledgementRequired", 10: "unauthorizedRequestData",
                11: "invalidOfferIdentifier", 12: "invalidSignature", 13: "missingOfferParams", 14: "invalidOfferPrice",
                15: "overlayCancelled", 16: "overlayInvalidConfiguration", 17: "overlayTimeout",
                18: "ineligibleForOffer",
                19: "unsupportedPlatform", 20: "overlayPresentedInBackgroundScene",
                21: "paymentMethodBindingConfigurationRequired",
            ])
        #expect(
            names(URLErrorCode.self) == [
                -1001: "timedOut", -1003: "cannotFindHost", -1004: "cannotConnectToHost",
                -1005: "networkConnectionLost",
                -1009: "notConnectedToInternet", -1012: "userCancelledAuthentication", -1200: "secureConnectionFailed",
            ])
    }

    @Test func transactionNamesArePinned() {
        #expect(
            names(TransactionState.self) == [
                0: "purchasing", 1: "purchased", 2: "failed", 3: "restored", 4: "deferred",
            ])
        #expect(names(RevocationReason.self) == [0: "other", 1: "developerIssue"])
        #expect(
            names(ExpirationReason.self) == [
                1: "autoRenewDisabled", 2: "billingError", 3: "didNotConsentToPriceIncrease",
                4: "productUnavailable", 5: "unknown",
            ])
        #expect(names(PriceIncreaseStatus.self) == [0: "pending", 1: "agreed"])
    }

    @Test func everyNameReadsBackAsItsCase() {
        func readsBack<T: NamedCase & Equatable>(_: T.Type) -> Bool {
            T.allCases.allSatisfy { T(name: $0.name) == $0 } && T(name: "") == nil
        }
        #expect(readsBack(SKErrorCode.self) && readsBack(URLErrorCode.self) && readsBack(TransactionState.self))
        #expect(
            readsBack(RevocationReason.self) && readsBack(ExpirationReason.self) && readsBack(PriceIncreaseStatus.self))
    }

    private func names<T: NamedCase & RawRepresentable>(_: T.Type) -> [Int: String] where T.RawValue == Int {
        Dictionary(uniqueKeysWithValues: T.allCases.map { ($0.rawValue, $0.name) })
    }
}
