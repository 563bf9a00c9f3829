"""App Store Server Notifications V2 from `storefront serve`, received and read back with
Apple's own library, as a backend developer would.

Usage: server_notifications.py BASE_URL KEY_FILE ISSUER_ID KEY_ID BUNDLE_ID ADMIN_TOKEN WORK_DIR
A receiver in this process refuses 30 % of deliveries. Prints one line per check; exits 1 at
the first that fails.
"""
import hashlib
import json
import os
import sys
import time
import urllib.request
import uuid

from appstoreserverlibrary.api_client import APIError, APIException, AppStoreServerAPIClient, GetTransactionHistoryVersion
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.ExtendReasonCode import ExtendReasonCode
from appstoreserverlibrary.models.ExtendRenewalDateRequest import ExtendRenewalDateRequest
from appstoreserverlibrary.models.InAppOwnershipType import InAppOwnershipType
from appstoreserverlibrary.models.MassExtendRenewalDateRequest import MassExtendRenewalDateRequest
from appstoreserverlibrary.models.NotificationHistoryRequest import NotificationHistoryRequest
from appstoreserverlibrary.models.NotificationTypeV2 import NotificationTypeV2
from appstoreserverlibrary.models.RevocationReason import RevocationReason
from appstoreserverlibrary.models.RevocationType import RevocationType
from appstoreserverlibrary.models.SendAttemptResult import SendAttemptResult
from appstoreserverlibrary.models.TransactionHistoryRequest import TransactionHistoryRequest
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier

sys.path.insert(0, os.path.dirname(__file__))
from notification_receiver import Receiver  # noqa: E402

# The receiver main() starts, for the checks after its own.
RECEIVED = []


def check(name, condition, detail=""):
    print(("ok " if condition else "FAILED ") + name + (": " + str(detail) if detail else ""), flush=True)
    if not condition:
        sys.exit(1)


class Admin:
    def __init__(self, base, token):
        self.base, self.token = base, token

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={"Authorization": "Bearer " + self.token, "Content-Type": "application/json"})
        with urllib.request.urlopen(request) as answer:
            text = answer.read()
            return json.loads(text) if text else None


def buy(base, product, account="alice"):
    headers = {"Content-Type": "application/json", "Idempotency-Key": str(uuid.uuid4())}
    request = urllib.request.Request(base + "/v1/payments", method="POST", headers=headers,
                                     data=json.dumps({"account": account, "productId": "com.example.storefront." + product}).encode())
    with urllib.request.urlopen(request) as answer:
        return json.loads(answer.read())["transaction"]["transactionId"]


def wait_until_delivered(admin, deadline_seconds=120):
    deadline = time.time() + deadline_seconds
    while time.time() < deadline:
        outbox = admin.call("GET", "/admin/notifications?limit=1000")["notifications"]
        if outbox and all(not item["pending"] and item["attempts"] and item["attempts"][-1]["result"] == "SUCCESS" for item in outbox):
            return outbox
        admin.call("POST", "/admin/notifications/send-pending")
        time.sleep(0.1)
    return admin.call("GET", "/admin/notifications?limit=1000")["notifications"]


def wait_for_notification(admin, receiver, notification_type, transaction_id, deadline_seconds=120):
    """The receiver's line for the first `notification_type` about `transaction_id`, polled for (the
    server delivers from its outbox in the background, retrying refused attempts) until the deadline."""
    deadline = time.time() + deadline_seconds
    while True:
        with receiver.lock:
            lines = [line for line in receiver.accepted
                     if line["type"] == notification_type and line["transactionId"] == transaction_id]
        if lines or time.time() >= deadline:
            return lines[0] if lines else None
        admin.call("POST", "/admin/notifications/send-pending")
        time.sleep(0.1)


def check_reversal(client, verifier, receiver, reversal, reinstated):
    """REFUND_REVERSED verifies and decodes with Apple's library, and the transaction it carries, as
    Get Transaction Info's, is no longer revoked."""
    check("told REFUND_REVERSED about the reinstated gems", reversal is not None and reversal["ownership"] == "PURCHASED", reversal)
    with receiver.lock:
        payload = receiver.payloads[[line["uuid"] for line in receiver.accepted].index(reversal["uuid"])]
    decoded = verifier.verify_and_decode_notification(payload)
    carried = verifier.verify_and_decode_signed_transaction(decoded.data.signedTransactionInfo)
    check("REFUND_REVERSED decodes as Apple's type", decoded.notificationType == NotificationTypeV2.REFUND_REVERSED
          and decoded.subtype is None, decoded.rawNotificationType)
    fetched = verifier.verify_and_decode_signed_transaction(client.get_transaction_info(reinstated).signedTransactionInfo)
    for name, transaction in [("carried", carried), ("fetched", fetched)]:
        check("the reinstated gems' JWS (%s): not revoked" % name, transaction.transactionId == reinstated
              and transaction.revocationDate is None and transaction.revocationReason is None
              and transaction.revocationType is None and transaction.revocationPercentage is None, transaction)


def all_history(client, request):
    """Every page of a history request, following paginationToken."""
    items, token, pages = [], None, 0
    while True:
        page = client.get_notification_history(token, request)
        items += page.notificationHistory
        pages += 1
        token = page.paginationToken
        if not page.hasMore:
            return items, pages


def apple_clients(base, key_file, issuer, key_id, bundle):
    """Apple's API client pointed at the server under test, and Apple's verifier trusting its root:
    (client, verifier, the root certificate's URL)."""
    client = AppStoreServerAPIClient(open(key_file, "rb").read(), key_id, issuer, bundle, Environment.SANDBOX)
    client._base_url = base
    root_url = base + "/.well-known/storefront-root-ca.cer"
    verifier = SignedDataVerifier([urllib.request.urlopen(root_url).read()], False, Environment.SANDBOX, bundle)
    return client, verifier, root_url


def main():
    base, key_file, issuer, key_id, bundle, admin_token, work = sys.argv[1:8]
    admin = Admin(base, admin_token)
    client, verifier, root_url = apple_clients(base, key_file, issuer, key_id, bundle)

    try:
        client.request_test_notification()
        check("no URL: 4040007", False)
    except APIException as error:
        check("no URL: 4040007", error.raw_api_error == 4040007 and error.http_status_code == 404, error.raw_api_error)

    receiver = Receiver(root_url, bundle, os.path.join(work, "accepted.jsonl"), fail_rate=0.3, seed=7).start()
    RECEIVED.append(receiver)
    admin.call("PUT", "/admin/notification-urls", {"urls": ["http://127.0.0.1:%d/apple" % receiver.port]})
    admin.call("PUT", "/admin/controls", {"timeRate": "2s"})

    subscription = buy(base, "premium.monthly")
    gems = buy(base, "gems.100")
    ads = buy(base, "removeads")
    extra_gems = [buy(base, "gems.100") for _ in range(20)]
    admin.call("POST", "/admin/transactions/%s/refund?reason=app-issue" % gems)
    # A refund the App Store reverses after a dispute: REFUND, then REFUND_REVERSED.
    reinstated = extra_gems[0]
    admin.call("POST", "/admin/transactions/%s/refund" % reinstated)
    admin.call("POST", "/admin/transactions/%s/reverse-refund" % reinstated)
    admin.call("POST", "/admin/transactions/%s/auto-renew/off" % subscription)
    # Consumption data is asked for a subscription (and a consumable), never for a non-consumable.
    admin.call("POST", "/admin/transactions/%s/request-refund?reason=unintended-purchase" % subscription)
    admin.call("POST", "/admin/transactions/%s/decline-refund" % subscription)
    admin.call("POST", "/admin/transactions/%s/request-refund" % ads)
    admin.call("POST", "/admin/transactions/%s/decline-refund" % ads)
    # alice's family (kid) shares the Dark Theme; refunding it revokes kid's copy.
    theme = buy(base, "theme.dark")
    admin.call("POST", "/admin/transactions/%s/refund" % theme)
    token = client.request_test_notification().testNotificationToken
    reversal = wait_for_notification(admin, receiver, "REFUND_REVERSED", reinstated)
    outbox = wait_until_delivered(admin)

    errors = [line for line in receiver.accepted if "error" in line]
    check("every payload verifies with Apple's verifier", not errors, errors[:1])
    uuids = [line["uuid"] for line in receiver.accepted]
    check("no notification accepted twice", len(uuids) == len(set(uuids)), len(uuids))
    check("every notification delivered", set(uuids) == {item["notificationUUID"] for item in outbox}, (len(uuids), len(outbox)))
    check("some deliveries were refused and retried", receiver.refused > 0, receiver.refused)
    told = [(line["type"], line["subtype"]) for line in receiver.accepted]
    for expected in [("SUBSCRIBED", "INITIAL_BUY"), ("ONE_TIME_CHARGE", None), ("REFUND", None),
                     ("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED"), ("CONSUMPTION_REQUEST", None),
                     ("REFUND_DECLINED", None), ("TEST", None)]:
        check("told " + "/".join(filter(None, expected)), expected in told, told)
    check_reversal(client, verifier, receiver, reversal, reinstated)
    refund = next(line for line in receiver.accepted if line["type"] == "REFUND" and line["transactionId"] == gems)
    check("the refund is about the refunded transaction", refund["ownership"] == "PURCHASED", refund)
    asked = [line["transactionId"] for line in receiver.accepted if line["type"] == "CONSUMPTION_REQUEST"]
    check("CONSUMPTION_REQUEST for the subscription, none for the non-consumable", asked == [subscription], asked)
    reasons = [line["consumptionRequestReason"] for line in receiver.accepted if line["type"] == "CONSUMPTION_REQUEST"]
    check("CONSUMPTION_REQUEST carries the customer's reason", reasons == ["UNINTENDED_PURCHASE"], reasons)
    others = [line for line in receiver.accepted if line["type"] != "CONSUMPTION_REQUEST" and line["consumptionRequestReason"]]
    check("no other notification carries a consumption request reason", not others, others[:1])
    check("REFUND carries reason=app-issue as revocationReason 1", refund["revocationReason"] == 1, refund)
    refunded_gems = verifier.verify_and_decode_signed_transaction(client.get_transaction_info(gems).signedTransactionInfo)
    check("the refunded gems' JWS: an issue with the app", refunded_gems.revocationReason == RevocationReason.REFUNDED_DUE_TO_ISSUE,
          refunded_gems)
    shared = [line for line in receiver.accepted if line["ownership"] == "FAMILY_SHARED"]
    check("kid's copy of the Dark Theme: bought, then revoked", sorted(line["type"] for line in shared) == ["ONE_TIME_CHARGE", "REVOKE"]
          and len({line["transactionId"] for line in shared}) == 1 and shared[0]["transactionId"] != theme, shared)
    revoke = next(line for line in shared if line["type"] == "REVOKE")
    check("REVOKE carries the refund's reason", revoke["revocationReason"] == 0, revoke)
    kid_history = client.get_transaction_history(revoke["transactionId"], None, TransactionHistoryRequest(inAppOwnershipType=InAppOwnershipType.FAMILY_SHARED),
                                                 GetTransactionHistoryVersion.V2)
    copies = [verifier.verify_and_decode_signed_transaction(signed) for signed in kid_history.signedTransactions]
    check("kid's history, FAMILY_SHARED only", [(t.transactionId, t.inAppOwnershipType, t.revocationReason, t.revocationType) for t in copies]
          == [(revoke["transactionId"], InAppOwnershipType.FAMILY_SHARED, RevocationReason.REFUNDED_FOR_OTHER_REASON, RevocationType.FAMILY_REVOKE)],
          copies)
    refunded = verifier.verify_and_decode_signed_transaction(client.get_transaction_info(theme).signedTransactionInfo)
    check("alice's refund: a full one", refunded.revocationType == RevocationType.REFUND_FULL and refunded.revocationPercentage == 100000
          and refunded.inAppOwnershipType == InAppOwnershipType.PURCHASED, refunded)

    status = client.get_test_notification_status(token)
    decoded = verifier.verify_and_decode_notification(status.signedPayload)
    check("test notification status", decoded.notificationType == NotificationTypeV2.TEST
          and status.sendAttempts[-1].sendAttemptResult == SendAttemptResult.SUCCESS, status.sendAttempts)

    now = int(time.time() * 1000)
    request = NotificationHistoryRequest(startDate=now - 3_600_000, endDate=now + 3_600_000)
    items, pages = all_history(client, request)
    check("history holds every notification, 20 a page", len(items) == len(outbox) and pages == (len(outbox) + 19) // 20,
          (len(items), len(outbox), pages))
    sent = {hashlib.sha256(item.signedPayload.encode()).hexdigest() for item in items}
    received = {line["payloadSha"] for line in receiver.accepted}
    check("history's payloads are the bytes delivered", sent == received)
    retried = [item for item in items if len(item.sendAttempts) > 1]
    check("history shows refused attempts before the success", retried and all(
        item.sendAttempts[0].sendAttemptResult == SendAttemptResult.UNSUCCESSFUL_HTTP_RESPONSE_CODE
        and item.sendAttempts[-1].sendAttemptResult == SendAttemptResult.SUCCESS for item in retried), len(retried))

    refunds = client.get_notification_history(None, NotificationHistoryRequest(
        startDate=now - 3_600_000, endDate=now + 3_600_000, notificationType=NotificationTypeV2.REFUND)).notificationHistory
    check("history by type: the two gems and the Dark Theme", len(refunds) == 3, len(refunds))
    # Read beside the whole history, which may have grown since (the disabled subscription's EXPIRED).
    alice, _ = all_history(client, NotificationHistoryRequest(startDate=now - 3_600_000, endDate=now + 3_600_000, transactionId=subscription))
    everything, _ = all_history(client, request)
    check("history by customer: alice's, not the test or kid's two", len(alice) == len(everything) - 3,
          (len(alice), len(everything)))
    for bad, code in [(NotificationHistoryRequest(startDate=now, endDate=now - 1000), 4000013),
                      (NotificationHistoryRequest(startDate=now - 200 * 86_400_000, endDate=now), 4000012)]:
        try:
            client.get_notification_history(None, bad)
            check("refused with %d" % code, False)
        except APIException as error:
            check("refused with %d" % code, error.raw_api_error == code, error.raw_api_error)
    try:
        client.get_notification_history("bm90LWEtdG9rZW4", request)
        check("bad pagination token: 4000014", False)
    except APIException as error:
        check("bad pagination token: 4000014", error.raw_api_error == 4000014, error.raw_api_error)
    # Every type Apple's library knows is a filter, those this store cannot cause too: a backend
    # asks for them whether or not any were sent. After the counts above: the subscription's
    # EXPIRED may be sent meanwhile.
    for kind in NotificationTypeV2:
        try:
            client.get_notification_history(None, NotificationHistoryRequest(
                startDate=now - 3_600_000, endDate=now + 3_600_000, notificationType=kind))
        except APIException as error:
            check("history filters by %s" % kind.value, False, error.raw_api_error)
    check("history filters by each of Apple's %d types" % len(NotificationTypeV2), True)
    mass_extension(client, verifier, admin, base)
    print("all checks passed (%d notifications, %d refused attempts, %d history pages)" % (len(outbox), receiver.refused, pages))


def mass_extension(client, verifier, admin, base):
    """Extend Subscription Renewal Dates for All Active Subscribers: kenji's and lena's Premium Monthly
    are extended (RENEWAL_EXTENDED each); chloe's, extended twice already, is not (RENEWAL_EXTENSION/FAILURE);
    then one RENEWAL_EXTENSION/SUMMARY with the counts."""
    admin.call("PUT", "/admin/controls", {"timeRate": "real"})
    ids = {account: buy(base, "premium.monthly", account) for account in ["kenji", "lena", "chloe"]}
    for n in range(2):
        client.extend_subscription_renewal_date(ids["chloe"], ExtendRenewalDateRequest(
            extendByDays=1, extendReasonCode=ExtendReasonCode.SERVICE_ISSUE_OR_OUTAGE, requestIdentifier="chloe-%d" % n))
    def expires(account):
        return verifier.verify_and_decode_signed_transaction(client.get_transaction_info(ids[account]).signedTransactionInfo).expiresDate
    kenji_before = expires("kenji")
    request_id = str(uuid.uuid4())
    product = "com.example.storefront.premium.monthly"
    request = MassExtendRenewalDateRequest(extendByDays=7, extendReasonCode=ExtendReasonCode.SERVICE_ISSUE_OR_OUTAGE,
                                           requestIdentifier=request_id, productId=product,
                                           storefrontCountryCodes=["JPN", "DEU", "FRA"])
    answer = client.extend_renewal_date_for_all_active_subscribers(request)
    check("mass extension accepted", answer.requestIdentifier == request_id, answer)
    check("mass extension sent again: 200", client.extend_renewal_date_for_all_active_subscribers(request).requestIdentifier == request_id)
    try:
        client.extend_renewal_date_for_all_active_subscribers(MassExtendRenewalDateRequest(
            extendByDays=91, extendReasonCode=ExtendReasonCode.UNDECLARED, requestIdentifier=str(uuid.uuid4()), productId=product))
        check("mass extension of 91 days refused", False)
    except APIException as error:
        check("mass extension of 91 days refused", error.api_error == APIError.INVALID_EXTEND_BY_DAYS, error.raw_api_error)
    deadline = time.time() + 60
    status = client.get_status_of_subscription_renewal_date_extensions(request_id, product)
    while not status.complete and time.time() < deadline:
        time.sleep(0.2)
        status = client.get_status_of_subscription_renewal_date_extensions(request_id, product)
    check("mass extension complete", status.complete and status.succeededCount == 2 and status.failedCount == 1
          and status.completeDate is not None, status)
    try:
        client.get_status_of_subscription_renewal_date_extensions(str(uuid.uuid4()), product)
        check("status of an unknown request: 4040009", False)
    except APIException as error:
        check("status of an unknown request: 4040009", error.api_error == APIError.STATUS_REQUEST_NOT_FOUND, error.raw_api_error)

    accepted = [line for line in wait_until_told(admin) if line["type"] in ("RENEWAL_EXTENDED", "RENEWAL_EXTENSION")]
    extended = sorted(line["transactionId"] for line in accepted if line["type"] == "RENEWAL_EXTENDED")
    check("RENEWAL_EXTENDED for each extended", extended == sorted([ids["chloe"], ids["chloe"], ids["kenji"], ids["lena"]]), extended)
    failures = [line["transactionId"] for line in accepted if line["subtype"] == "FAILURE"]
    check("RENEWAL_EXTENSION/FAILURE for chloe", failures == [ids["chloe"]], failures)
    summaries = [line["summary"] for line in accepted if line["subtype"] == "SUMMARY"]
    check("one RENEWAL_EXTENSION/SUMMARY, verified by Apple's library", summaries == [{
        "requestIdentifier": request_id, "productId": product, "environment": "Sandbox",
        "bundleId": "com.example.storefront.demo", "storefrontCountryCodes": ["JPN", "DEU", "FRA"],
        "succeededCount": 2, "failedCount": 1}], summaries)
    check("kenji's period runs 7 days longer", expires("kenji") - kenji_before == 7 * 86_400_000, (kenji_before, expires("kenji")))


def wait_until_told(admin):
    """The receiver's lines once the outbox has delivered everything."""
    wait_until_delivered(admin)
    return RECEIVED[0].accepted


if __name__ == "__main__":
    main()
