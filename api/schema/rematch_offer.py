"""The rematch offer of an over match as GraphQL shows it (Match.rematchOffer, Rematched.offer)."""

from __future__ import annotations

from enum import Enum

import strawberry

from firebreak.matches import rematch_offers


@strawberry.enum
class RematchOfferStatus(Enum):
    """Where a rematch offer stands."""

    OPEN = strawberry.enum_value(rematch_offers.OPEN, description="Waiting for the other persons' answers.")
    ACCEPTED = strawberry.enum_value(rematch_offers.ACCEPTED, description="Every person accepted: the rematch is "
                                                                          "made (Match.rematch).")
    DECLINED = strawberry.enum_value(rematch_offers.DECLINED, description="A person declined it: it is over (anyone "
                                                                          "may offer again).")
    EXPIRED = strawberry.enum_value(rematch_offers.EXPIRED, description="Nobody finished it in time: it is over "
                                                                        "(anyone may offer again).")


@strawberry.type
class RematchOffer:
    """A rematch offer of an over match: who offered it, who answered, until when it stands. Seats are the over
    match's; bot seats accept at once."""

    status: RematchOfferStatus = strawberry.field(description="Where it stands.")
    by: int = strawberry.field(description="The seat that offered it.")
    accepted: list[int] = strawberry.field(description="The seats that accepted (the offerer's and the bots' "
                                                       "included).")
    declined: list[int] = strawberry.field(description="The seat that declined it, if one did.")
    expires_at: float = strawberry.field(description="When it expires unless everyone accepted by then (epoch "
                                                     "seconds).")

    @classmethod
    def of(cls, offer: rematch_offers.Offer) -> RematchOffer:
        """The GraphQL form of an offer."""
        return cls(status=RematchOfferStatus(offer.status), by=offer.by, accepted=offer.accepted,
                   declined=offer.declined, expires_at=offer.expires_at)
