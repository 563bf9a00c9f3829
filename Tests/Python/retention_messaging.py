"""Apple's Retention Messaging API client, and a Get Retention Message endpoint, against `storefront serve`.

Usage: retention_messaging.py BASE_URL KEY_FILE ISSUER_ID KEY_ID BUNDLE_ID ACCOUNT PRODUCT_ID ORIGINAL_TRANSACTION_ID ADMIN_TOKEN
The server must hold ACCOUNT's subscription to PRODUCT_ID. The endpoint listens on 127.0.0.1 only.
Prints one line per check; exits 1 at the first that fails.
"""
import json
import struct
import sys
import threading
import time
import urllib.request
import uuid
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from appstoreserverlibrary.api_client import APIException, AppStoreServerAPIClient
from appstoreserverlibrary.models.BulletPoint import BulletPoint
from appstoreserverlibrary.models.DefaultConfigurationRequest import DefaultConfigurationRequest
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.ImageSize import ImageSize
from appstoreserverlibrary.models.ImageState import ImageState
from appstoreserverlibrary.models.MessageState import MessageState
from appstoreserverlibrary.models.PerformanceTestRequest import PerformanceTestRequest
from appstoreserverlibrary.models.PerformanceTestStatus import PerformanceTestStatus
from appstoreserverlibrary.models.RealtimeUrlRequest import RealtimeUrlRequest
from appstoreserverlibrary.models.UploadMessageImage import UploadMessageImage
from appstoreserverlibrary.models.UploadMessageRequestBody import UploadMessageRequestBody
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier


def check(name, condition, detail=""):
    print(("ok " if condition else "FAILED ") + name + (": " + str(detail) if detail else ""))
    if not condition:
        sys.exit(1)


def refused(name, call, status, code):
    try:
        call()
        check(name, False, "no error")
    except APIException as error:
        check(name, error.http_status_code == status and error.raw_api_error == code,
              (error.http_status_code, error.raw_api_error, error.error_message))


def png(width, height, color_type=2):
    channels = {2: 3, 6: 4}[color_type]
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    raw = b"".join(b"\x00" + b"\x80" * (width * channels) for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, color_type, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


class Endpoint(BaseHTTPRequestHandler):
    """The developer's Get Retention Message endpoint: verifies the App Store's signature, then answers."""
    verifier = None
    answer = {}
    delay = 0.0
    received = []

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        Endpoint.received.append(Endpoint.verifier.verify_and_decode_realtime_request(body["signedPayload"]))
        time.sleep(Endpoint.delay)
        data = json.dumps(Endpoint.answer).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


def main():
    base, key_file, issuer, key_id, bundle, account, product, original_id, admin_token = sys.argv[1:10]
    client = AppStoreServerAPIClient(open(key_file, "rb").read(), key_id, issuer, bundle, Environment.SANDBOX)
    client._base_url = base
    root = urllib.request.urlopen(base + "/.well-known/storefront-root-ca.cer").read()
    Endpoint.verifier = SignedDataVerifier([root], False, Environment.SANDBOX, bundle)

    def review(kind, identifier, state):
        request = urllib.request.Request("%s/admin/retention/%s/%s/review" % (base, kind, identifier), method="PUT",
                                         data=json.dumps({"state": state}).encode(),
                                         headers={"Authorization": "Bearer " + admin_token,
                                                  "Content-Type": "application/json"})
        return json.loads(urllib.request.urlopen(request).read())

    def shown():
        url = "%s/v1/accounts/%s/retention-message/%s/en-US" % (base, account, product)
        return json.loads(urllib.request.urlopen(url).read()).get("message")

    image, bullet, message, plain = uuid.uuid4(), uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    client.upload_image(image, png(3840, 160), ImageSize.FULL_SIZE)
    client.upload_image(bullet, png(64, 64), ImageSize.BULLET_POINT)
    refused("upload an image twice", lambda: client.upload_image(image, png(3840, 160)), 409, 4090000)
    refused("an image with transparency", lambda: client.upload_image(uuid.uuid4(), png(3840, 160, 6)), 400, 4000161)
    refused("a full-size image of the wrong width", lambda: client.upload_image(uuid.uuid4(), png(100, 160)), 400, 4000161)
    images = {item.imageIdentifier: (item.imageState, item.imageSize) for item in client.get_image_list().imageIdentifiers}
    check("image list", images == {image: (ImageState.APPROVED, ImageSize.FULL_SIZE),
                                   bullet: (ImageState.APPROVED, ImageSize.BULLET_POINT)}, images)

    client.upload_message(message, UploadMessageRequestBody(
        header="Before you go", body="Your streak is 40 days long.",
        image=UploadMessageImage(imageIdentifier=image, altText="A flame with the number 40"),
        bulletPoints=[BulletPoint(text="Offline lessons", imageIdentifier=bullet, altText="A cloud")]))
    client.upload_message(plain, UploadMessageRequestBody(header="Stay a month more", body="Half price next month."))
    refused("upload a message twice", lambda: client.upload_message(plain, UploadMessageRequestBody(header="h", body="b")),
            409, 4090001)
    refused("a message with an unknown image", lambda: client.upload_message(uuid.uuid4(), UploadMessageRequestBody(
        header="h", body="b", image=UploadMessageImage(imageIdentifier=uuid.uuid4(), altText="x"))), 404, 4040014)
    messages = {item.messageIdentifier: item.messageState for item in client.get_message_list().messageIdentifiers}
    check("message list", messages == {message: MessageState.APPROVED, plain: MessageState.APPROVED}, messages)
    refused("delete an image in use", lambda: client.delete_image(image), 403, 4030019)

    review("messages", plain, "REJECTED")
    states = {item.messageIdentifier: item.messageState for item in client.get_message_list().messageIdentifiers}
    check("a message App Review rejected", states[plain] == MessageState.REJECTED, states)
    refused("a rejected message as a default", lambda: client.configure_default_message(
        product, "en-US", DefaultConfigurationRequest(messageIdentifier=plain)), 403, 4030017)
    review("messages", plain, "APPROVED")
    review("images", bullet, "PENDING")
    refused("a message with an image under review as a default", lambda: client.configure_default_message(
        product, "en-US", DefaultConfigurationRequest(messageIdentifier=message)), 403, 4030018)
    review("images", bullet, "APPROVED")

    check("no message before any is configured", shown() is None)
    client.configure_default_message(product, "en-US", DefaultConfigurationRequest(messageIdentifier=message))
    check("get default message", client.get_default_message(product, "en-US").messageIdentifier == message)
    refused("no default for another locale", lambda: client.get_default_message(product, "fr-FR"), 404, 4040020)
    refused("a default for an unknown product", lambda: client.configure_default_message(
        "com.example.nothing", "en-US", DefaultConfigurationRequest(messageIdentifier=message)), 400, 4000023)
    default = shown()
    check("the default message on cancelling", default["source"] == "default" and default["header"] == "Before you go"
          and default["imageAltText"] == "A flame with the number 40" and default["bulletPoints"] == ["Offline lessons"],
          default)

    refused("no realtime URL yet", client.get_realtime_url, 404, 4040021)
    refused("a realtime URL that is not one", lambda: client.configure_realtime_url(RealtimeUrlRequest(realtimeURL="nope")),
            400, 4000215)
    server = ThreadingHTTPServer(("127.0.0.1", 0), Endpoint)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = "http://127.0.0.1:%d/retention" % server.server_address[1]
    client.configure_realtime_url(RealtimeUrlRequest(realtimeURL=url))
    check("get realtime URL", client.get_realtime_url().realtimeURL == url)

    Endpoint.answer = {"message": {"messageIdentifier": str(plain)}}
    chosen = shown()
    request = Endpoint.received[-1]
    check("the realtime URL's choice", chosen["source"] == "realtime" and chosen["header"] == "Stay a month more", chosen)
    check("a signed realtime request", request.originalTransactionId == original_id and request.productId == product
          and request.userLocale == "en-US" and request.environment == Environment.SANDBOX, request)
    Endpoint.delay = 1.0
    late = shown()
    check("too late: the default instead", late["source"] == "default" and "TIMED_OUT" in late["fallbackReason"], late)
    Endpoint.delay = 0.0
    Endpoint.answer = {"message": {"messageIdentifier": str(uuid.uuid4())}}
    check("an unknown message: the default instead", shown()["source"] == "default")

    Endpoint.answer = {"message": {"messageIdentifier": str(plain)}}
    started = client.initiate_performance_test(PerformanceTestRequest(originalTransactionId=original_id))
    check("performance test started", started.config.responseTimeThreshold == 700 and started.requestId, started.config)
    deadline = time.time() + 60
    result = client.get_performance_test_results(started.requestId)
    while result.result == PerformanceTestStatus.PENDING and time.time() < deadline:
        time.sleep(0.2)
        result = client.get_performance_test_results(started.requestId)
    times = result.responseTimes
    check("performance test passed", result.result == PerformanceTestStatus.PASS and result.successRate == 100
          and result.target == url and times.p50 <= times.p90 <= times.p95 <= times.p99, (result.result, times))
    refused("an unknown performance test", lambda: client.get_performance_test_results(str(uuid.uuid4())), 404, 4040018)

    client.delete_realtime_url()
    refused("realtime URL deleted", client.get_realtime_url, 404, 4040021)
    client.delete_default_message(product, "en-US")
    refused("default message deleted", lambda: client.get_default_message(product, "en-US"), 404, 4040020)
    client.delete_message(message)
    refused("delete a message twice", lambda: client.delete_message(message), 404, 4040015)
    client.delete_image(image)
    refused("delete an image twice", lambda: client.delete_image(image), 404, 4040014)
    server.shutdown()
    # Left configured for the command line's cancellation, which the calling test runs next.
    farewell = uuid.uuid4()
    client.upload_message(farewell, UploadMessageRequestBody(header="See you soon?", body="Your lessons stay saved."))
    client.configure_default_message(product, "en-US", DefaultConfigurationRequest(messageIdentifier=farewell))
    print("all checks passed")


if __name__ == "__main__":
    main()
