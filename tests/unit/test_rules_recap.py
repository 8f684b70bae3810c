"""The rules provider's recap reads as its language is written: French contracts its prepositions with
the place's article or first vowel, and dates are said, not printed as the API stores them."""

from tripagent.adapters.rules.brief_reader.recap import recap


def test_french_contracts_de_and_a_with_the_place() -> None:
    said = recap({"start": "les Escaldes", "end": "Encamp", "durationDays": 2}, "fr")
    assert said.startswith("des Escaldes, à Encamp")
    said = recap({"start": "Encamp", "end": "les Escaldes"}, "fr")
    assert said.startswith("d'Encamp, aux Escaldes")
    assert recap({"start": "Helsinki"}, "fr") == "d'Helsinki"
    assert recap({"start": "Canillo", "end": "Pal"}, "fr") == "de Canillo, à Pal"


def test_english_keeps_the_names_as_they_are() -> None:
    assert recap({"start": "les Escaldes", "end": "Encamp"}, "en") == "from les Escaldes, to Encamp"


def test_the_start_date_is_said_with_its_weekday() -> None:
    assert recap({"startDate": "2027-05-08"}, "en") == "on Saturday 8 May 2027"
    assert recap({"startDate": "2027-05-08"}, "fr") == "le samedi 8 mai 2027"
