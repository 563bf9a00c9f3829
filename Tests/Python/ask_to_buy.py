"""Ask to Buy on `storefront serve`, read with Apple's own library as a backend developer would.
Apple's "Testing Ask to Buy in Xcode": after a decline "your app doesn't receive a transaction",
and "any duplicate Ask to Buy requests are consolidated and only resets the 24-hour timer. Once
approved, only 1 purchase is completed". kid asks for 100 gems twice and a parent approves twice:
one purchase, one ONE_TIME_CHARGE. kid asks for Remove Ads and a parent declines: the device's
feed hears nothing more, no notification is sent, and the history has no transaction for it.

Usage: ask_to_buy.py BASE_URL KEY_FILE ISSUER_ID KEY_ID BUNDLE_ID ADMIN_TOKEN WORK_DIR
Prints one line per check; exits 1 at the first that fails.
"""
import json
import os
import sys
import urllib.error
import urllib.request

from appstoreserverlibrary.api_client import GetTransactionHistoryVersion
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.TransactionHistoryRequest import TransactionHistoryRequest

sys.path.insert(0, os.path.dirname(__file__))
from commitment_plan import pay  # noqa: E402
from notification_receiver import Receiver  # noqa: E402
from server_notifications import Admin, apple_clients, check, wait_until_delivered  # noqa: E402

GEMS = "com.example.storefront.gems.100"
ADS = "com.example.storefront.removeads"


def feed(base, account, after=0):
    """Every update of the account's /v1 feed after the cursor, and the cursor after them."""
    updates, cursor = [], after
    while True:
        with urllib.request.urlopen("%s/v1/accounts/%s/updates?after=%d" % (base, account, cursor)) as answer:
            page = json.loads(answer.read())
        updates += [update["transaction"] for update in page["updates"]]
        if not page["updates"]:
            return updates, page["cursor"]
        cursor = page["cursor"]


def refused(admin, path):
    try:
        admin.call("POST", path)
        return None
    except urllib.error.HTTPError as error:
        return error.code


def main():
    base, key_file, issuer, key_id, bundle, admin_token, work = sys.argv[1:8]
    admin = Admin(base, admin_token)
    client, verifier, root_url = apple_clients(base, key_file, issuer, key_id, bundle)
    receiver = Receiver(root_url, bundle, os.path.join(work, "accepted.jsonl")).start()
    admin.call("PUT", "/admin/notification-urls", {"urls": ["http://127.0.0.1:%d/apple" % receiver.port]})

    first = pay(base, "kid", GEMS)
    again = pay(base, "kid", GEMS)
    check("a duplicate request gives no second transaction", again == first, (first, again))
    states = [t["state"] for t in feed(base, "kid")[0] if t["transactionId"] == first]
    check("the device hears its request deferred, twice", states.count("deferred") == 2, states)
    approved = admin.call("POST", "/admin/transactions/%s/approve" % first)["updates"]
    check("the approval completes it", [u["transaction"]["state"] for u in approved] == ["purchased"], approved)
    check("a second approval is refused", refused(admin, "/admin/transactions/%s/approve" % first) == 409)

    asked = pay(base, "kid", ADS)
    _, cursor = feed(base, "kid")
    declined = admin.call("POST", "/admin/transactions/%s/decline" % asked)
    check("a decline answers no update", declined["updates"] == [], declined)
    check("the device hears nothing of the decline", feed(base, "kid", cursor)[0] == [])
    store = next(t for t in admin.call("GET", "/admin/transactions")["transactions"] if t["transactionId"] == asked)
    check("the store's side: declined, still deferred", store["state"] == "deferred" and store["failureContext"] == "declined"
          and "error" not in store, store)

    outbox = wait_until_delivered(admin)
    told = [(line["type"], line.get("transactionId")) for line in receiver.accepted]
    errors = [line for line in receiver.accepted if "error" in line]
    check("every payload verifies with Apple's verifier", not errors and len(told) == len(outbox), errors[:1])
    check("one ONE_TIME_CHARGE, nothing for the decline", told == [("ONE_TIME_CHARGE", first)], told)

    history = client.get_transaction_history(first, None, TransactionHistoryRequest(), GetTransactionHistoryVersion.V2)
    bought = [verifier.verify_and_decode_signed_transaction(jws) for jws in history.signedTransactions]
    check("kid's history: one purchase of the gems", [(t.transactionId, t.productId, t.quantity) for t in bought]
          == [(first, GEMS, 1)], bought)
    print("all checks passed")


if __name__ == "__main__":
    main()
