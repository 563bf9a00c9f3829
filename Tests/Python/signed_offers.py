"""Promotional offers and introductory offer eligibility signed by Apple's own signers
(PromotionalOfferV2SignatureCreator, IntroductoryOfferEligibilitySignatureCreator) with the
catalog's offers key, sent to `storefront serve` as StoreKit sends them
(`promotionalOfferCompactJWS`, `introductoryOfferEligibilityCompactJWS` on POST /v1/payments):
each is applied, and a tampered, wrongly keyed or reused one fails the payment with SKError 12.

Usage: signed_offers.py BASE_URL ADMIN_TOKEN CATALOG_JSON
       signed_offers.py --sign promotional|intro CATALOG_JSON PRODUCT [OFFER_ID|true|false]
The second form prints one JWS, for `storefront buy --offer-jws` / `--intro-eligibility-jws`.
Prints one line per check; exits 1 at the first that fails.
"""
import json
import os
import sys
import urllib.request
import uuid

from appstoreserverlibrary.jws_signature_creator import (IntroductoryOfferEligibilitySignatureCreator,
                                                         PromotionalOfferV2SignatureCreator)
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

sys.path.insert(0, os.path.dirname(__file__))
from server_notifications import Admin, check  # noqa: E402

ISSUER = "57246542-96fe-1a63-e053-0824d011072a"
MONTHLY = "com.example.storefront.premium.monthly"
HALF_PRICE = "com.example.storefront.premium.halfprice"


def signers(catalog_path, pem=None):
    with open(catalog_path) as file:
        catalog = json.load(file)
    key = catalog["offerSigningKey"]
    pem = pem or key["privateKey"].encode()
    bundle = catalog["bundleId"]
    return (PromotionalOfferV2SignatureCreator(pem, key["keyId"], ISSUER, bundle),
            IntroductoryOfferEligibilitySignatureCreator(pem, key["keyId"], ISSUER, bundle))


def pay(base, account, extra):
    body = dict({"account": account, "productId": MONTHLY}, **extra)
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


def bought(base, account, extra):
    return settled(base, account, pay(base, account, extra))


def error_code(transaction):
    return (transaction.get("error") or {}).get("code")


def tampered(jws):
    """The same header and signature over a payload naming another offer."""
    header, payload, signature = jws.split(".")
    import base64
    claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    claims["offerIdentifier"] = "com.example.storefront.premium.other"
    forged = base64.urlsafe_b64encode(json.dumps(claims).encode()).decode().rstrip("=")
    return ".".join([header, forged, signature])


def main():
    if sys.argv[1] == "--sign":
        kind, catalog_path, product, value = sys.argv[2:6]
        promotional, intro = signers(catalog_path)
        if kind == "promotional":
            print(promotional.create_signature(product, value, None))
        else:
            print(intro.create_signature(product, value == "true", "2000000000000001"))
        return
    base, token, catalog_path = sys.argv[1:4]
    admin = Admin(base, token)
    promotional, intro = signers(catalog_path)

    # A new subscriber the app's server refuses the free week: full price, no offer.
    refused = intro.create_signature(MONTHLY, False, "2000000000000001")
    first = bought(base, "alice", {"introductoryOfferEligibilityCompactJWS": refused})
    check("a refused introductory offer is not applied", first["state"] == "purchased" and not first.get("offerType"),
          first)
    admin.call("POST", "/admin/transactions/%s/expire" % first["transactionId"])

    other_key = ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    wrong_promotional, wrong_intro = signers(catalog_path, pem=other_key)
    for name, extra in [
        ("a tampered promotional JWS",
         {"promotionalOfferCompactJWS": tampered(promotional.create_signature(MONTHLY, HALF_PRICE, "2000000000000001"))}),
        ("a promotional JWS signed with another key",
         {"promotionalOfferCompactJWS": wrong_promotional.create_signature(MONTHLY, HALF_PRICE, None)}),
        ("an intro eligibility JWS signed with another key",
         {"introductoryOfferEligibilityCompactJWS": wrong_intro.create_signature(MONTHLY, True, "2000000000000001")}),
        ("a promotional JWS for another product",
         {"promotionalOfferCompactJWS": promotional.create_signature(
             "com.example.storefront.premiumplus.monthly", HALF_PRICE, None)}),
    ]:
        transaction = bought(base, "alice", extra)
        check(name + " is refused with SKError 12", transaction["state"] == "failed" and error_code(transaction) == 12,
              transaction)

    # A returning subscriber: the app's server signs the promotional offer, and it applies.
    good = promotional.create_signature(MONTHLY, HALF_PRICE, first["transactionId"])
    offer = bought(base, "alice", {"promotionalOfferCompactJWS": good})
    check("Apple's PromotionalOfferV2SignatureCreator JWS is applied",
          offer["state"] == "purchased" and offer.get("offerType") == "promotional"
          and offer.get("offerId") == HALF_PRICE, offer)
    admin.call("POST", "/admin/transactions/%s/expire" % offer["transactionId"])
    again = bought(base, "alice", {"promotionalOfferCompactJWS": good})
    check("the same JWS again is refused with SKError 12", error_code(again) == 12, again)

    # A returning subscriber whose introductory offer is spent: the app's server allows it again.
    allowed = intro.create_signature(MONTHLY, True, first["transactionId"])
    week = bought(base, "alice", {"introductoryOfferEligibilityCompactJWS": allowed})
    check("Apple's IntroductoryOfferEligibilitySignatureCreator JWS allows the introductory offer",
          week["state"] == "purchased" and week.get("offerType") == "introductory"
          and week.get("offerPaymentMode") == "freeTrial", week)
    print("all checks passed")


if __name__ == "__main__":
    main()
