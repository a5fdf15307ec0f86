"""schemathesis hooks of `npm run fuzz` (scripts/fuzz.ts loads them through its generated schemathesis.toml).

A wrong password counts toward the lockout wherever the product checks one (sign-in, a requisition's signature, the
own-password change), so the fuzzer would lock its own user out and fuzz the rest with a dead session. Every body
that carries the signer's or the owner's password gets the fuzz user's real one, in every phase (schemathesis'
`body.` parameters reach only its fuzzing phase); the rest of the body stays generated.
"""

import os

import schemathesis

PASSWORD = os.environ.get("FUZZ_PASSWORD", "")
# a path ending -> the body field that holds the user's own password
PASSWORD_FIELDS = {"/sign": "password", "/credentials": "oldPassword"}
# the own-password change takes its passwords base64-encoded
ENCODED = {"/credentials"}


@schemathesis.hook
def before_call(context, case, kwargs):
    for ending, field in PASSWORD_FIELDS.items():
        if case.path.endswith(ending) and isinstance(case.body, dict):
            if ending in ENCODED:
                import base64

                case.body[field] = base64.b64encode(PASSWORD.encode()).decode()
            else:
                case.body[field] = PASSWORD
