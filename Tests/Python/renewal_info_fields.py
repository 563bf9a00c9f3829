"""Every field Apple documents as present in an auto-renewable subscription's renewal info, read with
Apple's own library through the subscription's life: in force, auto-renew off, a declined price
increase, refunded, expired, and billing retry given up. Apple: `renewalDate` is "always present in
the payload for auto-renewable subscriptions, even for expired subscriptions"; `expirationIntent` is
the reason the subscription expired; `commitmentInfo` is "only present ... when the subscription is
currently in a commitment". Get All Subscription Statuses and the EXPIRED notifications are checked.

Usage: renewal_info_fields.py BASE_URL KEY_FILE ISSUER_ID KEY_ID BUNDLE_ID ADMIN_TOKEN WORK_DIR
Prints one line per check; exits 1 at the first that fails.
"""
import base64
import json
import os
import sys
import time

from appstoreserverlibrary.models.Environment import Environment

sys.path.insert(0, os.path.dirname(__file__))
from commitment_plan import pay, settled  # noqa: E402
from notification_receiver import Receiver  # noqa: E402
from server_notifications import Admin, apple_clients, check, wait_until_delivered  # noqa: E402

YEARLY = "com.example.storefront.premium.yearly"
MONTHLY = "com.example.storefront.premium.monthly"
# Present in every auto-renewable subscription's renewal info, whatever its state.
ALWAYS = ["originalTransactionId", "productId", "autoRenewProductId", "autoRenewStatus", "isInBillingRetryPeriod",
          "signedDate", "environment", "recentSubscriptionStartDate", "renewalDate", "currency", "renewalPrice",
          "appTransactionId", "renewalBillingPlanType"]


def raw_payload(jws):
    part = jws.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))


class Subscriptions:
    def __init__(self, client, verifier):
        self.client, self.verifier = client, verifier

    def status(self, transaction_id):
        """The chain's status code, its latest transaction and its renewal info, decoded by Apple's models."""
        item = self.client.get_all_subscription_statuses(transaction_id).data[0].lastTransactions[0]
        latest = self.verifier.verify_and_decode_signed_transaction(item.signedTransactionInfo)
        renewal = self.verifier.verify_and_decode_renewal_info(item.signedRenewalInfo)
        return item.rawStatus, latest, renewal, raw_payload(item.signedRenewalInfo)

    def check_fields(self, what, transaction_id, status, intent=None, committed=False):
        code, latest, renewal, raw = self.status(transaction_id)
        check("%s: status %d" % (what, status), code == status, code)
        missing = [key for key in ALWAYS if getattr(renewal, key) is None or key not in raw]
        check("%s: every field Apple documents as present" % what, not missing, (missing, raw))
        check("%s: renewalDate is the latest period's expiry" % what, renewal.renewalDate == latest.expiresDate,
              (renewal.renewalDate, latest.expiresDate))
        check("%s: renewalPrice in milliunits" % what, renewal.renewalPrice > 0 and renewal.currency == latest.currency,
              (renewal.renewalPrice, renewal.currency))
        check("%s: expirationIntent %s" % (what, intent), renewal.rawExpirationIntent == intent, raw)
        check("%s: commitmentInfo %s" % (what, "present" if committed else "absent"),
              (renewal.commitmentInfo is not None) == committed, raw)
        return latest, renewal


def main():
    base, key_file, issuer, key_id, bundle, admin_token, work = sys.argv[1:8]
    admin = Admin(base, admin_token)
    client, verifier, root_url = apple_clients(base, key_file, issuer, key_id, bundle)
    receiver = Receiver(root_url, bundle, os.path.join(work, "accepted.jsonl")).start()
    admin.call("PUT", "/admin/notification-urls", {"urls": ["http://127.0.0.1:%d/apple" % receiver.port]})
    subscriptions = Subscriptions(client, verifier)

    commitment(base, admin, subscriptions)
    declined_increase(base, admin, subscriptions)
    expired = billing_retry_given_up(base, admin, subscriptions)
    expired_notifications(admin, receiver, verifier, expired)
    print("all checks passed (%d notifications)" % len(receiver.accepted))


def commitment(base, admin, subscriptions):
    """lena's monthly plan: in force, then auto-renew off (the months left are billed), then the
    month in force refunded, which ends the commitment."""
    first = pay(base, "lena", YEARLY, "monthly")
    settled(base, "lena", first)
    subscriptions.check_fields("monthly plan", first, 1, committed=True)
    admin.call("POST", "/admin/transactions/%s/auto-renew/off" % first)
    _, renewal = subscriptions.check_fields("monthly plan, auto-renew off", first, 1, committed=True)
    check("monthly plan, auto-renew off: the next commitment is off", renewal.commitmentInfo.rawCommitmentAutoRenewStatus == 0,
          renewal.commitmentInfo)
    admin.call("POST", "/admin/transactions/%s/refund" % first)
    subscriptions.check_fields("monthly plan, refunded", first, 5, intent=1)


def declined_increase(base, admin, subscriptions):
    """alice declines a price increase: auto-renew off, still in force, not expired yet; then expired."""
    first = pay(base, "alice", MONTHLY)
    settled(base, "alice", first)
    subscriptions.check_fields("up front", first, 1)
    admin.call("POST", "/admin/transactions/%s/price-increase/request" % first)
    admin.call("POST", "/admin/transactions/%s/price-increase/decline" % first)
    _, renewal = subscriptions.check_fields("price increase declined, in force", first, 1)
    check("price increase declined: auto-renew off", renewal.rawAutoRenewStatus == 0, renewal)
    admin.call("POST", "/admin/transactions/%s/expire" % first)
    latest, _ = subscriptions.check_fields("price increase declined, expired", first, 2, intent=3)
    check("expired: renewalDate in the past", latest.expiresDate <= time.time() * 1000, latest.expiresDate)


def billing_retry_given_up(base, admin, subscriptions):
    """chloe's monthly plan at two seconds a period with every renewal failing: billing retry runs
    out and the subscription, and its commitment, end."""
    admin.call("PUT", "/admin/controls", {"timeRate": "2s", "billingIssues": True})
    first = pay(base, "chloe", YEARLY, "monthly")
    settled(base, "chloe", first)
    # Between a period's end and the sweep that finds it the status is briefly 2: wait for billing
    # retry (3) first, then for its end.
    deadline, seen = time.time() + 60, []
    while seen[-1:] != [2] or 3 not in seen:
        check("billing retry starts and ends within a minute", time.time() < deadline, seen)
        code = subscriptions.status(first)[0]
        if code == 3 or 3 in seen:
            seen.append(code)
        time.sleep(0.2)
    admin.call("PUT", "/admin/controls", {"timeRate": "real", "billingIssues": False})
    subscriptions.check_fields("billing retry given up", first, 2, intent=2)
    return first


def expired_notifications(admin, receiver, verifier, expired):
    """EXPIRED notifications carry the same renewal info: renewalDate and renewalPrice included."""
    wait_until_delivered(admin)
    told = []
    for payload in receiver.payloads:
        decoded = verifier.verify_and_decode_notification(payload)
        if decoded.rawNotificationType == "EXPIRED":
            told.append((decoded.rawSubtype, raw_payload(decoded.data.signedRenewalInfo)))
    check("EXPIRED told for the declined increase and the billing retry",
          sorted(subtype for subtype, _ in told) == ["BILLING_RETRY", "PRICE_INCREASE"], [s for s, _ in told])
    for subtype, raw in told:
        missing = [key for key in ALWAYS if key not in raw]
        check("EXPIRED/%s: every field Apple documents as present" % subtype, not missing, (missing, raw))
        check("EXPIRED/%s: no commitmentInfo" % subtype, "commitmentInfo" not in raw, raw)
    retry = [raw for subtype, raw in told if subtype == "BILLING_RETRY"][0]
    check("EXPIRED/BILLING_RETRY: about the chain given up", retry["originalTransactionId"] == expired, retry)


if __name__ == "__main__":
    main()
