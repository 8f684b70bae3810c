"""Use cases of a trip's people: a signed-in person says who they are (their provider's ID token, verified
like any token: a name and a verified e-mail address), members read each other's names, owners invite by
e-mail address (a member at once when the address is known, else when it signs in) or hand out share links
they can revoke, and whoever opens a live link joins. Every membership change is the registry's
``add_member``, run as an owner of the trip."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from tripagent.application.trips import TripWorkspace
from tripagent.domain.people import JOINABLE_ROLES, Invitation, Profile, ShareLink, normal_email
from tripagent.domain.times import epoch
from tripagent.domain.trip import Role, Trip
from tripagent.errors import Forbidden, NotFound, Unauthorized, ValidationFailed

INVITATION_TTL_S = 30 * 24 * 3600


class PeopleStore(Protocol):
    def save_profile(self, profile: Profile) -> None:
        """The profile, and its address pointing to it."""
        ...

    def profiles(self, user_ids: list[str]) -> dict[str, Profile]: ...

    def user_with_email(self, email: str) -> str | None: ...

    def invite(self, invitation: Invitation, expires_at: int) -> None: ...

    def invitations_of_trip(self, trip_id: str) -> list[Invitation]: ...

    def invitations_for(self, email: str) -> list[Invitation]: ...

    def drop_invitation(self, trip_id: str, email: str) -> bool: ...

    def create_link(self, link: ShareLink) -> None: ...

    def link(self, token: str) -> ShareLink | None: ...

    def links_of_trip(self, trip_id: str) -> list[ShareLink]: ...

    def revoke_link(self, trip_id: str, token: str) -> bool: ...


@dataclass(frozen=True, slots=True)
class Person:
    userId: str
    role: Role
    displayName: str


@dataclass(frozen=True)
class People:
    workspace: TripWorkspace
    store: PeopleStore
    verify_identity: Callable[[str], dict[str, Any]]  # an ID token → its verified claims

    # ------------------------------------------------------------------ who someone is
    def register(self, caller: str, id_token: str) -> tuple[Profile, list[str]]:
        """Record who the caller is from their provider's ID token, then accept the invitations waiting
        for its verified address; returns the profile and the trips joined."""
        try:
            claims = self.verify_identity(id_token)
        except Unauthorized as exc:  # (a 403, not a 401: the caller's own token is fine)
            raise Forbidden("The identity token is not valid: sign in again.") from exc
        if claims.get("sub") != caller:
            raise Forbidden("The identity token is not the caller's.")
        verified = claims.get("email_verified") in (True, "true")
        email = normal_email(str(claims["email"])) if claims.get("email") and verified else None
        name = str(
            claims.get("name")
            or claims.get("preferred_username")
            or claims.get("cognito:username")
            or (email.split("@")[0] if email else caller)
        ).strip()[:80]
        profile = Profile(caller, name or caller, email)
        self.store.save_profile(profile)
        joined = []
        for invitation in self.store.invitations_for(email) if email else []:
            if self._add(invitation.tripId, caller, invitation.role, invitation.invitedBy, "invitation"):
                joined.append(invitation.tripId)
            self.store.drop_invitation(invitation.tripId, invitation.email)
        return profile, joined

    def people_of(self, caller: str, trip_id: str) -> list[Person]:
        """The trip's members with their names (their id until they say who they are): members only."""
        trip = self.workspace.get_trip(caller, trip_id)
        profiles = self.store.profiles([m.userId for m in trip.members])
        return [
            Person(m.userId, m.role, profiles[m.userId].displayName if m.userId in profiles else m.userId)
            for m in trip.members
        ]

    # ------------------------------------------------------------------ invitations
    def invite(self, caller: str, trip_id: str, email: str, role: Role) -> Invitation:
        """Always an invitation waiting for the address to open the app (which says who it is on every
        start): the answer never tells whether an address is someone's, and nobody is added unseen."""
        self._owned(caller, trip_id)
        address = normal_email(email)
        if "@" not in address or len(address) > 254:
            raise ValidationFailed("That is not an e-mail address.", details=[{"loc": ["body", "email"]}])
        _joinable(role)
        now = self.workspace.clock.now_iso()
        invitation = Invitation(trip_id, address, role, caller, now)
        self.store.invite(invitation, self._expiry(INVITATION_TTL_S))
        return invitation

    def invitations(self, caller: str, trip_id: str) -> list[Invitation]:
        self._owned(caller, trip_id)
        return self.store.invitations_of_trip(trip_id)

    def cancel_invitation(self, caller: str, trip_id: str, email: str) -> None:
        self._owned(caller, trip_id)
        if not self.store.drop_invitation(trip_id, normal_email(email)):
            raise NotFound("No such invitation.")

    # ------------------------------------------------------------------ share links
    def create_link(self, caller: str, trip_id: str, role: Role) -> ShareLink:
        self._owned(caller, trip_id)
        _joinable(role)
        link = ShareLink(
            "shr_" + secrets.token_urlsafe(24), trip_id, role, caller, self.workspace.clock.now_iso()
        )
        self.store.create_link(link)
        return link

    def links(self, caller: str, trip_id: str) -> list[ShareLink]:
        self._owned(caller, trip_id)
        return self.store.links_of_trip(trip_id)

    def revoke_link(self, caller: str, trip_id: str, token: str) -> None:
        self._owned(caller, trip_id)
        if not self.store.revoke_link(trip_id, token):
            raise NotFound("No such share link.")

    def join(self, caller: str, token: str) -> str:
        """Open a share link: a member with its role (a member already stays as they are)."""
        link = self.store.link(token)
        if link is None:
            raise NotFound("This link is not valid any more: ask the trip's owner for a new one.")
        self._add(link.tripId, caller, link.role, link.createdBy, "share-link")
        return link.tripId

    # ------------------------------------------------------------------ helpers
    def _owned(self, caller: str, trip_id: str) -> Trip:
        trip = self.workspace.get_trip(caller, trip_id)  # the missing-trip answer for non-members
        if trip.role_of(caller) != Role.owner:
            raise Forbidden("Only the trip's owners invite people and manage its links.")
        return trip

    def _add(self, trip_id: str, user_id: str, role: Role, asked_by: str, via: str) -> bool:
        """``add_member`` run as an owner: the one who asked if they still are, else any owner."""
        trip = self.workspace.trips.get(trip_id)
        if trip is None:
            return False
        if trip.role_of(user_id) is not None:
            return True
        owners = [m.userId for m in trip.members if m.role == Role.owner]
        actor = asked_by if asked_by in owners else (owners[0] if owners else None)
        if actor is None:
            return False
        self.workspace.apply_operation(
            actor, trip, "add_member", {"userId": user_id, "role": role.value}, metadata={"via": via}
        )
        return True

    def _expiry(self, ttl_s: int) -> int:
        return epoch(self.workspace.clock.now_iso()) + ttl_s


def _joinable(role: Role) -> None:
    if role not in JOINABLE_ROLES:
        raise ValidationFailed(
            "An invitation or a link makes a viewer or an editor.", details=[{"loc": ["body", "role"]}]
        )
