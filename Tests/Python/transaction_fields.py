"""Every field Apple documents as present in a signed transaction, read with Apple's own library
from every transaction a client can fetch: a consumable (then refunded), a non-consumable, a
non-renewing subscription, an auto-renewable subscription and its renewal, a plan change's copy of
the period in force, and a family member's shared copy. Each is read through Get Transaction Info
and, for its account, Get Transaction History.

Apple's JWSTransactionDecodedPayload: `expiresDate`, `subscriptionGroupIdentifier` and
`webOrderLineItemId` are auto-renewable subscriptions'; a non-renewing subscription has no
`expiresDate`; a refunded transaction has `revocationDate` and `revocationReason`.

Usage: transaction_fields.py BASE_URL KEY_FILE ISSUER_ID KEY_ID BUNDLE_ID ADMIN_TOKEN WORK_DIR
Prints one line per check; exits 1 at the first that fails.
"""
import os
import sys

from appstoreserverlibrary.api_client import GetTransactionHistoryVersion
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.TransactionHistoryRequest import TransactionHistoryRequest

sys.path.insert(0, os.path.dirname(__file__))
from commitment_plan import pay, raw_payload, settled  # noqa: E402
from server_notifications import Admin, apple_clients, check  # noqa: E402

PREFIX = "com.example.storefront."
EVERY = ["transactionId", "originalTransactionId", "bundleId", "productId", "purchaseDate", "originalPurchaseDate",
         "quantity", "type", "inAppOwnershipType", "signedDate", "environment", "transactionReason", "storefront",
         "storefrontId", "price", "currency", "appTransactionId"]
AUTO_RENEWABLE = ["expiresDate", "subscriptionGroupIdentifier", "webOrderLineItemId"]
REFUNDED = ["revocationDate", "revocationReason"]


def buy(base, account, product):
    transaction = settled(base, account, pay(base, account, PREFIX + product))
    check("%s bought %s" % (account, product), transaction["state"] in ("purchased", "restored"), transaction)
    return transaction["transactionId"]


def fields_of(what, jws, verifier):
    """Checks one signed transaction's fields; returns its decoded payload."""
    decoded, raw = verifier.verify_and_decode_signed_transaction(jws), raw_payload(jws)
    wanted = EVERY + (AUTO_RENEWABLE if decoded.rawType == "Auto-Renewable Subscription" else [])
    wanted += REFUNDED if "revocationDate" in raw else []
    missing = [key for key in wanted if key not in raw]
    check("%s %s (%s): every field Apple documents as present" % (what, decoded.transactionId, decoded.rawType),
          not missing, (missing, raw))
    if decoded.rawType == "Non-Renewing Subscription":
        check("%s %s: no expiresDate on a non-renewing subscription" % (what, decoded.transactionId),
              "expiresDate" not in raw, raw)
    return decoded


def history(client, transaction_id):
    token, signed = None, []
    while True:
        page = client.get_transaction_history(transaction_id, token, TransactionHistoryRequest(),
                                              GetTransactionHistoryVersion.V2)
        signed += page.signedTransactions
        token = page.revision
        if not page.hasMore:
            return signed


def main():
    base, key_file, issuer, key_id, bundle, admin_token, _work = sys.argv[1:8]
    admin = Admin(base, admin_token)
    client, verifier, root_url = apple_clients(base, key_file, issuer, key_id, bundle)

    gems = buy(base, "alice", "gems.100")
    buy(base, "alice", "removeads")
    buy(base, "alice", "pass.season")
    monthly = buy(base, "alice", "premium.monthly")
    admin.call("POST", "/admin/transactions/%s/renew" % monthly)
    buy(base, "alice", "premium.yearly")  # a crossgrade: a copy of the period in force
    buy(base, "alice", "theme.dark")  # shared with kid, alice's family
    admin.call("POST", "/admin/transactions/%s/refund" % gems)

    listed = admin.call("GET", "/admin/transactions")["transactions"]
    kinds = {(item["account"], item["state"]) for item in listed}
    check("a family member's copy is among them", ("kid", "purchased") in kinds or ("kid", "restored") in kinds, kinds)
    read = set()
    for item in listed:
        if item["state"] not in ("purchased", "restored"):
            continue
        decoded = fields_of("Get Transaction Info", client.get_transaction_info(item["transactionId"]).signedTransactionInfo,
                            verifier)
        read.add(decoded.rawType)
    for account in sorted({item["account"] for item in listed}):
        first = next(item["transactionId"] for item in listed if item["account"] == account)
        for jws in history(client, first):
            read.add(fields_of("Get Transaction History (%s)" % account, jws, verifier).rawType)
    check("every product type read", read == {"Consumable", "Non-Consumable", "Non-Renewing Subscription",
                                              "Auto-Renewable Subscription"}, read)
    print("all checks passed (%d transactions listed)" % len(listed))


if __name__ == "__main__":
    main()
