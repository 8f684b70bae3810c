"""The trip workspace over HTTP: trips, members and the ops registry (TripsFunction)."""

from __future__ import annotations

import datetime as dt
from dataclasses import asdict
from typing import Annotated, Any

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, JsonValue

from tripagent.domain.ops import REGISTRY
from tripagent.domain.trip import Role, Trip
from tripagent.entrypoints.http.api import JSON, current_caller

router = Router()


def _workspace() -> Any:
    from tripagent.bootstrap import trip_workspace

    return trip_workspace()


OPERATION_NAMES: list[JsonValue] = [*sorted(REGISTRY)]  # the schema says which: an unknown one is invalid


class _Request(BaseModel):
    model_config = ConfigDict(extra="forbid")


def _iso_date_text(value: Any) -> Any:
    """A date as the contract writes it (``YYYY-MM-DD``), not a number pydantic would read as epoch days."""
    if value is None or isinstance(value, str | dt.date):
        return value
    raise ValueError("a date is written YYYY-MM-DD")


class CreateTripRequest(_Request):
    title: str = Field(min_length=1, max_length=200)
    startDate: Annotated[dt.date | None, BeforeValidator(_iso_date_text)] = None
    profile: str | None = Field(default=None, max_length=40)


class TripSummaryResponse(BaseModel):
    tripId: str
    title: str
    role: Role
    startDate: str | None
    version: int
    updatedAt: str


class TripListResponse(BaseModel):
    trips: list[TripSummaryResponse]


class OperationRequest(_Request):
    op: str = Field(
        description="An operation name from GET /trips/{tripId}/ops.",
        json_schema_extra={"enum": OPERATION_NAMES},
    )
    args: dict[str, Any] = Field(default_factory=dict)
    expectedVersion: int = Field(ge=1, description="The trip version the change was made against.")


class TripResponse(BaseModel):
    trip: Trip


class OperationDescription(BaseModel):
    name: str
    summary: str
    requiredRole: Role
    highRisk: bool = Field(description="Committing it emits TripOperationCommitted.")
    argsSchema: dict[str, Any]


class OperationCatalog(BaseModel):
    ops: list[OperationDescription]


class AddMemberRequest(_Request):
    userId: str = Field(min_length=1, max_length=128)
    role: Role


class ChangeRoleRequest(_Request):
    role: Role


@router.post(
    "/trips",
    summary="Create a trip (the caller is its owner)",
    tags=["trips"],
    responses={201: {"description": "Created"}},
)
def create_trip(body: CreateTripRequest) -> Response[Trip]:
    trip = _workspace().create_trip(
        current_caller(router).user_id, title=body.title, start_date=body.startDate, profile=body.profile
    )
    return Response(status_code=201, content_type=JSON, body=trip)


@router.get("/trips", summary="The caller's trips", tags=["trips"])
def list_trips() -> TripListResponse:
    summaries = _workspace().list_trips(current_caller(router).user_id)
    return TripListResponse(trips=[TripSummaryResponse(**asdict(s)) for s in summaries])


@router.get("/trips/<tripId>", summary="One trip", tags=["trips"])
def get_trip(tripId: str) -> Response[Trip]:  # noqa: N803 - the path parameter's name
    trip = _workspace().get_trip(current_caller(router).user_id, tripId)
    return Response(status_code=200, content_type=JSON, body=trip)


@router.get("/trips/<tripId>/ops", summary="The operations registry", tags=["trips"])
def list_operations(tripId: str) -> OperationCatalog:  # noqa: N803
    _workspace().get_trip(current_caller(router).user_id, tripId)  # members only, like every trip route
    return OperationCatalog(
        ops=[
            OperationDescription(
                name=op.name,
                summary=op.summary,
                requiredRole=op.required_role,
                highRisk=op.high_risk,
                argsSchema=op.json_schema(),
            )
            for op in REGISTRY.values()
        ]
    )


@router.post("/trips/<tripId>/ops", summary="Apply one operation", tags=["trips"])
def run_operation(tripId: str, body: OperationRequest) -> TripResponse:  # noqa: N803
    outcome = _workspace().run_operation(
        current_caller(router).user_id, tripId, body.op, body.args, expected_version=body.expectedVersion
    )
    return TripResponse(trip=outcome.trip)


@router.post(
    "/trips/<tripId>/members",
    summary="Add a member (owner only)",
    tags=["members"],
    responses={201: {"description": "Added"}},
)
def add_member(tripId: str, body: AddMemberRequest) -> Response[TripResponse]:  # noqa: N803
    outcome = _workspace().run_operation(
        current_caller(router).user_id, tripId, "add_member", {"userId": body.userId, "role": body.role}
    )
    return Response(status_code=201, content_type=JSON, body=TripResponse(trip=outcome.trip))


@router.patch(
    "/trips/<tripId>/members/<userId>", summary="Change a member's role (owner only)", tags=["members"]
)
def change_role(tripId: str, userId: str, body: ChangeRoleRequest) -> TripResponse:  # noqa: N803
    outcome = _workspace().run_operation(
        current_caller(router).user_id, tripId, "change_role", {"userId": userId, "role": body.role}
    )
    return TripResponse(trip=outcome.trip)


@router.delete("/trips/<tripId>/members/<userId>", summary="Remove a member (owner only)", tags=["members"])
def remove_member(tripId: str, userId: str) -> TripResponse:  # noqa: N803
    outcome = _workspace().run_operation(
        current_caller(router).user_id, tripId, "remove_member", {"userId": userId}
    )
    return TripResponse(trip=outcome.trip)


@router.get(
    "/trips/<tripId>/gpx",
    summary="The trip as GPX 1.1",
    tags=["trips"],
    responses={200: {"description": "GPX 1.1", "content": {"application/gpx+xml": {}}}},
)
def get_gpx(tripId: str) -> Response[str]:  # noqa: N803
    from tripagent.domain.gpx import trip_to_gpx

    trip = _workspace().get_trip(current_caller(router).user_id, tripId)
    filename = "".join(c if c.isalnum() else "-" for c in trip.title)[:60] or "trip"
    return Response(
        status_code=200,
        content_type="application/gpx+xml",
        body=trip_to_gpx(trip),
        headers={"Content-Disposition": f'attachment; filename="{filename}.gpx"'},
    )
