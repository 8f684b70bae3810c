"""A trip's people: who someone is comes from their verified ID token; owners invite by address (a member
at once when the address is known, else when it signs in) and hand out links they can revoke; every
membership change is the registry's add_member, run as an owner."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from tripagent.application.people import People
from tripagent.application.trips import TripWorkspace
from tripagent.domain.people import Invitation, Profile, ShareLink
from tripagent.domain.trip import Role
from tripagent.errors import Forbidden, NotFound, Unauthorized, ValidationFailed

from tests.fixtures.fakes import FakeClock, FakeTripRepository, SequentialIds


@dataclass
class MemoryPeople:
    kept: dict[str, Profile] = field(default_factory=dict)
    emails: dict[str, str] = field(default_factory=dict)
    invites: dict[tuple[str, str], Invitation] = field(default_factory=dict)
    shared: dict[str, ShareLink] = field(default_factory=dict)

    def save_profile(self, profile: Profile) -> None:
        self.kept[profile.userId] = profile
        if profile.email:
            self.emails[profile.email] = profile.userId

    def profiles(self, user_ids: list[str]) -> dict[str, Profile]:
        return {u: self.kept[u] for u in user_ids if u in self.kept}

    def user_with_email(self, email: str) -> str | None:
        return self.emails.get(email)

    def invite(self, invitation: Invitation, expires_at: int) -> None:
        self.invites[(invitation.tripId, invitation.email)] = invitation

    def invitations_of_trip(self, trip_id: str) -> list[Invitation]:
        return [i for (t, _), i in self.invites.items() if t == trip_id]

    def invitations_for(self, email: str) -> list[Invitation]:
        return [i for (_, e), i in self.invites.items() if e == email]

    def drop_invitation(self, trip_id: str, email: str) -> bool:
        return self.invites.pop((trip_id, email), None) is not None

    def create_link(self, link: ShareLink) -> None:
        self.shared[link.token] = link

    def link(self, token: str) -> ShareLink | None:
        return self.shared.get(token)

    def links_of_trip(self, trip_id: str) -> list[ShareLink]:
        return [k for k in self.shared.values() if k.tripId == trip_id]

    def revoke_link(self, trip_id: str, token: str) -> bool:
        return self.shared.pop(token, None) is not None


def identity(**claims: Any) -> Any:
    return lambda token: {"sub": token.split(":")[0], **claims}


@pytest.fixture
def world() -> tuple[People, MemoryPeople, str]:
    workspace = TripWorkspace(FakeTripRepository(), FakeClock(), SequentialIds())
    trip = workspace.create_trip("ana", title="Pyrenees")
    workspace.run_operation("ana", trip.tripId, "add_member", {"userId": "vic", "role": "viewer"})
    store = MemoryPeople()
    return People(workspace, store, verify_identity=lambda _: {}), store, trip.tripId


def with_identity(people: People, **claims: Any) -> People:
    return People(people.workspace, people.store, verify_identity=lambda token: {"sub": token, **claims})


def test_an_invitation_waits_for_its_address_to_sign_in_and_then_makes_a_member(world: Any) -> None:
    people, store, trip_id = world
    invited = people.invite("ana", trip_id, "  Carol@Example.com ", Role.editor)
    assert (invited.email, invited.role, invited.invitedBy) == ("carol@example.com", Role.editor, "ana")
    assert [i.email for i in people.invitations("ana", trip_id)] == ["carol@example.com"]
    with pytest.raises(NotFound):
        people.people_of("carol", trip_id)  # not a member yet
    profile, joined = with_identity(
        people, name="Carol", email="carol@example.com", email_verified=True
    ).register("carol", "carol")
    assert (profile.displayName, profile.email, joined) == ("Carol", "carol@example.com", [trip_id])
    names = {p.userId: (p.displayName, p.role) for p in people.people_of("carol", trip_id)}
    assert names == {"ana": ("ana", Role.owner), "vic": ("vic", Role.viewer), "carol": ("Carol", Role.editor)}
    assert store.invites == {}  # accepted once


def test_an_unverified_address_accepts_nothing_and_a_token_for_someone_else_is_refused(world: Any) -> None:
    people, _, trip_id = world
    people.invite("ana", trip_id, "mallory@example.com", Role.editor)
    _, joined = with_identity(people, email="mallory@example.com", email_verified=False).register(
        "eve", "eve"
    )
    assert joined == []
    with pytest.raises(Forbidden):
        with_identity(people, email="x@example.com", email_verified=True).register("eve", "someone-else")


def test_a_known_address_is_invited_as_any_other_and_joins_when_it_next_opens_the_app(world: Any) -> None:
    people, _, trip_id = world
    bob = with_identity(people, name="Bob", email="bob@example.com", email_verified=True)
    bob.register("bob", "bob")
    invited = people.invite("ana", trip_id, "bob@example.com", Role.viewer)
    # it waits, as for an unknown address: the answer does not tell whether the address is someone's
    assert people.invitations("ana", trip_id) == [invited]
    with pytest.raises(NotFound):
        people.workspace.get_trip("bob", trip_id)  # nobody is added unseen
    assert bob.register("bob", "bob")[1] == [trip_id]
    assert people.workspace.get_trip("bob", trip_id).role_of("bob") == Role.viewer


def test_an_identity_token_that_is_not_valid_is_a_403_not_a_401(world: Any) -> None:
    people, _, _ = world

    def refuse(_: str) -> dict[str, Any]:
        raise Unauthorized("expired")

    with pytest.raises(Forbidden):
        People(people.workspace, people.store, verify_identity=refuse).register("bob", "bob")


def test_only_owners_invite_or_link_and_never_as_owner(world: Any) -> None:
    people, _, trip_id = world
    with pytest.raises(Forbidden):
        people.invite("vic", trip_id, "x@example.com", Role.viewer)
    with pytest.raises(Forbidden):
        people.create_link("vic", trip_id, Role.viewer)
    with pytest.raises(NotFound):
        people.create_link("stranger", trip_id, Role.viewer)
    with pytest.raises(ValidationFailed):
        people.create_link("ana", trip_id, Role.owner)
    with pytest.raises(ValidationFailed):
        people.invite("ana", trip_id, "not-an-address", Role.viewer)


def test_a_share_link_makes_a_member_until_it_is_revoked(world: Any) -> None:
    people, _, trip_id = world
    link = people.create_link("ana", trip_id, Role.editor)
    assert people.join("dan", link.token) == trip_id
    assert people.workspace.get_trip("dan", trip_id).role_of("dan") == Role.editor
    assert people.join("vic", link.token) == trip_id  # a member already stays as they are
    assert people.workspace.get_trip("vic", trip_id).role_of("vic") == Role.viewer
    people.revoke_link("ana", trip_id, link.token)
    with pytest.raises(NotFound):
        people.join("erin", link.token)
    with pytest.raises(NotFound):
        people.revoke_link("ana", trip_id, link.token)
