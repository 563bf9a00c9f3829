"""Apple's App Store Server API client and verifier against `storefront serve`.

Usage: server_api_client.py BASE_URL KEY_FILE ISSUER_ID KEY_ID BUNDLE_ID ADMIN_TOKEN
The server must hold purchases of alice: removeads (first), premium.monthly, gems.100, then
premiumplus.monthly (an upgrade) and premium.monthly again (a downgrade, waiting for the renewal).
Prints one line per check; exits 1 at the first that fails.
"""
import json
import sys
import urllib.request

from appstoreserverlibrary.api_client import APIException, AppStoreServerAPIClient, GetTransactionHistoryVersion
from appstoreserverlibrary.models.AccountTenure import AccountTenure
from appstoreserverlibrary.models.ConsumptionRequest import ConsumptionRequest
from appstoreserverlibrary.models.ConsumptionRequestV1 import ConsumptionRequestV1
from appstoreserverlibrary.models.ConsumptionStatus import ConsumptionStatus
from appstoreserverlibrary.models.DeliveryStatusV1 import DeliveryStatusV1
from appstoreserverlibrary.models.LifetimeDollarsPurchased import LifetimeDollarsPurchased
from appstoreserverlibrary.models.LifetimeDollarsRefunded import LifetimeDollarsRefunded
from appstoreserverlibrary.models.Platform import Platform
from appstoreserverlibrary.models.PlayTime import PlayTime
from appstoreserverlibrary.models.UserStatus import UserStatus
from appstoreserverlibrary.models.DeliveryStatus import DeliveryStatus
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.ExtendReasonCode import ExtendReasonCode
from appstoreserverlibrary.models.ExtendRenewalDateRequest import ExtendRenewalDateRequest
from appstoreserverlibrary.models.OrderLookupStatus import OrderLookupStatus
from appstoreserverlibrary.models.Status import Status
from appstoreserverlibrary.models.TransactionHistoryRequest import Order, ProductType, TransactionHistoryRequest
from appstoreserverlibrary.models.UpdateAppAccountTokenRequest import UpdateAppAccountTokenRequest
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier


def check(name, condition, detail=""):
    print(("ok " if condition else "FAILED ") + name + (": " + str(detail) if detail else ""))
    if not condition:
        sys.exit(1)


def main():
    base, key_file, issuer, key_id, bundle, admin_token, first_id = sys.argv[1:8]
    key = open(key_file, "rb").read()
    client = AppStoreServerAPIClient(key, key_id, issuer, bundle, Environment.SANDBOX)
    client._base_url = base
    root = urllib.request.urlopen(base + "/.well-known/storefront-root-ca.cer").read()
    verifier = SignedDataVerifier([root], False, Environment.SANDBOX, bundle)

    history = client.get_transaction_history(first_id, None, TransactionHistoryRequest(), GetTransactionHistoryVersion.V2)
    products = [verifier.verify_and_decode_signed_transaction(jws).productId for jws in history.signedTransactions]
    check("history v2", len(products) == 4 and history.hasMore is False and history.environment == Environment.SANDBOX, products)
    first = verifier.verify_and_decode_signed_transaction(history.signedTransactions[0])
    decoded = [verifier.verify_and_decode_signed_transaction(jws) for jws in history.signedTransactions]
    monthly = next(t for t in decoded if t.productId.endswith("premium.monthly"))
    plus = next(t for t in decoded if t.productId.endswith("premiumplus.monthly"))
    check("one original id through an upgrade", plus.originalTransactionId == monthly.originalTransactionId
          and plus.transactionId != monthly.transactionId, plus.originalTransactionId)

    everything = client.get_all_subscription_statuses(first.transactionId)
    groups = [(group.subscriptionGroupIdentifier, [t.originalTransactionId for t in group.lastTransactions])
              for group in everything.data]
    check("one subscription per group", groups == [("premium", [monthly.originalTransactionId])], groups)
    waiting = verifier.verify_and_decode_renewal_info(everything.data[0].lastTransactions[0].signedRenewalInfo)
    check("a downgrade waits for the renewal", waiting.autoRenewProductId == monthly.productId
          and waiting.productId == plus.productId and waiting.expirationIntent is None, waiting.autoRenewProductId)

    info = verifier.verify_and_decode_signed_transaction(client.get_transaction_info(first.transactionId).signedTransactionInfo)
    check("transaction info", info.transactionId == first.transactionId and info.price is not None, info.productId)

    subscriptions = client.get_transaction_history(first.transactionId, None, TransactionHistoryRequest(
        productTypes=[ProductType.AUTO_RENEWABLE], sort=Order.DESCENDING, revoked=False))
    check("history filters", len(subscriptions.signedTransactions) == 2)

    statuses = client.get_all_subscription_statuses(first.transactionId, [Status.ACTIVE])
    last = statuses.data[0].lastTransactions[0]
    renewal = verifier.verify_and_decode_renewal_info(last.signedRenewalInfo)
    check("subscription status", last.status == Status.ACTIVE and renewal.autoRenewStatus is not None
          and renewal.originalTransactionId == monthly.originalTransactionId, renewal.renewalPrice)

    extended = client.extend_subscription_renewal_date(monthly.originalTransactionId, ExtendRenewalDateRequest(
        extendByDays=3, extendReasonCode=ExtendReasonCode.CUSTOMER_SATISFACTION, requestIdentifier="python-1"))
    check("extend renewal date", extended.success and extended.effectiveDate > monthly.expiresDate, extended.effectiveDate)

    token = "7e3fb20b-4cdb-47cc-936d-99d65f608138"
    client.set_app_account_token(monthly.originalTransactionId, UpdateAppAccountTokenRequest(appAccountToken=token))
    updated = verifier.verify_and_decode_signed_transaction(client.get_transaction_info(monthly.transactionId).signedTransactionInfo)
    check("set app account token", updated.appAccountToken == token)

    gems = next(t for t in map(verifier.verify_and_decode_signed_transaction, history.signedTransactions) if t.productId.endswith("gems.100"))
    client.send_consumption_information(gems.transactionId, ConsumptionRequest(
        customerConsented=True, sampleContentProvided=False, deliveryStatus=DeliveryStatus.DELIVERED))
    request = urllib.request.Request(base + "/admin/consumption", headers={"Authorization": "Bearer " + admin_token})
    reports = json.loads(urllib.request.urlopen(request).read())["reports"]
    check("send consumption information", [r["transactionId"] for r in reports] == [gems.transactionId], reports)

    def v1(platform):
        return ConsumptionRequestV1(
            customerConsented=True, consumptionStatus=ConsumptionStatus.PARTIALLY_CONSUMED, platform=platform,
            sampleContentProvided=False, deliveryStatus=DeliveryStatusV1.DELIVERED_AND_WORKING_PROPERLY,
            appAccountToken="", accountTenure=AccountTenure.TEN_DAYS_TO_THIRTY_DAYS, playTime=PlayTime.ONE_TO_SIX_HOURS,
            lifetimeDollarsRefunded=LifetimeDollarsRefunded.ZERO_DOLLARS,
            lifetimeDollarsPurchased=LifetimeDollarsPurchased.ONE_CENT_TO_FORTY_NINE_DOLLARS_AND_NINETY_NINE_CENTS,
            userStatus=UserStatus.ACTIVE)
    client.send_consumption_data(gems.transactionId, v1(Platform.APPLE))
    reports = json.loads(urllib.request.urlopen(request).read())["reports"]
    check("send consumption data (v1)", json.loads(reports[0]["request"]).get("consumptionStatus") == 2, reports)
    bad = v1(Platform.APPLE)
    bad.rawPlatform = 9
    try:
        client.send_consumption_data(gems.transactionId, bad)
        check("a v1 platform out of range", False)
    except APIException as error:
        check("a v1 platform out of range", error.http_status_code == 400 and error.raw_api_error == 4000039,
              error.error_message)

    app = verifier.verify_and_decode_app_transaction(
        client.get_app_transaction_info(first.transactionId).signedAppTransactionInfo)
    check("app transaction", app.bundleId == bundle and app.appTransactionId == waiting.appTransactionId
          and app.originalPurchaseDate <= first.purchaseDate and app.receiptType == Environment.SANDBOX,
          (app.appTransactionId, app.originalPurchaseDate))
    check("app transaction versions from the catalog's app section", app.applicationVersion == "3.2"
          and app.originalApplicationVersion == "1.0" and app.preorderDate is None and app.originalPlatform is not None,
          (app.applicationVersion, app.originalApplicationVersion, app.preorderDate))
    again = verifier.verify_and_decode_app_transaction(
        client.get_app_transaction_info(app.appTransactionId).signedAppTransactionInfo)
    check("app transaction by its own id", again.appTransactionId == app.appTransactionId
          and again.originalPurchaseDate == app.originalPurchaseDate)
    try:
        client.get_app_transaction_info("2999999999999999")
        check("app transaction of an unknown id", False)
    except APIException as error:
        check("app transaction of an unknown id", error.http_status_code == 404 and error.raw_api_error == 4040010)

    # An error answer raises APIException: finishing a purchase (one the app finished already) is not one.
    client.finish_transaction(gems.transactionId)
    try:
        client.finish_transaction("2999999999999999")
        check("finish an unknown transaction", False)
    except APIException as error:
        check("finish an unknown transaction", error.http_status_code == 404 and error.raw_api_error == 4040010)

    check("look up an unknown order", client.look_up_order_id("MZZZZZZZZZ").status == OrderLookupStatus.INVALID)
    try:
        client.get_transaction_info("2999999999999999")
        check("unknown transaction", False)
    except APIException as error:
        check("unknown transaction", error.http_status_code == 404 and error.raw_api_error == 4040010, error.error_message)
    try:
        client.get_transaction_history(first.transactionId, "bad-revision", TransactionHistoryRequest())
        check("bad revision", False)
    except APIException as error:
        check("bad revision", error.http_status_code == 400 and error.raw_api_error == 4000005, error.error_message)
    stranger = AppStoreServerAPIClient(key, "UNKNOWNKID", issuer, bundle, Environment.SANDBOX)
    stranger._base_url = base
    try:
        stranger.get_transaction_info(first.transactionId)
        check("unknown key", False)
    except APIException as error:
        check("unknown key", error.http_status_code == 401 and error.raw_api_error is None)
    expire = urllib.request.Request(base + "/admin/transactions/%s/expire" % plus.transactionId, method="POST",
                                    headers={"Authorization": "Bearer " + admin_token})
    urllib.request.urlopen(expire).read()
    lapsed = client.get_all_subscription_statuses(first.transactionId).data[0].lastTransactions[0]
    offers = verifier.verify_and_decode_renewal_info(lapsed.signedRenewalInfo).eligibleWinBackOfferIds
    check("a lapsed subscription's win-back offers", lapsed.status == Status.EXPIRED
          and offers == ["com.example.storefront.premium.comeback"], offers)
    print("all checks passed")


if __name__ == "__main__":
    main()
