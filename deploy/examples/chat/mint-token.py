#!/usr/bin/env python3
"""Mints an HS256 token for the chat example: mint-token.py SECRET_FILE USER [CHANNEL_PATTERN].

For trying the example only: real tokens are minted where users log in, never in the page.
"""
import base64
import hashlib
import hmac
import json
import sys
import time


def part(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    secret = open(sys.argv[1], "rb").read().strip()
    channels = sys.argv[3] if len(sys.argv) == 4 else "chat.*"
    claims = {"sub": sys.argv[2], "exp": int(time.time()) + 3600,
              "sluice": {"subscribe": [channels], "publish": [channels], "presence": True}}
    signed = part(json.dumps({"alg": "HS256", "typ": "JWT"}).encode()) + "." + part(json.dumps(claims).encode())
    signature = hmac.new(secret, signed.encode("ascii"), hashlib.sha256).digest()
    print(signed + "." + part(signature))


if __name__ == "__main__":
    main()
