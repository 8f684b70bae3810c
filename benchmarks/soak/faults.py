"""The faults the soak injects (an engine stopped, consumers dying mid-batch, the model failing), how they
heal, and how long what they broke takes to work again."""

from __future__ import annotations

import os
import time
from typing import Any

from benchmarks.soak.members import BRIEF, CHAT, token_for

ENGINES = ("valhalla", "dynamodb")
FAULTS = (*ENGINES, "consumers", "model")
# The model's failures, one after the other while its fault lasts (benchmarks/fake_model.py)
MODEL_FAULTS = ("slow", "5xx", "429", "garbage")
AI_TIMEOUT_S = 4.0  # the soak's stack holds every model call to this under the model fault
HEALTHY_REPLY = "Where would you like to start?"  # what the fake model's brief chat says when healthy
RECOVERY = {
    "valhalla": "generation worked again",
    "dynamodb": "a new operation reached the bus through the outbox",
    "consumers": "a new operation reached the bus through the outbox",
    "model": "the brief chat answered from the model",
}
FAULT_MAX_S = 20.0  # a fault starts a third of the way in and lasts a third of the run, at most this
CONSUMER_FAULT_RATE = 0.3  # the share of consumer invocations that die mid-batch while the fault lasts


def _engine(url: str, action: str, name: str) -> None:
    import httpx

    httpx.post(f"{url}/_local/engines/{name}/{action}", timeout=60).raise_for_status()


def inject(url: str, fault: str, lasting_s: float) -> None:
    import gevent

    if fault in ENGINES:
        _engine(url, "stop", fault)
    elif fault == "consumers":
        _consumer_faults(url, CONSUMER_FAULT_RATE)
    elif fault == "model":  # each failure of the model in turn, for a share of the fault's time

        def cycle() -> None:
            for mode in MODEL_FAULTS:
                _model_mode(mode)
                gevent.sleep(lasting_s / len(MODEL_FAULTS))

        gevent.spawn(cycle)


def heal(url: str, fault: str) -> None:
    if fault in ENGINES:
        _engine(url, "start", fault)
    elif fault == "consumers":
        _consumer_faults(url, 0.0)
    elif fault == "model":
        _model_mode("healthy")


def _model_mode(mode: str) -> None:
    import httpx

    httpx.post(
        f"{os.environ['SOAK_MODEL_URL']}/_fake/mode", json={"mode": mode}, timeout=10
    ).raise_for_status()


def _consumer_faults(url: str, rate: float) -> None:
    import httpx

    httpx.post(f"{url}/_local/faults/consumers", json={"rate": rate}, timeout=30).raise_for_status()


def _trip_with_a_reviewed_operation(url: str, headers: dict[str, str]) -> dict[str, Any] | None:
    """A new trip with a day and a stop (a whitelisted operation, which the outbox relays to the bus)."""
    import httpx

    created = httpx.post(f"{url}/trips", json={"title": "probe"}, headers=headers, timeout=30)
    if created.status_code != 201:
        return None
    trip: dict[str, Any] = created.json()
    for op, args in (("add_day", {}), ("add_stop", {"dayIndex": 0, "name": "Probe", "kind": "food"})):
        body = {"op": op, "args": args, "expectedVersion": trip["version"]}
        done = httpx.post(f"{url}/trips/{trip['tripId']}/ops", json=body, headers=headers, timeout=30)
        if done.status_code != 200:
            return None
        trip = done.json()["trip"]
    return trip


def recovery_s(url: str, fault: str) -> float:
    """Seconds from a fault's end until what it broke works again: for Valhalla a generation succeeds; for
    the store and the consumers, an operation committed afterwards reaches the bus through the outbox (its
    stream and relay caught up)."""
    import httpx

    back = time.monotonic()
    headers = {"Authorization": f"Bearer {token_for(f'soak-probe-{fault}')}"}
    trip: dict[str, Any] | None = None
    while time.monotonic() - back < 60:
        try:
            if fault == "model":
                chat = {"messages": [{"role": "user", "content": CHAT}]}
                response = httpx.post(f"{url}/trips/ai-chat", json=chat, headers=headers, timeout=30)
                if response.status_code == 200 and HEALTHY_REPLY in response.text:
                    return time.monotonic() - back
            elif fault == "valhalla":
                brief = {"brief": BRIEF}
                response = httpx.post(f"{url}/trips/ai-generate", json=brief, headers=headers, timeout=30)
                if response.status_code == 201:
                    return time.monotonic() - back
            elif trip is None:
                trip = _trip_with_a_reviewed_operation(url, headers)
            else:
                events = httpx.get(f"{url}/_local/events", timeout=30).json()["events"]
                if any(e["detail"].get("tripId") == trip["tripId"] for e in events):
                    return time.monotonic() - back
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    return float("inf")
