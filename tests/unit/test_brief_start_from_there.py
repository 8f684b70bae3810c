"""Where people arrive, then start from: "get the bus to Sant Julià de Lòria and start riding from there",
"jusqu'à Andorre-la-Vieille et je commence à rouler", "Andorre-la-Vieille, d'où nous partirons pour Pal"."""

from tripagent.adapters.places.gazetteer import Gazetteer

from tests.fixtures.brief_chat import last_reply


def test_from_there_is_the_whole_name_said_before(gazetteer: Gazetteer) -> None:
    text = (
        "We fly into Toulouse, get the bus to Sant Julià de Lòria and start riding from there."
        " 3 days to Pas de la Casa"
    )
    reply = last_reply(gazetteer, [text])
    assert reply.collected.start == "Sant Julià de Lòria"
    assert reply.collected.end == "Pas de la Casa"


def test_starting_to_ride_where_the_bus_goes(gazetteer: Gazetteer) -> None:
    turns = [
        "J'atterris à Barcelone le 7 mai, je prends le bus jusqu'à Andorre-la-Vieille"
        " et je commence à rouler le lendemain",
        "je vais jusqu'à Ordino, 1 jour c'est tout",
    ]
    reply = last_reply(gazetteer, turns, "fr")
    assert (reply.collected.start, reply.collected.end) == ("Andorra la Vella", "Ordino")
    assert not reply.collected.roundTrip


def test_d_ou_nous_partirons_is_a_start(gazetteer: Gazetteer) -> None:
    text = (
        "Nous arrivons de Barcelone en autocar à Andorre-la-Vieille, d'où nous partirons pour Pal en 2 jours"
    )
    reply = last_reply(gazetteer, [text], "fr")
    assert reply.collected.start == "Andorra la Vella"
    assert reply.readyToGenerate


def test_d_ou_partir_asked_back_is_no_start(gazetteer: Gazetteer) -> None:
    reply = last_reply(
        gazetteer, ["Je voudrais finir à Kallio, 1 jour, VTC. D'où partir à votre avis ?"], "fr"
    )
    assert reply.collected.start is None
    assert reply.collected.end == "Kallio"


def test_a_bus_back_to_the_car_is_no_loop(gazetteer: Gazetteer) -> None:
    turns = [
        "3 days, driving to Pas de la Casa and starting from there, going down",
        "no preference where we end, anywhere we can get the bus back to the car really",
    ]
    assert not last_reply(gazetteer, turns).collected.roundTrip


def test_where_people_holiday_is_where_they_set_off(gazetteer: Gazetteer) -> None:
    text = (
        "je suis en vacances à La Massana avec ma femme. Je voudrais descendre jusqu'à Andorra la Vella"
        " le mardi 11 mai, juste la journée"
    )
    reply = last_reply(gazetteer, [text], "fr")
    assert (reply.collected.start, reply.collected.end) == ("La Massana", "Andorra la Vella")


def test_a_meeting_point_is_the_start(gazetteer: Gazetteer) -> None:
    text = "Rendez-vous à Sant Julià de Lòria, montée vers Andorre-la-Vieille, et retour à Sant Julià. 1 jour"
    reply = last_reply(gazetteer, [text], "fr")
    assert reply.collected.start == "Sant Julià de Lòria"
    assert reply.collected.roundTrip


def test_where_the_train_goes_is_no_end_of_the_ride(gazetteer: Gazetteer) -> None:
    turns = [
        "De Toulouse à Andorre-la-Vieille en vélo de randonnée, 4 jours",
        "bon finalement on prend le train de Toulouse jusqu'à L'Hospitalet, et on part de Pas de la Casa."
        " du coup 2 jours suffiront",
    ]
    reply = last_reply(gazetteer, turns, "fr")
    assert (reply.collected.start, reply.collected.end) == ("Pas de la Casa", "Andorra la Vella")
    assert reply.readyToGenerate


def test_where_the_bus_goes_is_where_the_ride_begins(gazetteer: Gazetteer) -> None:
    reply = last_reply(gazetteer, ["I take the bus to Encamp, then ride to Soldeu, 2 days"])
    assert (reply.collected.start, reply.collected.end) == ("Encamp", "Soldeu")
    home = last_reply(gazetteer, ["I take the metro in. Ride: Etu-Töölö to Ullanlinna, 1 day"])
    assert (home.collected.start, home.collected.end) == ("Etu-Töölö", "Ullanlinna")


def test_down_to_a_park_asks_for_no_town_called_down(gazetteer: Gazetteer) -> None:
    turns = [
        "cycling w the kids sunday, from kruununhaka",
        "loop pls, past kaartinkaupunki and down to the park",
    ]
    reply = last_reply(gazetteer, turns)
    assert reply.clarification is None
    assert reply.readyToGenerate


def test_coming_back_there_is_a_loop(gazetteer: Gazetteer) -> None:
    text = "we start in Kaartinkaupunki near the market, and we come back there for the ship. Eira. 1 day"
    assert last_reply(gazetteer, [text]).collected.roundTrip
    turns = [
        "ride from Sant Julià up to Naturlandia, camp and come back down to Sant Julia the next morning",
        "yes, 2 days total. tent",
    ]
    reply = last_reply(gazetteer, turns)
    assert reply.clarification is None  # (no town called "Sant Julia The")
    assert reply.collected.roundTrip


def test_the_railway_station_in_a_district_is_the_district(gazetteer: Gazetteer) -> None:
    text = "We'd start around the railway station in Kluuvi, head through Kaisaniemi to Kallio. One day."
    assert last_reply(gazetteer, [text]).collected.start == "Kluuvi"


def test_a_start_not_known_yet(gazetteer: Gazetteer) -> None:
    turns = [
        "on voudrait aller à vélo jusqu'à Kallio, juste la journée, samedi prochain",
        "pour le départ je sais pas trop, peut-être depuis la gare centrale, ou peut-être Kamppi",
    ]
    assert last_reply(gazetteer, turns, "fr").collected.start is None
    reply = last_reply(
        gazetteer, ["a flight out of Barcelona the next day. ending in Andorra la Vella, 3 days"]
    )
    assert reply.collected.start is None


def test_the_hotel_people_stay_at_is_no_lodging_on_a_day_ride(gazetteer: Gazetteer) -> None:
    text = "staying at our hotel in Kamppi, want to ride to Eira and back to the hotel tomorrow, one day"
    assert last_reply(gazetteer, [text]).collected.accommodation is None
    longer = "staying at our hotel in Kamppi, 2 days riding around, Kamppi to Kallio"
    assert last_reply(gazetteer, [longer]).collected.accommodation == "hotel"
    said = "one day from Kamppi to Eira, back to our hotel; hostel next time"
    assert last_reply(gazetteer, [said]).collected.accommodation == "any"
