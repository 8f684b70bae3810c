"""A trip's people over HTTP (TripsFunction, which may add members): who someone is (``PUT /me/profile``,
which also accepts the invitations waiting for their address), their names, invitations by e-mail
address, share links and joining by one."""

from __future__ import annotations

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from pydantic import BaseModel, ConfigDict, Field

from tripagent.application.people import People
from tripagent.domain.trip import Role
from tripagent.entrypoints.http.api import JSON, current_caller

router = Router()


class PersonView(BaseModel):
    userId: str
    role: Role
    displayName: str = Field(description="The name they gave their provider; their id until they sign in.")


class PeopleResponse(BaseModel):
    people: list[PersonView]


class InvitationRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    email: str = Field(min_length=3, max_length=254, description="Their e-mail address.")
    role: Role = Role.editor


class InvitationView(BaseModel):
    email: str
    role: Role
    invitedBy: str
    at: str


class Invited(BaseModel):
    status: str = Field(description="pending: they join when that address next opens the app")
    email: str
    userId: str | None = None


class InvitationsResponse(BaseModel):
    invitations: list[InvitationView]


class ShareLinkRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    role: Role = Role.viewer


class ShareLinkView(BaseModel):
    token: str = Field(description="Opened at the web app's `#/join/<token>`; revoked by the owners.")
    role: Role
    createdBy: str
    createdAt: str


class ShareLinksResponse(BaseModel):
    links: list[ShareLinkView]


class Joined(BaseModel):
    tripId: str


def _people() -> People:
    from tripagent.bootstrap import people  # at call time: the composition root is built lazily

    return people()


class ProfileRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    idToken: str = Field(
        min_length=20, max_length=8000, description="Your provider's ID token for this session."
    )


class ProfileResponse(BaseModel):
    userId: str
    displayName: str
    email: str | None = Field(description="Your verified address, if your provider gave one.")
    joined: list[str] = Field(description="The trips whose invitations to this address it accepted.")


@router.put("/me/profile", summary="Say who you are (your ID token: a name, a verified address)", tags=["me"])
def put_profile(body: ProfileRequest) -> ProfileResponse:
    profile, joined = _people().register(current_caller(router).user_id, body.idToken)
    return ProfileResponse(
        userId=profile.userId, displayName=profile.displayName, email=profile.email, joined=joined
    )


@router.get("/trips/<tripId>/people", summary="The trip's members with their names", tags=["members"])
def get_people(tripId: str) -> PeopleResponse:  # noqa: N803
    people = _people().people_of(current_caller(router).user_id, tripId)
    return PeopleResponse(
        people=[PersonView(userId=p.userId, role=p.role, displayName=p.displayName) for p in people]
    )


@router.post(
    "/trips/<tripId>/invitations",
    summary="Invite someone by e-mail address (owners)",
    tags=["members"],
    responses={
        202: {"description": "Waiting for the address to open the app (whether it is someone's, unsaid)"}
    },
)
def post_invitation(tripId: str, body: InvitationRequest) -> Response[Invited]:  # noqa: N803
    invited = _people().invite(current_caller(router).user_id, tripId, body.email, body.role)
    return Response(status_code=202, content_type=JSON, body=Invited(status="pending", email=invited.email))


@router.get("/trips/<tripId>/invitations", summary="The invitations waiting (owners)", tags=["members"])
def get_invitations(tripId: str) -> InvitationsResponse:  # noqa: N803
    waiting = _people().invitations(current_caller(router).user_id, tripId)
    return InvitationsResponse(
        invitations=[
            InvitationView(email=i.email, role=i.role, invitedBy=i.invitedBy, at=i.at) for i in waiting
        ]
    )


@router.delete(
    "/trips/<tripId>/invitations/<email>",
    summary="Withdraw an invitation (owners)",
    tags=["members"],
    responses={204: {"description": "Withdrawn"}},
)
def delete_invitation(tripId: str, email: str) -> Response[None]:  # noqa: N803
    _people().cancel_invitation(current_caller(router).user_id, tripId, email)
    return Response(status_code=204)


@router.post(
    "/trips/<tripId>/share-links",
    summary="A link that makes whoever opens it a member (owners)",
    tags=["members"],
    responses={201: {"description": "Created"}},
)
def post_share_link(tripId: str, body: ShareLinkRequest) -> Response[ShareLinkView]:  # noqa: N803
    link = _people().create_link(current_caller(router).user_id, tripId, body.role)
    view = ShareLinkView(token=link.token, role=link.role, createdBy=link.createdBy, createdAt=link.createdAt)
    return Response(status_code=201, content_type=JSON, body=view)


@router.get("/trips/<tripId>/share-links", summary="The trip's live share links (owners)", tags=["members"])
def get_share_links(tripId: str) -> ShareLinksResponse:  # noqa: N803
    links = _people().links(current_caller(router).user_id, tripId)
    return ShareLinksResponse(
        links=[
            ShareLinkView(token=k.token, role=k.role, createdBy=k.createdBy, createdAt=k.createdAt)
            for k in links
        ]
    )


@router.delete(
    "/trips/<tripId>/share-links/<token>",
    summary="Revoke a share link (owners): it opens nothing any more",
    tags=["members"],
    responses={204: {"description": "Revoked"}},
)
def delete_share_link(tripId: str, token: str) -> Response[None]:  # noqa: N803
    _people().revoke_link(current_caller(router).user_id, tripId, token)
    return Response(status_code=204)


@router.post("/join/<token>", summary="Join a trip by its share link", tags=["members"])
def join(token: str) -> Joined:
    return Joined(tripId=_people().join(current_caller(router).user_id, token))
