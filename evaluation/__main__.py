"""``make eval``: run the corpus against the configured provider and print what it understood.

The provider is the deployment's: the offline ``rules`` engines unless ``AI_PROVIDER`` (with
``AI_MODEL``, ``AI_API_KEY``, ``AI_BASE_URL``) names another, so a team can compare models on the same
conversations. Generation routes for real (Valhalla) and stores its trips in DynamoDB Local, on a local
stack of its own; nothing leaves the machine unless the provider does.

The corpus (``evaluation/corpus``) is split by a hash of each item's id (``evaluation/split.py``): ``dev/``
to tune on, ``heldout/`` to score once, when a piece of work is finished, never to choose between rules.
``--brief-only`` runs the brief chat alone, with no stack (what a team runs against its own model).

Slots are scored where the corpus gives them a value (a reader that fills nothing scores 0 there, not the
share of empty slots), beside how often a slot the rider left empty stays empty, and beside two baselines
computed on the same conversations: a reader that understands nothing, and one that is always ready.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import io
import itertools
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from evaluation.scoring import SLOTS, BinaryTally, Tally, holds_a_value, same_place, slot_right
from evaluation.split import PARTS

CORPUS = Path(__file__).resolve().parent / "corpus"
TODAY = dt.date(2027, 5, 3)  # the corpus's "today" (a Monday): "next Saturday" is 2027-05-08


def load(part: str, name: str) -> list[dict[str, Any]]:
    path = CORPUS / part / f"{name}.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


# ---------------------------------------------------------------------------------------- brief chat
class _NoLimit:
    """The corpus is many conversations in a minute: the per-user rate limit is not what is measured."""

    def hit(self, key: str, *, limit: int, window_s: int) -> int | None:
        return None


def brief_chat(items: list[dict[str, Any]], provider: Any, model: str) -> dict[str, Any]:
    from tripagent.adapters.signing import HmacSigner
    from tripagent.application.brief_chat import BriefChat, BriefLimits, ChatTurn
    from tripagent.bootstrap import gazetteer, place_finder

    chat = BriefChat(
        place_finder(),
        _NoLimit(),
        HmacSigner(b"make-eval: the brief state signing key"),
        BriefLimits(),
        coverage=gazetteer(),
    )
    filled = {slot: Tally() for slot in SLOTS}  # slots the rider gave a value: understood?
    empty = Tally()  # slots the rider left empty: kept empty?
    ready, asked, whole = Tally(), Tally(), Tally()
    # the same, on the conversations the offline reader was never tuned on (its honest held-out figure)
    fresh = {"ready": Tally(), "filled": Tally()}
    for item in items:
        messages: list[Any] = []
        now = time.time()
        clarified = False
        reply = None
        for text in item["turns"]:
            messages.append(ChatTurn(role="user", content=text))
            reply = chat.turn(messages, item["locale"], provider, model, now=now, today=TODAY)
            messages.append(ChatTurn(role="assistant", content=reply.reply))
            clarified |= reply.clarification is not None
            now += 20
        assert reply is not None
        got = reply.collected.model_dump(mode="json")
        right = [slot_right(slot, item["expected"], got) for slot in SLOTS]
        for slot, ok in zip(SLOTS, right, strict=True):
            if holds_a_value(slot, item["expected"]):
                filled[slot].add(ok, item["id"])
                if not item.get("tuned"):
                    fresh["filled"].add(ok, item["id"])
            else:
                empty.add(ok, item["id"])
        whole.add(all(right), item["id"])
        ready.add(reply.readyToGenerate == item["ready"], item["id"])
        if not item.get("tuned"):
            fresh["ready"].add(reply.readyToGenerate == item["ready"], item["id"])
        asked.add(clarified, item["id"])
    ready_share = sum(item["ready"] for item in items) / max(1, len(items))
    return {
        "filled": filled,
        "empty": empty,
        "ready": ready,
        "clarified": asked,
        "whole": whole,
        "fresh": fresh,
        "baselines": {"understands nothing": 1 - ready_share, "always ready": ready_share},
        "n": len(items),
    }


# ---------------------------------------------------------------------------------------- generation
def generation(items: list[dict[str, Any]], provider: Any, model: str) -> dict[str, Any]:
    from tripagent.bootstrap import generator
    from tripagent.errors import AppError

    outcome, shape = Tally(), Tally()
    confusion: dict[tuple[str, str], int] = {}
    for item in items:
        try:
            trip = generator().generate(
                f"eval-{item['id']}", item["brief"], None, provider, model, today=TODAY
            )
            got = "generated"
        except AppError as exc:
            got, trip = exc.code, None
        outcome.add(got == item["expected"], item["id"])
        confusion[(item["expected"], got)] = confusion.get((item["expected"], got), 0) + 1
        if item["expected"] == "generated" and trip is not None:
            stages = [d.stage for d in trip.days if d.stage]
            shape.add(
                len(trip.days) == item["days"]
                and bool(stages)
                and same_place(item["start"], stages[0].from_)
                and same_place(item["end"], stages[-1].to),
                item["id"],
            )
    return {"outcome": outcome, "shape": shape, "confusion": confusion, "n": len(items)}


# ---------------------------------------------------------------------------------------- review
def _scenario_trip(item: dict[str, Any]) -> Any:
    from tripagent.domain.trip import Trip

    raw = item["trip"]
    now = "2027-05-03T09:00:00.000Z"
    days = [{k: v for k, v in d.items() if k != "stage"} for d in raw.get("days", [])]  # stages: not reviewed
    return Trip.model_validate(
        {
            "tripId": f"trp_eval_{item['id']}",
            "title": item["id"],
            "startDate": raw.get("startDate"),
            "members": raw["members"],
            "days": days,
            "stops": raw.get("stops", []),
            "expenses": raw.get("expenses", []),
            "version": 5,
            "createdAt": now,
            "updatedAt": now,
        }
    )


def review(items: list[dict[str, Any]], threshold: float) -> dict[str, Any]:
    from tripagent.application.review import WHITELIST
    from tripagent.application.trips import operation_named, parse_args
    from tripagent.bootstrap import reviewer
    from tripagent.domain.events import TripOperationCommitted
    from tripagent.errors import AppError

    told, because = BinaryTally(), Tally()
    refused: list[str] = []
    counter = itertools.count()
    for item in items:
        trip = _scenario_trip(item)
        op = item["operation"]
        operation = operation_named(op["op"])
        try:
            diff = operation.apply(
                trip, parse_args(operation, op["args"]), lambda p: f"{p}_eval{next(counter)}"
            )
        except (AppError, ValueError):  # the trip itself refuses the change: nothing to review
            refused.append(item["id"])
            continue
        trip.version += 1
        notified, codes = False, set()
        if op["op"] in WHITELIST and diff:  # what the pipeline would review at all
            event = TripOperationCommitted(
                operationId=f"op_eval{next(counter)}",
                tripId=trip.tripId,
                tripVersion=trip.version,
                actor=item["actor"],
                at="2027-05-03T09:00:00.000Z",
                op=op["op"],
                args=op["args"],
                diff=diff,
            )
            decision = reviewer().decide(trip, [event])
            notified = decision.shouldNotify and decision.confidence >= threshold
            codes = {f.code for f in reviewer().findings(trip, [event])}
        told.add(item["notify"], notified, item["id"])
        if item["notify"] and notified:
            because.add(item["reason"] in codes, item["id"])
    return {"told": told, "because": because, "refused": refused, "n": len(items)}


# ---------------------------------------------------------------------------------------- report
def _pct(t: Tally) -> str:
    return f"{100 * t.rate:5.1f}% ({t.right}/{t.seen})" if t.seen else "  n/a"


def report_brief_chat(part: str, chat: dict[str, Any], verbose: bool) -> None:
    print(f"\n== {part}: brief chat ({chat['n']} conversations)")
    filled = chat["filled"]
    right, seen = sum(t.right for t in filled.values()), sum(t.seen for t in filled.values())
    print(f"slots the rider gave, understood   {100 * right / max(1, seen):5.1f}% ({right}/{seen})")
    for slot, tally in filled.items():
        print(f"             {slot:<22} {_pct(tally)}")
    print(f"slots left empty, kept empty       {_pct(chat['empty'])}")
    print(f"every slot right                   {_pct(chat['whole'])}")
    print(f"readiness right                    {_pct(chat['ready'])}")
    print(f"asked a question                   {_pct(chat['clarified'])} of conversations")
    baselines = ", ".join(f"{name} {100 * rate:.1f}%" for name, rate in chat["baselines"].items())
    print(f"  baselines, readiness right: {baselines}; slots the rider gave: understands nothing 0.0%")
    fresh = chat["fresh"]
    if fresh["ready"].seen and fresh["ready"].seen < chat["n"]:
        print(
            f"  never tuned on by the offline reader ({fresh['ready'].seen}): slots {_pct(fresh['filled'])}, "
            f"readiness {_pct(fresh['ready'])}"
        )
    if verbose:
        for slot, tally in filled.items():
            if tally.wrong:
                print(f"  {slot} wrong: {', '.join(tally.wrong)}")
        print(f"  readiness wrong: {', '.join(chat['ready'].wrong)}")


def report(part: str, gen: dict[str, Any], rev: dict[str, Any], verbose: bool) -> None:
    print(f"\n== {part}: generation ({gen['n']} briefs) and review ({rev['n']} scenarios)")
    print(f"generation   outcome right      {_pct(gen['outcome'])}")
    print(f"             days, start, end   {_pct(gen['shape'])} of the generated ones")
    told = rev["told"]
    print(
        f"reviewer     precision {100 * told.precision:5.1f}%  recall {100 * told.recall:5.1f}%  "
        f"(tp {told.tp}, fp {told.fp}, fn {told.fn}, tn {told.tn})"
    )
    print(f"             for the right reason {_pct(rev['because'])} of those told")
    if rev["refused"]:
        print(f"             refused by the trip itself (never reviewed): {', '.join(rev['refused'])}")
    if verbose:
        print(f"  generation wrong: {', '.join(gen['outcome'].wrong)}")
        print(f"  generated with other days, start or end: {', '.join(gen['shape'].wrong)}")
        print(
            "  generation (expected, got): "
            + ", ".join(f"{k}: {v}" for k, v in sorted(gen["confusion"].items()))
        )
        print(f"  reviewer false alarms: {', '.join(told.false_alarms)}; missed: {', '.join(told.missed)}")


def _with_local_stack(run: Callable[[], None]) -> None:
    """Generation needs Valhalla and a table: a local stack of its own, on free ports."""
    from tripagent_local.stack import LocalStack, StackConfig

    stack = LocalStack(StackConfig.on_free_ports())
    stack.start()
    provider = {
        k: os.environ[k] for k in ("AI_PROVIDER", "AI_MODEL", "AI_API_KEY", "AI_BASE_URL") if k in os.environ
    }
    # One process plays the generation and the reviewer functions: both environments, the provider's on top.
    os.environ.update(stack.function_environment("GenerateFunction"))
    os.environ.update(stack.function_environment("ReviewerFunction"))
    os.environ.update(provider)  # the developer's provider, not the local stack's rules default
    try:
        run()
    finally:
        stack.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="make eval", description=__doc__.split("\n\n")[0])
    # The development part by default: the held-out one is scored once, when a piece of work is finished.
    parser.add_argument("--part", choices=(*PARTS, "all"), default="dev")
    parser.add_argument("--brief-only", action="store_true", help="the brief chat alone, with no stack")
    parser.add_argument("-v", "--verbose", action="store_true", help="list the ids of what was wrong")
    args = parser.parse_args(argv)

    def run() -> None:
        from tripagent.bootstrap import deployment_model
        from tripagent.settings import review_settings

        provider, model = deployment_model()
        print(f"provider: {os.environ.get('AI_PROVIDER') or 'rules'} ({model}); today is {TODAY}")
        for part in PARTS if args.part == "all" else (args.part,):
            with contextlib.redirect_stdout(io.StringIO()):  # the model calls' metric lines are not figures
                chat = brief_chat(load(part, "brief_chat"), provider, model)
            report_brief_chat(part, chat, args.verbose)
            if args.brief_only:
                continue
            with contextlib.redirect_stdout(io.StringIO()):
                scores = (
                    generation(load(part, "generation"), provider, model),
                    review(load(part, "review"), review_settings().ai_proactive_threshold),
                )
            report(part, *scores, args.verbose)

    if args.brief_only:
        run()
    else:
        _with_local_stack(run)
    return 0


if __name__ == "__main__":
    sys.exit(main())
