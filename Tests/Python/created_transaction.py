"""A transaction made outside the device (`POST /admin/transactions`, Xcode 26's "create a
transaction"), read with Apple's own library as a backend developer would. lena's monthly
subscription, bought 80 days ago with an app account token: a week's free trial, then a month at a
time, so Get Transaction History holds the purchase and three renewals, with the fields Apple
documents for JWSTransactionDecodedPayload; servers heard SUBSCRIBED and three DID_RENEW. oliver's
yearly one, bought 200 days ago with auto-renew off, ended with its three-month introductory
period: one transaction, an expired status, and DID_CHANGE_RENEWAL_STATUS and EXPIRED. A date in
the future is refused with the admin routes' error body.

Usage: created_transaction.py BASE_URL KEY_FILE ISSUER_ID KEY_ID BUNDLE_ID ADMIN_TOKEN WORK_DIR
Prints one line per check; exits 1 at the first that fails.
"""
import json
import os
import sys
import urllib.error
import urllib.request
import uuid
from datetime import datetime, timedelta, timezone

from appstoreserverlibrary.api_client import GetTransactionHistoryVersion
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.InAppOwnershipType import InAppOwnershipType
from appstoreserverlibrary.models.Status import Status
from appstoreserverlibrary.models.TransactionHistoryRequest import TransactionHistoryRequest
from appstoreserverlibrary.models.TransactionReason import TransactionReason
from appstoreserverlibrary.models.Type import Type

sys.path.insert(0, os.path.dirname(__file__))
from notification_receiver import Receiver  # noqa: E402
from server_notifications import Admin, apple_clients, check, wait_until_delivered  # noqa: E402

MONTHLY = "com.example.storefront.premium.monthly"
YEARLY = "com.example.storefront.premium.yearly"


def iso(date):
    return date.strftime("%Y-%m-%dT%H:%M:%SZ")


def milliseconds(date):
    return int(date.timestamp()) * 1000


def main():
    base, key_file, issuer, key_id, bundle, admin_token, work = sys.argv[1:8]
    admin = Admin(base, admin_token)
    client, verifier, root_url = apple_clients(base, key_file, issuer, key_id, bundle)
    receiver = Receiver(root_url, bundle, os.path.join(work, "accepted.jsonl")).start()
    admin.call("PUT", "/admin/notification-urls", {"urls": ["http://127.0.0.1:%d/apple" % receiver.port]})

    now = datetime.now(timezone.utc).replace(microsecond=0)
    date, token = now - timedelta(days=80), str(uuid.uuid4())
    created = admin.call("POST", "/admin/transactions", {
        "productId": MONTHLY, "account": "lena", "purchaseDate": iso(date), "appAccountToken": token})
    ids = [update["transaction"]["transactionId"] for update in created["updates"]]
    check("the answer: the purchase, then three renewals", len(ids) == 4, ids)

    history = client.get_transaction_history(ids[0], None, TransactionHistoryRequest(), GetTransactionHistoryVersion.V2)
    decoded = sorted((verifier.verify_and_decode_signed_transaction(jws) for jws in history.signedTransactions),
                     key=lambda t: t.purchaseDate)
    check("Get Transaction History holds them all", [t.transactionId for t in decoded] == ids, decoded)
    first, renewals = decoded[0], decoded[1:]
    check("the purchase is dated as asked", first.purchaseDate == milliseconds(date) and first.transactionReason
          == TransactionReason.PURCHASE and first.rawOfferType == 1 and first.price == 0, first)
    check("each renewal starts where the period before ended", all(
        later.purchaseDate == earlier.expiresDate and later.transactionReason == TransactionReason.RENEWAL
        for earlier, later in zip(decoded, renewals)), [(t.purchaseDate, t.expiresDate) for t in decoded])
    check("the last period is in force", decoded[-1].expiresDate > milliseconds(now), decoded[-1].expiresDate)
    check("one subscription, its original purchase the created one", all(
        t.originalTransactionId == ids[0] and t.originalPurchaseDate == milliseconds(date) for t in decoded))
    check("the documented fields", all(
        t.bundleId == bundle and t.productId == MONTHLY and t.type == Type.AUTO_RENEWABLE_SUBSCRIPTION
        and t.inAppOwnershipType == InAppOwnershipType.PURCHASED and t.environment == Environment.SANDBOX
        and t.appAccountToken == token and t.quantity == 1 and t.storefront == "DEU" and t.currency == "EUR"
        and t.subscriptionGroupIdentifier and t.webOrderLineItemId and t.signedDate >= t.purchaseDate
        and t.appTransactionId for t in decoded), decoded[-1])
    check("renewals are charged", all(t.price and t.price > 0 for t in renewals), [t.price for t in renewals])
    statuses = client.get_all_subscription_statuses(ids[0])
    status = statuses.data[0].lastTransactions[0]
    renewal = verifier.verify_and_decode_renewal_info(status.signedRenewalInfo)
    check("Get All Subscription Statuses: active, renewing", status.status == Status.ACTIVE
          and status.originalTransactionId == ids[0] and renewal.autoRenewStatus == 1, status)

    off = admin.call("POST", "/admin/transactions", {
        "productId": YEARLY, "account": "oliver", "purchaseDate": milliseconds(now - timedelta(days=200)),
        "autoRenew": False})
    ended = off["updates"][0]["transaction"]["transactionId"]
    check("auto-renew off: one transaction", len(off["updates"]) == 1, off)
    expired = client.get_all_subscription_statuses(ended).data[0].lastTransactions[0]
    check("and its subscription expired", expired.status == Status.EXPIRED, expired)

    try:
        admin.call("POST", "/admin/transactions", {"productId": MONTHLY, "account": "wei",
                                                   "purchaseDate": iso(now + timedelta(days=1))})
        check("a future date is refused", False)
    except urllib.error.HTTPError as error:
        body = json.loads(error.read())["error"]
        check("a future date is refused: 422 with the error body", error.code == 422 and body["code"] == "invalid"
              and "in the future" in body["message"], body)

    outbox = wait_until_delivered(admin)
    errors = [line for line in receiver.accepted if "error" in line]
    check("every notification verifies with Apple's verifier", not errors and len(receiver.accepted) == len(outbox),
          errors[:1])
    told = sorted((line["type"], line["subtype"] or "", line["transactionId"]) for line in receiver.accepted)
    expected = sorted([("SUBSCRIBED", "INITIAL_BUY", ids[0])] + [("DID_RENEW", "", i) for i in ids[1:]]
                      + [("SUBSCRIBED", "INITIAL_BUY", ended), ("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", ended),
                         ("EXPIRED", "VOLUNTARY", ended)])
    check("servers heard what the App Store would have sent", told == expected, told)
    print("all checks passed")


if __name__ == "__main__":
    main()
