"""The people of a trip beyond their ids: who someone is (a name and an e-mail address, from their
provider's verified identity), an invitation waiting for an address to sign in, and a share link an owner
hands out (and may revoke) that makes whoever opens it a member."""

from __future__ import annotations

from dataclasses import dataclass

from tripagent.domain.trip import Role

JOINABLE_ROLES = (Role.viewer, Role.editor)  # a link or an invitation never makes an owner


@dataclass(frozen=True, slots=True)
class Profile:
    userId: str
    displayName: str
    email: str | None = None


@dataclass(frozen=True, slots=True)
class Invitation:
    tripId: str
    email: str
    role: Role
    invitedBy: str
    at: str


@dataclass(frozen=True, slots=True)
class ShareLink:
    token: str
    tripId: str
    role: Role
    createdBy: str
    createdAt: str


def normal_email(address: str) -> str:
    """An address as it is compared: trimmed, lower case (providers treat it so)."""
    return address.strip().lower()
