"""Decoding a JWT with PyJWT, its failures mapped to Unauthenticated reasons (never quoting the token)."""

from __future__ import annotations

from typing import Any

import jwt

from firebreak.players.errors import Reason, Unauthenticated


def decode(token: str, key: Any, *, algorithm: str, audience: str, issuer: str, leeway: float,
           require: list[str]) -> dict[str, Any]:
    """The verified claims of a token signed with this key and exactly this algorithm (raise Unauthenticated:
    expired, algorithm, malformed or invalid)."""
    try:
        claims: dict[str, Any] = jwt.decode(token, key, algorithms=[algorithm], audience=audience, issuer=issuer,
                                            leeway=leeway, options={"require": require})
    except jwt.ExpiredSignatureError:
        raise Unauthenticated(Reason.EXPIRED) from None
    except jwt.InvalidAlgorithmError:
        raise Unauthenticated(Reason.ALGORITHM) from None
    except jwt.InvalidSignatureError:
        raise Unauthenticated(Reason.INVALID) from None
    except jwt.DecodeError:
        raise Unauthenticated(Reason.MALFORMED) from None
    except (jwt.PyJWTError, ValueError, TypeError, OverflowError):  # a claim no version of PyJWT should choke on
        raise Unauthenticated(Reason.INVALID) from None
    return claims
