"""Profiles, invitations and share links on DynamoDB Local: an address names its person; an invitation is
found from its address and from its trip, and goes from both at once; a revoked link opens nothing, and a
second revocation says so."""

from __future__ import annotations

from tripagent.adapters.aws import dynamodb_client
from tripagent.adapters.dynamodb.people import DynamoPeopleStore
from tripagent.adapters.system import new_id
from tripagent.domain.people import Invitation, Profile, ShareLink
from tripagent.domain.trip import Role
from tripagent_local.stack import LocalStack

FAR = 4_000_000_000


def store(stack: LocalStack) -> DynamoPeopleStore:
    client = dynamodb_client("eu-west-1", f"http://127.0.0.1:{stack.config.dynamodb_port}")
    return DynamoPeopleStore(client, next(iter(stack.table_names.values())))


def test_profiles_and_invitations_on_the_table(local_stack: LocalStack) -> None:
    people, trip_id, user = store(local_stack), new_id("trp"), new_id("usr")
    email = f"{user}@example.com"
    people.save_profile(Profile(user, "Carol", email))
    assert people.user_with_email(email) == user
    assert people.profiles([user, "nobody"]) == {user: Profile(user, "Carol", email)}
    waiting = Invitation(trip_id, f"x{email}", Role.editor, "ana", "2030-01-01T10:00:00Z")
    people.invite(waiting, FAR)
    assert people.invitations_of_trip(trip_id) == [waiting]
    assert people.invitations_for(f"x{email}") == [waiting]
    assert people.drop_invitation(trip_id, f"x{email}")
    assert people.invitations_for(f"x{email}") == []
    assert people.invitations_of_trip(trip_id) == []
    assert not people.drop_invitation(trip_id, f"x{email}")
    people.invite(Invitation(trip_id, "old@example.com", Role.viewer, "ana", "2020-01-01T10:00:00Z"), 1)
    assert people.invitations_of_trip(trip_id) == []  # expired: DynamoDB deletes it in its own time


def test_a_revoked_link_opens_nothing(local_stack: LocalStack) -> None:
    people, trip_id = store(local_stack), new_id("trp")
    link = ShareLink(new_id("shr"), trip_id, Role.viewer, "ana", "2030-01-01T10:00:00Z")
    people.create_link(link)
    assert people.link(link.token) == link
    assert people.links_of_trip(trip_id) == [link]
    assert people.revoke_link(trip_id, link.token)
    assert people.link(link.token) is None
    assert people.links_of_trip(trip_id) == []
    assert not people.revoke_link(trip_id, link.token)
