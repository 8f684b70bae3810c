"""The kind of bike and the kind of bed as people write them: plurals and typos, a kind taken back or
changed within a turn, "no preference" after a kind was said, and two kinds of lodging that are a mix
rather than a change of mind."""

import datetime as dt

import pytest
from tripagent.adapters.rules.brief_reader.reading import read_turn
from tripagent.domain.brief import Collected

TODAY = dt.date(2027, 5, 3)


def profile(text: str) -> str | None:
    return read_turn(text, today=TODAY).slots.profile


def lodging(text: str) -> str | None:
    return read_turn(text, today=TODAY).slots.accommodation


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("de Kamppi à Kallio, 1 jour, vélos de ville", "hybrid"),
        ("de Canillo à Encamp, 2 jours, vélos de route", "road"),
        ("boucle escaldes 1j route 60km", "road"),
        ("Boucle Pas de la Casa – Grau Roig, 1 j, route.", "road"),
        ("2 days on a hybird bike", "hybrid"),
        ("trekking bikes I guess, with panniers", "touring"),
        ("en bicyclette de montagne", "mountain"),
        ("3 dayz on mtbs", "mountain"),
        ("a mountian bike, huts", "mountain"),
        ("3 days of e-biking ending in Ordino", "e-bike"),
        ("on a citybike, 15km daily max", "hybrid"),
        ("just my normal commuter bike", "hybrid"),
        ("Quatre jours, vélo chargé, camping.", "touring"),
        ("Quinze jours en Andorre en rando", "touring"),
        ("gravle bikes lol sorry typing on phone", "gravel"),
        # session 21: a second language's words, the shop's and the club's, a kind given alone
        ("I go with my bici de montaña", "mountain"),
        ("2 days with my kids with bikes of mountain", "mountain"),
        ("mountain", "mountain"),
        ("Plan: Rennrad tour, 2 days", "road"),
        ("2 days, racer bike.", "road"),
        ("fixie ride plan:", "road"),
        ("boucle route 120 km par Sant Julià", "road"),
        ("hakaniemi || boucle || 1j || velo elec", "e-bike"),
        ("rando avec sacoches", "touring"),
        ("we'll just take normal bikes", "hybrid"),
        ("Tomorrow I should like to ride my city bicycle", "hybrid"),
    ],
)
def test_a_kind_of_bike_written_as_people_write_it(text: str, kind: str) -> None:
    assert profile(text) == kind


@pytest.mark.parametrize(
    "text",
    [
        "je voudrais faire une rando à vélo de 4 jours",  # a trip by bike, of no kind
        "I'd like a bike route",
        "Demain on va au Pas en bus",
    ],
)
def test_a_trip_by_bike_says_no_kind(text: str) -> None:
    assert profile(text) is None


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("ugh actually my gravel bike is in the shop. Back to road.", "road"),
        ("hmm no, road bike actually, the gravel one is in the shop", "road"),
        ("Pardon, VTC, pas VTT !", "hybrid"),
        ("correction : pas VAE, mon frère prend son vélo de route", "road"),
        ("they're out of e-bikes for those dates. so normal mountain bikes it is", "mountain"),
        ("gravel bikes, not mtb, we just sold the mtbs", "gravel"),
        ("2 days, gravel. not via Sant Julià, the main road is busy", "gravel"),
        ("electric mountain bikes, 2 days", "e-bike"),
        ("en VTT électrique", "e-bike"),
        ("gravel bikepacking 5d andorra", "gravel"),
        ("Demain je voudrais monter de Soldeu au Pas en vélo de route", "road"),
    ],
)
def test_the_kind_kept_is_the_one_not_taken_back(text: str, kind: str) -> None:
    assert profile(text) == kind


@pytest.mark.parametrize(
    "text",
    [
        "I was going to say road bike but honestly no preference, whatever the rental shop has",
        "Pour le vélo en fait peu importe, je prendrai ce qu'il y a.",
        "actually no preference for the bike",
    ],
)
def test_no_preference_takes_back_the_kind_said_before(text: str) -> None:
    before = Collected(profile="road")
    assert read_turn(text, today=TODAY).merged_into(before).profile is None


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Mon club propose Escaldes – Canillo, vélo de route, hébergement indifférent", "road"),
        ("4 days, on an e-bike. no idea about where to sleep, whatever's cheapest tbh", "e-bike"),
        ("5 days on a gravel bike, just no idea where yet", "gravel"),
    ],
)
def test_no_preference_about_the_beds_keeps_the_bike(text: str, kind: str) -> None:
    reading = read_turn(text, today=TODAY)
    assert reading.merged_into(Collected()).profile == kind


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Hotels please, neither of us is camping lol", "hotel"),
        ("Hotels please, we're too old for tents lol", "hotel"),
        ("hôtel svp, on a passé l'âge du camping", "hotel"),
        ("I'd rather sleep in mountain huts than in the tent.", "hut"),
        ("camping's not really an option in the city so hostel I guess", "hostel"),
        ("we'd planned camping but the groom wants hostels, so hostels", "hostel"),
        ("Loaded touring, tents.", "camping"),
        ("Je voudrais camper, c'est possible là-haut ?", "camping"),
        ("chambre d'hôte le soir", "hotel"),
        ("2 jour en vtc, aubergue de jeunesse", "hostel"),
        ("huts. Not sure where to finish yet", "hut"),
        ("mountain huts if any are open in June", "hut"),
    ],
)
def test_the_kind_of_bed_kept_is_the_one_not_taken_back(text: str, kind: str) -> None:
    assert lodging(text) == kind


@pytest.mark.parametrize(
    "text",
    [
        "Un mix camping/hôtel",
        "Camping mostly but happy to grab a hotel if it pours.",
        "Camping where possible, hostels otherwise.",
        "hotels / hostels mix",
        "hébergement un peu de tout, refuge, camping, hôtel selon les étapes",
        "Nights: whatever's cheapest.",
        "Cheapest beds going, don't care what type.",
    ],
)
def test_two_kinds_said_together_or_none_minded_are_any(text: str) -> None:
    assert lodging(text) == "any"
