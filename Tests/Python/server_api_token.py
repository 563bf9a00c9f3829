"""Prints a bearer token for the App Store Server API, signed as Apple's client signs one.

Usage: server_api_token.py KEY_FILE ISSUER_ID KEY_ID BUNDLE_ID
KEY_FILE is the .p8 private key App Store Connect hands out (PKCS#8, P-256).
"""
import sys

from appstoreserverlibrary.api_client import AppStoreServerAPIClient
from appstoreserverlibrary.models.Environment import Environment

key_file, issuer, key_id, bundle = sys.argv[1:5]
with open(key_file, "rb") as file:
    key = file.read()
client = AppStoreServerAPIClient(key, key_id, issuer, bundle, Environment.LOCAL_TESTING)
print(client._generate_token())
