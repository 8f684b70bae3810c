from __future__ import annotations

import httpx
import pytest
import respx
from tripagent.adapters.valhalla import ValhallaClient
from tripagent.errors import NoRoute, RoutingUnavailable

BASE = "http://valhalla.test"
TRIP = {"trip": {"summary": {"length": 26.4, "time": 5400}, "legs": [{"shape": "abc"}]}}


@respx.mock
def test_route_sends_bicycle_costing_and_parses_the_summary() -> None:
    route = respx.post(f"{BASE}/route").mock(return_value=httpx.Response(200, json=TRIP))
    summary = ValhallaClient(BASE).route([(42.46, 1.49), (42.57, 1.67)], options={"bicycle_type": "Road"})
    assert (summary.distance_km, summary.duration_s, summary.shape) == (26.4, 5400, "abc")
    sent = route.calls.last.request
    body = httpx.Response(200, content=sent.content).json()
    assert body["costing"] == "bicycle"
    assert body["costing_options"] == {"bicycle": {"bicycle_type": "Road"}}
    assert body["locations"] == [{"lat": 42.46, "lon": 1.49}, {"lat": 42.57, "lon": 1.67}]


@respx.mock
def test_heights_come_with_the_route_from_the_tiles_and_the_floor_is_no_height() -> None:
    """Valhalla answers -500 m (its floor, -499.9 once interpolated) where its tiles have no elevation:
    unknown, not a hole 500 m deep."""
    legs = [
        {"shape": "abc", "elevation": [1035.5, 1036.7]},
        {"shape": "def", "elevation": [-500.0, -499.9, 12.0]},
    ]
    route = respx.post(f"{BASE}/route").mock(
        return_value=httpx.Response(200, json={"trip": {"summary": {"length": 3, "time": 600}, "legs": legs}})
    )
    summary = ValhallaClient(BASE).route([(0, 0), (1, 1), (2, 2)], height_interval_m=100)
    assert summary.leg_heights == ((1035.5, 1036.7), (None, None, 12.0))
    assert summary.height_interval_m == 100
    assert httpx.Response(200, content=route.calls.last.request.content).json()["elevation_interval"] == 100


@respx.mock
def test_no_path_is_no_route() -> None:
    respx.post(f"{BASE}/route").mock(
        return_value=httpx.Response(
            400, json={"error_code": 442, "error": "No path could be found for input"}
        )
    )
    with pytest.raises(NoRoute):
        ValhallaClient(BASE).route([(0, 0), (1, 1)])


@respx.mock
@pytest.mark.parametrize(
    "outcome",
    [httpx.Response(502, text="bad gateway"), httpx.ConnectError("refused"), httpx.ReadTimeout("slow")],
)
def test_an_unreachable_or_failing_service_is_routing_unavailable(outcome: object) -> None:
    respx.post(f"{BASE}/route").mock(
        side_effect=[outcome] * 3 if isinstance(outcome, Exception) else None,
        return_value=outcome if isinstance(outcome, httpx.Response) else None,
    )
    with pytest.raises(RoutingUnavailable):
        ValhallaClient(BASE, timeout_s=0.1).route([(0, 0), (1, 1)])


@respx.mock
@pytest.mark.parametrize(
    ("action", "answer"),
    [
        ("route", httpx.Response(200, text="<html>proxy error</html>")),
        ("route", httpx.Response(200, json={"trip": {"legs": []}})),
        ("route", httpx.Response(400, text="bad request")),
        ("locate", httpx.Response(200, json=[{"edges": [{"correlated_lat": "x"}]}])),
        (
            "heights",
            httpx.Response(
                200, json={"trip": {"summary": {"length": 1, "time": 1}, "legs": [{"shape": "a"}]}}
            ),
        ),
    ],
)
def test_an_answer_not_shaped_as_documented_is_routing_unavailable(
    action: str, answer: httpx.Response
) -> None:
    """Not a TypeError or KeyError out of the adapter: the caller gets the routing service's stable code."""
    respx.post(f"{BASE}/{action.replace('heights', 'route')}").mock(return_value=answer)
    client = ValhallaClient(BASE)
    calls = {
        "route": lambda: client.route([(0, 0), (1, 1)]),
        "locate": lambda: client.locate([(0, 0)]),
        "heights": lambda: client.route([(0, 0), (1, 1)], height_interval_m=100),
    }
    with pytest.raises(RoutingUnavailable):
        calls[action]()
