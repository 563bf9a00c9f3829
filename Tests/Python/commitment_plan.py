"""A 12-month commitment billed monthly, read from `storefront serve` with Apple's own library as
a backend developer would: lena (Germany) buys Premium Yearly on the monthly plan, two more months
are billed, and she turns auto-renew off in the third. The JWS fields Apple added for the plan
(billingPlanType, commitmentInfo, renewalBillingPlanType) are checked against the store's own
record (`/admin/transactions`, `/v1/.../wallet`), with their raw JSON types; then an up-front
purchase, a non-subscription, the DID_RENEW notifications and verifyReceipt, which has no plan
fields: each monthly payment is an entry of its own with its own expiry.

Usage: commitment_plan.py BASE_URL KEY_FILE ISSUER_ID KEY_ID BUNDLE_ID ADMIN_TOKEN WORK_DIR
Prints one line per check; exits 1 at the first that fails.
"""
import base64
import json
import os
import sys
import urllib.request
import uuid

from appstoreserverlibrary.api_client import GetTransactionHistoryVersion
from appstoreserverlibrary.models.AutoRenewStatus import AutoRenewStatus
from appstoreserverlibrary.models.BillingPlanType import BillingPlanType
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.RenewalBillingPlanType import RenewalBillingPlanType
from appstoreserverlibrary.models.TransactionHistoryRequest import Order, TransactionHistoryRequest

sys.path.insert(0, os.path.dirname(__file__))
from notification_receiver import Receiver  # noqa: E402
from server_notifications import Admin, apple_clients, check, wait_until_delivered  # noqa: E402

YEARLY = "com.example.storefront.premium.yearly"


def pay(base, account, product, plan=None):
    body = {"account": account, "productId": product}
    if plan:
        body["billingPlan"] = plan
    request = urllib.request.Request(base + "/v1/payments", method="POST", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json", "Idempotency-Key": str(uuid.uuid4())})
    with urllib.request.urlopen(request) as answer:
        return json.loads(answer.read())["transaction"]["transactionId"]


def settled(base, account, transaction_id):
    """The /v1 transaction once it has left `purchasing`."""
    cursor = 0
    for _ in range(40):
        with urllib.request.urlopen("%s/v1/accounts/%s/updates?after=%d&wait=5" % (base, account, cursor)) as answer:
            page = json.loads(answer.read())
        for update in page["updates"]:
            transaction = update["transaction"]
            if transaction["transactionId"] == transaction_id and transaction["state"] != "purchasing":
                return transaction
        cursor = page["cursor"]
    check("payment %s settled" % transaction_id, False)


def raw_payload(jws):
    """The JWS's payload as sent, before Apple's models coerce anything."""
    part = jws.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))


def is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def main():
    base, key_file, issuer, key_id, bundle, admin_token, work = sys.argv[1:8]
    admin = Admin(base, admin_token)
    client, verifier, root_url = apple_clients(base, key_file, issuer, key_id, bundle)
    receiver = Receiver(root_url, bundle, os.path.join(work, "accepted.jsonl")).start()
    admin.call("PUT", "/admin/notification-urls", {"urls": ["http://127.0.0.1:%d/apple" % receiver.port]})

    first = pay(base, "lena", YEARLY, "monthly")
    check("lena's monthly plan is bought", settled(base, "lena", first)["state"] == "purchased")
    receipt, when_renewed = None, {}
    for _ in range(2):
        renewed = admin.call("POST", "/admin/transactions/%s/renew" % first)
        receipt = renewed["receipts"]["lena"]
        for update in renewed["updates"]:
            when_renewed[update["transaction"]["transactionId"]] = update["transaction"]["commitment"]["expiresDate"]
    record = {t["transactionId"]: t for t in admin.call("GET", "/admin/transactions")["transactions"]
              if t["account"] == "lena" and t["productId"] == YEARLY}
    ids = sorted(record, key=int)
    check("three monthly payments in the store", [record[i]["commitment"]["billingPeriodNumber"] for i in ids] == [1, 2, 3],
          [record[i].get("commitment") for i in ids])
    admin.call("POST", "/admin/transactions/%s/auto-renew/off" % ids[-1])

    transactions(client, verifier, record, ids)
    renewal_info(client, verifier, base, record, ids)
    other_products(base, client, verifier)
    notifications(admin, receiver, verifier, record, ids, when_renewed)
    verify_receipt(base, receipt, client, verifier, ids)
    print("all checks passed (%d monthly payments, %d notifications)" % (len(ids), len(receiver.accepted)))


def transactions(client, verifier, record, ids):
    """Each payment's JWS, from Get Transaction Info and Get Transaction History, says what the store recorded."""
    history = client.get_transaction_history(ids[0], None, TransactionHistoryRequest(sort=Order.ASCENDING),
                                             GetTransactionHistoryVersion.V2)
    signed = {verifier.verify_and_decode_signed_transaction(s).transactionId: s for s in history.signedTransactions}
    check("history: the three payments", sorted(signed, key=int) == ids, list(signed))
    for transaction_id in ids:
        stored = record[transaction_id]["commitment"]
        info = client.get_transaction_info(transaction_id).signedTransactionInfo
        for jws in (info, signed[transaction_id]):
            decoded = verifier.verify_and_decode_signed_transaction(jws)
            commitment = decoded.commitmentInfo
            check("payment %d: MONTHLY, %d of 12" % (stored["billingPeriodNumber"], stored["billingPeriodNumber"]),
                  decoded.billingPlanType == BillingPlanType.MONTHLY and commitment is not None
                  and commitment.billingPeriodNumber == stored["billingPeriodNumber"]
                  and commitment.totalBillingPeriods == 12, decoded)
            check("payment %d: the commitment's total and end" % stored["billingPeriodNumber"],
                  commitment.commitmentPrice == 59880 and commitment.commitmentExpiresDate == stored["expiresDate"]
                  and decoded.price == 4990 and decoded.currency == "EUR", commitment)
            raw = raw_payload(jws)
            check("payment %d: raw types" % stored["billingPeriodNumber"], raw["billingPlanType"] == "MONTHLY"
                  and all(is_int(raw["commitmentInfo"][key]) for key in
                          ["billingPeriodNumber", "totalBillingPeriods", "commitmentPrice", "commitmentExpiresDate"]),
                  raw["commitmentInfo"])


def renewal_info(client, verifier, base, record, ids):
    """After auto-renew is off mid-commitment: the months left are billed (autoRenewStatus stays 1);
    the next commitment is off."""
    statuses = client.get_all_subscription_statuses(ids[0])
    last = statuses.data[0].lastTransactions[0]
    latest = verifier.verify_and_decode_signed_transaction(last.signedTransactionInfo)
    check("the status's transaction is the third payment", latest.transactionId == ids[-1]
          and latest.commitmentInfo.billingPeriodNumber == 3, latest.transactionId)
    renewal = verifier.verify_and_decode_renewal_info(last.signedRenewalInfo)
    commitment = renewal.commitmentInfo
    check("renewal info: the next payment is MONTHLY, at a month's price", renewal.renewalBillingPlanType == RenewalBillingPlanType.MONTHLY
          and renewal.autoRenewStatus == AutoRenewStatus.ON and renewal.renewalPrice == 4990, renewal)
    check("renewal info: no new commitment after this one", commitment is not None
          and commitment.commitmentAutoRenewStatus == AutoRenewStatus.OFF
          and commitment.commitmentAutoRenewProductId == YEARLY
          and commitment.commitmentRenewalBillingPlanType == RenewalBillingPlanType.MONTHLY
          and commitment.commitmentRenewalPrice == 4990, commitment)
    check("renewal info: the commitment renews when it ends",
          commitment.commitmentRenewalDate == latest.commitmentInfo.commitmentExpiresDate
          == record[ids[-1]]["commitment"]["expiresDate"], (commitment.commitmentRenewalDate, latest.commitmentInfo))
    with urllib.request.urlopen(base + "/v1/accounts/lena/wallet") as answer:
        wallet = json.loads(answer.read())["entitlements"][0]["renewal"]
    check("the wallet's renewal says the same", wallet["renewalBillingPlan"] == "monthly" and wallet["willAutoRenew"]
          and wallet["commitment"] == {"willAutoRenew": False, "autoRenewProductId": YEARLY, "renewalBillingPlan": "monthly",
                                       "renewalPrice": "4.99", "renewalDate": commitment.commitmentRenewalDate}, wallet)
    raw = raw_payload(last.signedRenewalInfo)
    check("renewal info: raw types", raw["renewalBillingPlanType"] == "MONTHLY" and raw["autoRenewStatus"] == 1
          and all(is_int(raw["commitmentInfo"][key]) for key in
                  ["commitmentAutoRenewStatus", "commitmentRenewalDate", "commitmentRenewalPrice"]), raw["commitmentInfo"])


def other_products(base, client, verifier):
    """Paid up front: BILLED_UPFRONT, no commitment; not a subscription: no plan at all."""
    upfront = pay(base, "alice", YEARLY)
    settled(base, "alice", upfront)
    decoded = verifier.verify_and_decode_signed_transaction(client.get_transaction_info(upfront).signedTransactionInfo)
    check("up front: BILLED_UPFRONT, no commitmentInfo", decoded.billingPlanType == BillingPlanType.BILLED_UPFRONT
          and decoded.commitmentInfo is None, decoded)
    renewal = verifier.verify_and_decode_renewal_info(
        client.get_all_subscription_statuses(upfront).data[0].lastTransactions[0].signedRenewalInfo)
    check("up front: renewal BILLED_UPFRONT, no commitmentInfo", renewal.renewalBillingPlanType == RenewalBillingPlanType.BILLED_UPFRONT
          and renewal.commitmentInfo is None, renewal)
    gems = pay(base, "alice", "com.example.storefront.gems.100")
    settled(base, "alice", gems)
    raw = raw_payload(client.get_transaction_info(gems).signedTransactionInfo)
    check("a consumable: no billingPlanType, no commitmentInfo", "billingPlanType" not in raw and "commitmentInfo" not in raw, raw)


def notifications(admin, receiver, verifier, record, ids, when_renewed):
    """DID_RENEW for payments 2 and 3 carry their place in the commitment; the cancel is
    AUTO_RENEW_DISABLED with the commitment off and the subscription still renewing."""
    wait_until_delivered(admin)
    renewed, disabled = [], []
    for payload in receiver.payloads:
        decoded = verifier.verify_and_decode_notification(payload)
        if decoded.rawNotificationType == "DID_RENEW":
            renewed.append(verifier.verify_and_decode_signed_transaction(decoded.data.signedTransactionInfo))
        if decoded.rawSubtype == "AUTO_RENEW_DISABLED":
            disabled.append(verifier.verify_and_decode_renewal_info(decoded.data.signedRenewalInfo))
    told = sorted((t.transactionId, t.billingPlanType, t.commitmentInfo.billingPeriodNumber,
                   t.commitmentInfo.commitmentPrice) for t in renewed)
    stored = [(i, BillingPlanType.MONTHLY, record[i]["commitment"]["billingPeriodNumber"], 59880) for i in ids[1:]]
    check("DID_RENEW for payments 2 and 3, MONTHLY with their commitment", told == stored, (told, stored))
    # A notification is signed when first delivered, with the transaction as it is then; renewing
    # payment 3 early ended payment 2's month early and moved its commitment's end by as much.
    ends = {t.transactionId: t.commitmentInfo.commitmentExpiresDate for t in renewed}
    check("DID_RENEW: the commitment's end the store had", all(
        ends[i] in (when_renewed[i], record[i]["commitment"]["expiresDate"]) for i in ids[1:]), (ends, when_renewed))
    check("AUTO_RENEW_DISABLED: the commitment off, the months left on", len(disabled) == 1
          and disabled[0].autoRenewStatus == AutoRenewStatus.ON
          and disabled[0].commitmentInfo.commitmentAutoRenewStatus == AutoRenewStatus.OFF, disabled)


def verify_receipt(base, receipt, client, verifier, ids):
    """verifyReceipt has no plan fields: each monthly payment is its own latest_receipt_info entry."""
    request = urllib.request.Request(base + "/verifyReceipt", method="POST", data=json.dumps({"receipt-data": receipt}).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as answer:
        body = json.loads(answer.read())
    entries = sorted((item for item in body.get("latest_receipt_info", []) if item["product_id"] == YEARLY),
                     key=lambda item: int(item["transaction_id"]))
    expiries = [verifier.verify_and_decode_signed_transaction(client.get_transaction_info(i).signedTransactionInfo).expiresDate
                for i in ids]
    check("verifyReceipt: one entry per monthly payment, each with its month's expiry", body["status"] == 0
          and [item["transaction_id"] for item in entries] == ids
          and [int(item["expires_date_ms"]) for item in entries] == expiries and len(set(expiries)) == 3, entries)
    check("verifyReceipt: no plan fields", not any("billing" in key or "commitment" in key for item in entries for key in item),
          entries[:1])


if __name__ == "__main__":
    main()
