#!/usr/bin/env python3
"""Verifies JWS from `storefront serve` with Apple's own App Store Server Library.

    verify_signed_data.py [--environment ENV] [--kind KIND] ROOT.cer BUNDLE_ID JWS [JWS ...]

Each JWS is checked by `SignedDataVerifier([root], enable_online_checks=False,
Environment.ENV, bundle_id)` with its default strict X.509 checks, as a backend would. ENV is
SANDBOX (the default), PRODUCTION, XCODE or LOCAL_TESTING (the last two skip signature checks).
KIND is what each JWS is: transaction (the default), renewal-info or app-transaction, decoded by
the verifier's method for it. Prints one line per JWS with what it decoded (an enum the library
does not know yet, such as API 1.22's ASSIGNED, as None beside its raw value); exits 1 naming
the first one refused.
"""
import sys

from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier, VerificationException


def main() -> int:
    arguments = sys.argv[1:]
    environment = Environment.SANDBOX
    kind = "transaction"
    while arguments[:1] in (["--environment"], ["--kind"]) and len(arguments) > 1:
        if arguments[0] == "--environment":
            environment = Environment[arguments[1]]
        else:
            kind = arguments[1]
        arguments = arguments[2:]
    if kind not in ("transaction", "renewal-info", "app-transaction"):
        print(f"--kind {kind}: expected transaction, renewal-info or app-transaction", file=sys.stderr)
        return 2
    if len(arguments) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    with open(arguments[0], "rb") as handle:
        root = handle.read()
    verifier = SignedDataVerifier([root], False, environment, arguments[1], app_apple_id=1)
    for index, jws in enumerate(arguments[2:], start=1):
        try:
            if kind == "renewal-info":
                renewal = verifier.verify_and_decode_renewal_info(jws)
                print(f"JWS {index}: verified renewal info {renewal.originalTransactionId} {renewal.productId} "
                      f"{renewal.environment} autoRenewStatus={renewal.rawAutoRenewStatus} "
                      f"autoRenewProductId={renewal.autoRenewProductId} renewalDate={renewal.renewalDate} "
                      f"renewalPrice={renewal.renewalPrice} {renewal.currency} "
                      f"appTransactionId={renewal.appTransactionId}")
                continue
            if kind == "app-transaction":
                app = verifier.verify_and_decode_app_transaction(jws)
                print(f"JWS {index}: verified app transaction {app.appTransactionId} {app.bundleId} "
                      f"{app.receiptType} applicationVersion={app.applicationVersion} "
                      f"originalApplicationVersion={app.originalApplicationVersion}")
                continue
            decoded = verifier.verify_and_decode_signed_transaction(jws)
        except VerificationException as error:
            print(f"JWS {index}: refused: {getattr(error.status, 'name', error.status)}", file=sys.stderr)
            return 1
        print(f"JWS {index}: verified {decoded.transactionId} {decoded.productId} {decoded.environment} "
              f"quantity={decoded.quantity} price={decoded.price} {decoded.currency} "
              f"revocationReason={decoded.rawRevocationReason} "
              f"revocationType={decoded.revocationType.value if decoded.revocationType else None} "
              f"revocationPercentage={decoded.revocationPercentage} appTransactionId={decoded.appTransactionId} "
              f"webOrderLineItemId={decoded.webOrderLineItemId} "
              f"storefront={decoded.storefront} storefrontId={decoded.storefrontId} "
              f"type={decoded.rawType.replace(' ', '-') if decoded.rawType else None} expiresDate={decoded.expiresDate} "
              # The enum where the library knows the value, else None beside the raw value it keeps
              # (3.1.2 has no ASSIGNED: it decodes as None, raw "ASSIGNED").
              f"inAppOwnershipType={decoded.inAppOwnershipType.value if decoded.inAppOwnershipType else None} "
              f"rawInAppOwnershipType={decoded.rawInAppOwnershipType} "
              f"offerType={decoded.offerType.name if decoded.offerType else None} "
              f"offerIdentifier={decoded.offerIdentifier} "
              f"offerDiscountType={decoded.offerDiscountType.value if decoded.offerDiscountType else None} "
              f"offerPeriod={decoded.offerPeriod}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
