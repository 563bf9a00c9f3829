import ServerRecords
import StoreKitModel

/// What Apple's Send Consumption Information refuses once it knows which product the transaction
/// is of, and which `deliveryStatus` the body says: the checks a body alone cannot make.
enum ConsumptionRules {
    /// A product the catalog no longer has is taken as a consumable, as its JWS says.
    static func productType(of transaction: ServerTransaction, in catalog: Catalog) -> ProductType {
        catalog.product(id: transaction.transaction.productId)?.type ?? .consumable
    }

    /// Version 2. The App Store works out an auto-renewable subscription's consumption itself, so
    /// any percentage for one is refused (ConsumptionPercentageAutoRenewableSubscriptionError);
    /// and what was not delivered was not consumed, so a percentage other than 0 then is refused
    /// (UndeliveredConsumptionPercentageNonZeroError). A prorated refund of any other product is
    /// prorated by the share consumed, so `GRANT_PRORATED` needs one above 0 and below 100000.
    static func check(_ body: ConsumptionRequest, productType: ProductType) throws(AppStoreAPIError) {
        if body.refundPreference == ConsumptionRequest.grantProrated, productType != .autoRenewable,
            !ConsumptionRequest.proratedPercentages.contains(body.consumptionPercentage ?? 0)
        {
            // Apple names this error but publishes no number for it; its general code stands in.
            throw AppStoreAPIError(
                .generalBadRequest,
                "Invalid request. refundPreference GRANT_PRORATED needs a consumptionPercentage above 0 and below 100000 (Apple's ConsumptionPercentageOutOfRangeError)."
            )
        }
        guard let percentage = body.consumptionPercentage else { return }
        if productType == .autoRenewable {
            throw AppStoreAPIError(
                .consumptionPercentageAutoRenewableSubscription,
                "Invalid request. The consumption percentage field is not supported for auto-renewable subscription transactions."
            )
        }
        if percentage != 0, body.deliveryStatus != ConsumptionRequest.delivered {
            // Apple names this error but publishes no number for it; its general code stands in.
            throw AppStoreAPIError(
                .generalBadRequest,
                "Invalid request. consumptionPercentage must be 0 when deliveryStatus is not DELIVERED (Apple's UndeliveredConsumptionPercentageNonZeroError)."
            )
        }
    }

    /// Version 1 takes consumables and auto-renewable subscriptions only, the products Apple
    /// asks about with `CONSUMPTION_REQUEST` (InvalidTransactionTypeNotSupportedError).
    static func checkV1(productType: ProductType) throws(AppStoreAPIError) {
        guard productType != .consumable, productType != .autoRenewable else { return }
        throw AppStoreAPIError(
            .invalidTransactionTypeNotSupported,
            "Invalid request. The transaction id represents an unsupported in-app purchase type: version 1 takes consumables and auto-renewable subscriptions; send a non-consumable's or a non-renewing subscription's with version 2."
        )
    }
}
