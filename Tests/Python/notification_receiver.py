"""A notification receiver as a backend would run one, for tests: it verifies every
`signedPayload` with Apple's SignedDataVerifier and refuses some deliveries on purpose.

Usage: notification_receiver.py PORT ROOT_URL BUNDLE_ID ACCEPTED_FILE [FAIL_RATE [SEED]]
PORT 0 picks a free one; the port is printed on the first line ("listening PORT").
Each accepted notification is appended to ACCEPTED_FILE as one JSON line:
{"uuid", "type", "subtype", "transactionId", "ownership", "revocationReason",
"consumptionRequestReason", "summary", "payloadSha"}, `summary` being a mass extension's summary as
Apple's model reads it (or null). A payload that does not verify is answered
400 and written as {"error": ...}. A refused delivery (FAIL_RATE of them, seeded, at
most twice per notification) is answered 500, as a receiver that is down or failing would.
"""
import hashlib
import json
import random
import sys
import threading
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier


class Receiver:
    def __init__(self, root_url, bundle, accepted_file, fail_rate=0.0, seed=1, port=0):
        root = urllib.request.urlopen(root_url).read()
        self.verifier = SignedDataVerifier([root], False, Environment.SANDBOX, bundle)
        self.accepted_file = accepted_file
        self.fail_rate = fail_rate
        self.random = random.Random(seed)
        self.lock = threading.Lock()
        self.refused = 0
        self.refusals = {}
        self.accepted = []
        # The signedPayload of each accepted notification, for a test that reads more of it.
        self.payloads = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length", "0"))
                body = self.rfile.read(length)
                status, line = receiver.receive(body)
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()
                if line is not None:
                    with receiver.lock, open(receiver.accepted_file, "a") as out:
                        out.write(json.dumps(line) + "\n")

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.port = self.server.server_address[1]

    def receive(self, body):
        # At most two refusals per notification: Apple gives up after the sixth attempt, and a
        # test that refused one six times by chance would wait for a delivery that never comes.
        key = hashlib.sha256(body).hexdigest()
        with self.lock:
            refuse = self.refusals.get(key, 0) < 2 and self.random.random() < self.fail_rate
            if refuse:
                self.refused += 1
                self.refusals[key] = self.refusals.get(key, 0) + 1
        if refuse:
            return 500, None
        try:
            payload = json.loads(body)["signedPayload"]
            decoded = self.verifier.verify_and_decode_notification(payload)
            transaction_id = ownership = revocation_reason = None
            if decoded.data and decoded.data.signedTransactionInfo:
                transaction = self.verifier.verify_and_decode_signed_transaction(decoded.data.signedTransactionInfo)
                transaction_id, ownership = transaction.transactionId, transaction.rawInAppOwnershipType
                revocation_reason = transaction.rawRevocationReason
            if decoded.data and decoded.data.signedRenewalInfo:
                self.verifier.verify_and_decode_renewal_info(decoded.data.signedRenewalInfo)
        except Exception as error:  # a test receiver reports every failure as data
            return 400, {"error": repr(error)}
        summary = None
        if decoded.summary:
            summary = {"requestIdentifier": decoded.summary.requestIdentifier, "productId": decoded.summary.productId,
                       "environment": decoded.summary.rawEnvironment, "bundleId": decoded.summary.bundleId,
                       "storefrontCountryCodes": decoded.summary.storefrontCountryCodes,
                       "succeededCount": decoded.summary.succeededCount, "failedCount": decoded.summary.failedCount}
        line = {"uuid": decoded.notificationUUID, "type": decoded.rawNotificationType, "subtype": decoded.rawSubtype,
                "transactionId": transaction_id, "ownership": ownership, "revocationReason": revocation_reason,
                "consumptionRequestReason": decoded.data.rawConsumptionRequestReason if decoded.data else None,
                "summary": summary, "payloadSha": hashlib.sha256(payload.encode()).hexdigest()}
        with self.lock:
            self.accepted.append(line)
            self.payloads.append(payload)
        return 200, line

    def start(self):
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self


def main():
    port, root_url, bundle, accepted_file = sys.argv[1:5]
    fail_rate = float(sys.argv[5]) if len(sys.argv) > 5 else 0.0
    seed = int(sys.argv[6]) if len(sys.argv) > 6 else 1
    receiver = Receiver(root_url, bundle, accepted_file, fail_rate, seed, int(port))
    print("listening", receiver.port, flush=True)
    receiver.server.serve_forever()


if __name__ == "__main__":
    main()
