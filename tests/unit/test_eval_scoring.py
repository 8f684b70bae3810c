"""make eval's scoring rules, and the corpus they read (every item well formed, the split stable)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evaluation.scoring import SLOTS, BinaryTally, place_key, slot_right

CORPUS = Path(__file__).resolve().parents[2] / "evaluation" / "corpus"


def test_a_place_is_its_name_whatever_the_label_case_or_accents() -> None:
    assert place_key("Santa Coloma (village, Andorra)") == place_key("santa coloma")
    assert place_key("Sant Julià de Lòria") == place_key("sant julia de loria")
    assert place_key("Andorra la Vella") != place_key("Andorra")


def test_a_loop_may_leave_its_end_empty_or_name_its_start() -> None:
    expected = {"start": "Encamp", "end": "Encamp", "roundTrip": True}
    assert slot_right("end", expected, {"start": "Encamp", "end": None})
    assert slot_right("end", expected, {"start": "Encamp", "end": "encamp"})
    assert not slot_right("end", expected, {"start": "Encamp", "end": "Canillo"})


def test_a_slot_said_and_missed_or_made_up_is_wrong() -> None:
    assert not slot_right("profile", {"profile": "road"}, {"profile": None})
    assert not slot_right("profile", {"profile": None}, {"profile": "gravel"})
    assert slot_right("dailyDistanceKm", {"dailyDistanceKm": 40}, {"dailyDistanceKm": 40.0})
    assert not slot_right("via", {"via": ["Canillo", "Encamp"]}, {"via": ["Encamp", "Canillo"]})  # in order


def test_precision_and_recall_count_false_alarms_and_misses() -> None:
    tally = BinaryTally()
    for expected, got in [(True, True), (True, False), (False, True), (False, False), (True, True)]:
        tally.add(expected, got, "x")
    assert (tally.tp, tally.fp, tally.fn, tally.tn) == (2, 1, 1, 1)
    assert tally.precision == pytest.approx(2 / 3)
    assert tally.recall == pytest.approx(2 / 3)


@pytest.mark.parametrize("part", ["dev", "heldout"])
def test_the_corpus_is_well_formed(part: str) -> None:
    chats = [json.loads(line) for line in (CORPUS / part / "brief_chat.jsonl").read_text().splitlines()]
    assert all(set(c["expected"]) == set(SLOTS) and c["turns"] and c["locale"] in ("en", "fr") for c in chats)
    briefs = [json.loads(line) for line in (CORPUS / part / "generation.jsonl").read_text().splitlines()]
    assert all(b["expected"] != "generated" or b["days"] >= 1 for b in briefs)
    reviews = [json.loads(line) for line in (CORPUS / part / "review.jsonl").read_text().splitlines()]
    assert all(isinstance(r["notify"], bool) and r["operation"]["op"] for r in reviews)


def test_the_held_out_part_shares_nothing_with_the_development_part() -> None:
    for name in ("brief_chat", "generation", "review"):
        ids = {
            part: {
                json.loads(line)["id"] for line in (CORPUS / part / f"{name}.jsonl").read_text().splitlines()
            }
            for part in ("dev", "heldout")
        }
        assert not ids["dev"] & ids["heldout"]
        # Batches read to tune on can never be held out, so the brief chat's held-out part stays the fixed
        # one it was cut as (README: how the corpus grows): large enough that one conversation is under a
        # tenth of a point, not a share of a development part that keeps growing.
        if name == "brief_chat":
            assert len(ids["heldout"]) >= 1000
        else:
            assert len(ids["heldout"]) >= 0.2 * (len(ids["dev"]) + len(ids["heldout"]))


def test_another_name_of_the_same_place_is_the_same_place() -> None:
    from evaluation.scoring import same_place

    assert same_place("Escaldes-Engordany", "les Escaldes")
    assert same_place("Andorre-la-Vieille", "Andorra la Vella")
    assert same_place("Pal (village, Andorra)", "Pal")
    assert not same_place("Ordino", "Canillo")
    assert not same_place("Ordino", None)


def test_every_item_of_the_corpus_lies_in_the_part_its_id_hashes_to() -> None:
    """The split rule lives in code, and the corpus follows it: 3 items in 10 held out."""
    import json
    from pathlib import Path

    from evaluation.split import PARTS, part_of

    corpus = Path(__file__).parents[2] / "evaluation" / "corpus"
    counts = dict.fromkeys(PARTS, 0)
    for part in PARTS:
        for path in (corpus / part).glob("*.jsonl"):
            for line in path.read_text().splitlines():
                item_id = json.loads(line)["id"]
                assert part_of(item_id) == part, (path.name, item_id)
                counts[part] += 1
    assert 0.27 < counts["heldout"] / sum(counts.values()) < 0.33


def test_a_slot_holds_a_value_when_the_rider_gave_one() -> None:
    from evaluation.scoring import holds_a_value

    expected = {"start": "Ordino", "end": "Ordino", "via": [], "roundTrip": True, "durationDays": None}
    assert holds_a_value("start", expected)
    assert holds_a_value("roundTrip", expected)
    assert not holds_a_value("end", expected)  # a loop's end is its start
    assert not holds_a_value("via", expected)
    assert not holds_a_value("durationDays", expected)
