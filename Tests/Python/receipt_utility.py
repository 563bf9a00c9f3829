#!/usr/bin/env python3
"""Reads app receipts from `storefront serve` with Apple's own App Store Server Library.

    receipt_utility.py RECEIPT [RECEIPT ...]

Each RECEIPT (base64, as verifyReceipt's `receipt-data`) goes through
`ReceiptUtility().extract_transaction_id_from_app_receipt`, which walks the PKCS#7 and the
ASN.1 receipt as a backend migrating to the App Store Server API does (it checks no signature).
Prints one transaction id per receipt, or `none` for a receipt without in-app purchases; exits 1
naming the first receipt it cannot read.
"""
import sys

from appstoreserverlibrary.receipt_utility import ReceiptUtility


def main() -> int:
    receipts = sys.argv[1:]
    if not receipts:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    utility = ReceiptUtility()
    for index, receipt in enumerate(receipts, start=1):
        try:
            transaction_id = utility.extract_transaction_id_from_app_receipt(receipt)
        except ValueError as error:
            print(f"receipt {index}: unreadable: {error}", file=sys.stderr)
            return 1
        print(transaction_id if transaction_id is not None else "none")
    return 0


if __name__ == "__main__":
    sys.exit(main())
