"""Nominatim and Photon (respx) and Amazon Location (botocore Stubber) behind the same interface."""

from __future__ import annotations

import boto3
import httpx
import pytest
import respx
from botocore.stub import Stubber
from tripagent.adapters.places.remote import (
    AmazonLocationGeocoder,
    GeocoderUnavailable,
    NominatimGeocoder,
    PhotonGeocoder,
)
from tripagent.domain.places import Ambiguous, Found, NotFound


@respx.mock
def test_nominatim_finds_a_town() -> None:
    route = respx.get("https://nominatim.test/search").mock(
        return_value=httpx.Response(
            200,
            json=[
                {
                    "osm_id": 1,
                    "lat": "42.5567",
                    "lon": "1.5336",
                    "name": "Ordino",
                    "type": "town",
                    "category": "place",
                    "importance": 0.55,
                    "address": {"country": "Andorra"},
                }
            ],
        )
    )
    outcome = NominatimGeocoder("https://nominatim.test").search("Ordino")
    assert isinstance(outcome, Found)
    assert (outcome.place.name, outcome.place.country) == ("Ordino", "Andorra")
    assert route.calls.last.request.url.params["format"] == "jsonv2"


@respx.mock
def test_nominatim_namesakes_of_similar_standing_are_ambiguous() -> None:
    respx.get("https://nominatim.test/search").mock(
        return_value=httpx.Response(
            200,
            json=[
                {
                    "osm_id": 1,
                    "lat": "42.4983",
                    "lon": "1.5059",
                    "name": "Santa Coloma",
                    "type": "village",
                    "category": "place",
                    "importance": 0.4,
                    "address": {"country": "Andorra"},
                },
                {
                    "osm_id": 2,
                    "lat": "41.4515",
                    "lon": "2.2081",
                    "name": "Santa Coloma de Gramenet",
                    "type": "city",
                    "category": "place",
                    "importance": 0.7,
                    "address": {"country": "Spain"},
                },
            ],
        )
    )
    assert isinstance(NominatimGeocoder("https://nominatim.test").search("Santa Coloma"), Ambiguous)


@respx.mock
def test_photon_features_become_places() -> None:
    respx.get("https://photon.test/api").mock(
        return_value=httpx.Response(
            200,
            json={
                "features": [
                    {
                        "geometry": {"coordinates": [24.9384, 60.1699]},
                        "properties": {
                            "osm_id": 9,
                            "osm_key": "place",
                            "osm_value": "city",
                            "name": "Helsinki",
                            "country": "Finland",
                        },
                    }
                ]
            },
        )
    )
    outcome = PhotonGeocoder("https://photon.test").search("Helsinki")
    assert isinstance(outcome, Found)
    assert outcome.place.lat == pytest.approx(60.1699)


@respx.mock
def test_a_failing_remote_geocoder_is_a_typed_error() -> None:
    respx.get("https://photon.test/api").mock(return_value=httpx.Response(502))
    with pytest.raises(GeocoderUnavailable):
        PhotonGeocoder("https://photon.test").search("Helsinki")


def test_amazon_location_search_text() -> None:
    client = boto3.client(
        "geo-places", region_name="eu-west-1", aws_access_key_id="x", aws_secret_access_key="x"
    )
    stubber = Stubber(client)
    stubber.add_response(
        "search_text",
        {
            "PricingBucket": "Core",
            "ResultItems": [
                {
                    "PlaceId": "p1",
                    "PlaceType": "Locality",
                    "Title": "Canillo, Andorra",
                    "Position": [1.5999, 42.5668],
                    "Address": {"Country": {"Name": "Andorra"}},
                }
            ],
        },
        {"QueryText": "Canillo", "MaxResults": 8, "Language": "en", "BiasPosition": [1.6, 42.5]},
    )
    stubber.add_response("search_text", {"PricingBucket": "Core", "ResultItems": []})
    with stubber:
        found = AmazonLocationGeocoder(client).search("Canillo", near=(42.5, 1.6))
        missing = AmazonLocationGeocoder(client).search("Nowhereville")
    assert isinstance(found, Found)
    assert found.place.name == "Canillo"
    assert isinstance(missing, NotFound)
