"""The composition root: settings → real adapters → what use cases need. Built lazily, once per cold start."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from tripagent.application.ports import HealthProbe

if TYPE_CHECKING:
    from tripagent.adapters.llm.rules import RuleEngine
    from tripagent.adapters.places.gazetteer import Gazetteer
    from tripagent.adapters.valhalla import ValhallaClient
    from tripagent.application.agent import TripAgent
    from tripagent.application.agent_streams import AgentTurns, TurnStreamStore
    from tripagent.application.ai_config import ProviderConfig, UserProviderStore
    from tripagent.application.approvals import Approvals
    from tripagent.application.brief_chat import BriefChat
    from tripagent.application.generate import Generator
    from tripagent.application.llm import ModelProvider
    from tripagent.application.people import People
    from tripagent.application.places import PlaceFinder
    from tripagent.application.ports import EventPublisher
    from tripagent.application.proposals import ProposalDecider, ProposalStore
    from tripagent.application.realtime import Realtime
    from tripagent.application.review import Reviewer
    from tripagent.application.sessions import SessionPurger, SessionStore
    from tripagent.application.suggestions import Suggestions
    from tripagent.application.trips import TripWorkspace
    from tripagent.auth import TokenVerifier


@cache
def health_probes() -> tuple[HealthProbe, ...]:
    from tripagent.adapters.aws import dynamodb_client, events_client
    from tripagent.adapters.health_probes import EventBusProbe, RoutingProbe, TableProbe
    from tripagent.adapters.valhalla import ValhallaClient
    from tripagent.settings import health_settings

    s = health_settings()
    points = (
        [tuple(float(x) for x in p.split(",")) for p in s.health_route.split(";")] if s.health_route else []
    )
    return (
        TableProbe(dynamodb_client(s.region, s.dynamodb_endpoint_url), s.table_name),
        EventBusProbe(events_client(s.region, s.events_endpoint_url), s.event_bus_name),
        RoutingProbe(
            ValhallaClient(s.valhalla_url, timeout_s=s.valhalla_timeout_s),
            [(lat, lon) for lat, lon in points],
        ),
    )


@cache
def trip_workspace() -> TripWorkspace:
    from tripagent.adapters.aws import dynamodb_client
    from tripagent.adapters.dynamodb.trips import DynamoTripRepository
    from tripagent.adapters.system import SystemClock, new_id
    from tripagent.application.trips import TripWorkspace
    from tripagent.settings import table_settings

    s = table_settings()
    repository = DynamoTripRepository(dynamodb_client(s.region, s.dynamodb_endpoint_url), s.table_name)
    return TripWorkspace(trips=repository, clock=SystemClock(), new_id=new_id)


@cache
def event_publisher() -> EventPublisher:
    from tripagent.adapters.aws import events_client
    from tripagent.adapters.eventbridge import EventBridgePublisher
    from tripagent.settings import bus_settings

    s = bus_settings()
    return EventBridgePublisher(events_client(s.region, s.events_endpoint_url), s.event_bus_name)


@cache
def session_store() -> SessionStore:
    from tripagent.adapters.aws import dynamodb_client
    from tripagent.adapters.dynamodb.sessions import DynamoSessionStore
    from tripagent.settings import session_settings

    s = session_settings()
    client = dynamodb_client(s.region, s.dynamodb_endpoint_url)
    return DynamoSessionStore(client, s.table_name, retention_s=s.session_retention_days * 86400)


@cache
def user_provider_store() -> UserProviderStore:
    from tripagent.adapters.aws import dynamodb_client, kms_client
    from tripagent.adapters.dynamodb.ai_providers import DynamoUserProviderStore
    from tripagent.adapters.kms import EnvelopeCipher
    from tripagent.settings import user_provider_settings

    s = user_provider_settings()
    cipher = EnvelopeCipher(kms_client(s.region, s.kms_endpoint_url), s.kms_key_id)
    return DynamoUserProviderStore(dynamodb_client(s.region, s.dynamodb_endpoint_url), s.table_name, cipher)


def environment_provider() -> ProviderConfig | None:
    from tripagent.application.ai_config import ProviderConfig
    from tripagent.settings import ai_settings

    s = ai_settings()
    if s.ai_provider is None:
        return None
    return ProviderConfig(
        provider=s.ai_provider,
        model=s.ai_model or "rules",
        base_url=s.ai_base_url,
        api_key=s.ai_api_key.get_secret_value() if s.ai_api_key else None,
    )


def _instrumented(config: ProviderConfig) -> ModelProvider:
    """A provider held to the deployment's call limits, measured."""
    from tripagent.adapters.llm.factory import build_provider
    from tripagent.adapters.llm.instrumented import InstrumentedProvider
    from tripagent.application.llm_limits import CallLimits, LimitedProvider
    from tripagent.settings import ai_settings

    s = ai_settings()
    limits = CallLimits(timeout_s=s.ai_timeout_s, max_output_tokens=s.ai_max_output_tokens)
    provider = build_provider(config, region=s.region, timeout_s=limits.timeout_s, rules=rule_engines)
    return InstrumentedProvider(LimitedProvider(provider, limits))


@cache
def _environment_model() -> ModelProvider | None:
    """The deployment's provider, built once per cold start: its HTTP client and connections are reused
    across requests instead of opened anew for each."""
    config = environment_provider()
    return _instrumented(config) if config is not None else None


def model_for(user_id: str) -> tuple[ModelProvider, ProviderConfig]:
    """The caller's model: their own provider, else the deployment's, else ``ai_not_configured``."""
    from tripagent.application.ai_config import resolve

    config = resolve(user_id, user_provider_store(), environment_provider())
    shared = _environment_model() if config.source == "environment" else None
    return shared or _instrumented(config), config


@cache
def gazetteer() -> Gazetteer:
    from tripagent.adapters.places.gazetteer import Gazetteer

    return Gazetteer()


@cache
def rule_engines() -> dict[str, RuleEngine]:
    """The offline provider's engines: briefs' places through the configured geocoder (as generation's),
    the agent's proposed stops through the embedded gazetteer (offline)."""
    from tripagent.adapters.llm.rules import rule_engines as engines

    return engines(places=place_finder(), pois=gazetteer())


@cache
def place_finder() -> PlaceFinder:
    """The configured geocoder; the embedded gazetteer unless PLACES_PROVIDER names another."""
    from tripagent.settings import places_settings

    s = places_settings()
    if s.places_provider == "nominatim":
        from tripagent.adapters.places.remote import NominatimGeocoder

        return NominatimGeocoder(s.places_base_url or "")
    if s.places_provider == "photon":
        from tripagent.adapters.places.remote import PhotonGeocoder

        return PhotonGeocoder(s.places_base_url or "")
    if s.places_provider == "amazon-location":
        import boto3

        from tripagent.adapters.places.remote import AmazonLocationGeocoder

        return AmazonLocationGeocoder(boto3.client("geo-places", region_name=s.region))
    return gazetteer()


@cache
def router() -> ValhallaClient:
    from tripagent.adapters.valhalla import ValhallaClient
    from tripagent.settings import places_settings

    s = places_settings()
    if not s.valhalla_url:
        from tripagent.errors import ConfigurationError

        raise ConfigurationError("PlacesSettings: VALHALLA_URL is required to route")
    return ValhallaClient(s.valhalla_url, timeout_s=s.valhalla_timeout_s)


@cache
def brief_chat() -> BriefChat:
    from tripagent.adapters.aws import dynamodb_client
    from tripagent.adapters.dynamodb.rate_limits import DynamoRateLimiter
    from tripagent.adapters.signing import HmacSigner
    from tripagent.application.brief_chat import BriefChat, BriefLimits
    from tripagent.settings import brief_chat_settings

    s = brief_chat_settings()
    limits = BriefLimits(
        max_messages=s.max_messages,
        max_message_chars=s.max_message_chars,
        rate_limit=s.rate_limit,
        rate_window_s=s.rate_window_s,
    )
    return BriefChat(
        finder=place_finder(),
        limiter=DynamoRateLimiter(dynamodb_client(s.region, s.dynamodb_endpoint_url), s.table_name),
        signer=HmacSigner(s.brief_state_secret.get_secret_value().encode()),
        limits=limits,
        coverage=gazetteer(),
    )


def model_name_for(user_id: str) -> tuple[ModelProvider, str]:
    provider, config = model_for(user_id)
    return provider, config.model


@cache
def generator() -> Generator:
    from tripagent.application.generate import Generator
    from tripagent.settings import places_settings

    names = gazetteer()
    return Generator(
        finder=place_finder(),
        coverage=names,
        pois=names,
        router=router(),
        workspace=trip_workspace(),
        max_snap_m=places_settings().max_snap_m,
    )


@cache
def trip_agent() -> TripAgent:
    from tripagent.adapters.aws import dynamodb_client
    from tripagent.adapters.dynamodb.rate_limits import DynamoRateLimiter, DynamoTokenBudget
    from tripagent.adapters.open_meteo import OpenMeteoWeather
    from tripagent.adapters.system import SystemClock
    from tripagent.application.agent import AgentLimits, TripAgent
    from tripagent.application.agent_tools import ReadTools
    from tripagent.settings import agent_settings

    s = agent_settings()
    db = dynamodb_client(s.region, s.dynamodb_endpoint_url)
    tools = ReadTools(
        pois=gazetteer(),
        weather=OpenMeteoWeather(s.weather_base_url) if s.weather_base_url else None,
        router=router() if s.valhalla_url else None,
    )
    return TripAgent(
        workspace=trip_workspace(),
        sessions=session_store(),
        clock=SystemClock(),
        tools=tools,
        max_tool_steps=s.ai_max_tool_steps,
        approvals=approvals(),
        limits=AgentLimits(
            limiter=DynamoRateLimiter(db, s.table_name),
            budget=DynamoTokenBudget(db, s.table_name),
            rate_limit=s.rate_limit,
            rate_window_s=s.rate_window_s,
            daily_tokens=s.daily_token_budget,
        ),
    )


@cache
def people() -> People:
    from tripagent.adapters.aws import dynamodb_client
    from tripagent.adapters.dynamodb.people import DynamoPeopleStore
    from tripagent.application.people import People
    from tripagent.settings import table_settings

    s = table_settings()
    store = DynamoPeopleStore(dynamodb_client(s.region, s.dynamodb_endpoint_url), s.table_name)
    # An ID token is checked as an access token is: the issuer's signature, its issuer and audience.
    return People(
        workspace=trip_workspace(), store=store, verify_identity=lambda t: token_verifier().verify(t)
    )


@cache
def turn_stream_store() -> TurnStreamStore:
    from tripagent.adapters.aws import dynamodb_client
    from tripagent.adapters.dynamodb.agent_streams import DynamoTurnStreamStore
    from tripagent.settings import table_settings

    s = table_settings()
    return DynamoTurnStreamStore(dynamodb_client(s.region, s.dynamodb_endpoint_url), s.table_name)


@cache
def agent_turns() -> AgentTurns:
    from tripagent.application.agent_streams import AgentTurns

    return AgentTurns(workspace=trip_workspace(), store=turn_stream_store())


@cache
def proposal_store() -> ProposalStore:
    from tripagent.adapters.aws import dynamodb_client
    from tripagent.adapters.dynamodb.proposals import DynamoProposalStore
    from tripagent.settings import table_settings

    s = table_settings()
    return DynamoProposalStore(dynamodb_client(s.region, s.dynamodb_endpoint_url), s.table_name)


@cache
def proposal_decider() -> ProposalDecider:
    from tripagent.application.proposals import ProposalDecider

    workspace = trip_workspace()
    return ProposalDecider(store=proposal_store(), workspace=workspace, clock=workspace.clock)


@cache
def approvals() -> Approvals:
    from tripagent.application.approvals import Approvals

    return Approvals(decider=proposal_decider(), sessions=session_store())


def session_purger() -> SessionPurger:
    from tripagent.adapters.dynamodb.sessions import DynamoSessionStore

    store = session_store()
    assert isinstance(store, DynamoSessionStore)
    return store


@cache
def token_verifier() -> TokenVerifier:
    from tripagent.auth import TokenVerifier
    from tripagent.errors import ConfigurationError
    from tripagent.settings import jwt_settings

    s = jwt_settings()
    if not (s.jwt_issuer and s.jwt_audience):
        raise ConfigurationError(
            "JwtSettings: JWT_ISSUER and JWT_AUDIENCE verify tokens where no authorizer does"
        )
    jwks = s.jwt_jwks_url or s.jwt_issuer.rstrip("/") + "/.well-known/jwks.json"
    return TokenVerifier.from_jwks_url(
        issuer=s.jwt_issuer, audiences=s.jwt_audience.split(","), jwks_url=jwks
    )


def deployment_model() -> tuple[ModelProvider, str]:
    """The deployment's model for work no member asked for (the reviewer); ``rules`` when none is set."""
    from tripagent.adapters.llm.rules import RulesProvider

    config, provider = environment_provider(), _environment_model()
    if config is None or provider is None:
        return RulesProvider(rule_engines()), "rules"
    return provider, config.model


@cache
def reviewer() -> Reviewer:
    from tripagent.adapters.aws import dynamodb_client, sqs_client
    from tripagent.adapters.dynamodb.reviews import DynamoReviewLedger
    from tripagent.adapters.dynamodb.trips import DynamoTripRepository
    from tripagent.adapters.open_meteo import OpenMeteoWeather
    from tripagent.adapters.sqs import SqsReviewQueue
    from tripagent.adapters.system import SystemClock
    from tripagent.adapters.valhalla import ValhallaClient
    from tripagent.application.review import Reviewer
    from tripagent.settings import review_settings

    s = review_settings()
    db = dynamodb_client(s.region, s.dynamodb_endpoint_url)
    return Reviewer(
        trips=DynamoTripRepository(db, s.table_name),
        ledger=DynamoReviewLedger(db, s.table_name),
        queue=SqsReviewQueue(sqs_client(s.region, s.sqs_endpoint_url), s.review_queue_url),
        proposals=proposal_store(),
        sessions=session_store(),
        clock=SystemClock(),
        model=deployment_model,
        threshold=s.ai_proactive_threshold,
        router=ValhallaClient(s.valhalla_url, timeout_s=s.valhalla_timeout_s) if s.valhalla_url else None,
        weather=OpenMeteoWeather(s.weather_base_url) if s.weather_base_url else None,
    )


@cache
def suggestions() -> Suggestions:
    from tripagent.adapters.system import SystemClock
    from tripagent.application.suggestions import Suggestions

    return Suggestions(
        store=proposal_store(),
        decider=proposal_decider(),
        sessions=session_store(),
        clock=SystemClock(),
    )


@cache
def realtime() -> Realtime:
    import time

    from tripagent.adapters.aws import dynamodb_client, management_api_client
    from tripagent.adapters.dynamodb.connections import DynamoConnectionStore
    from tripagent.adapters.websocket import ManagementApiPusher
    from tripagent.application.realtime import Realtime
    from tripagent.settings import realtime_settings

    s = realtime_settings()
    return Realtime(
        connections=DynamoConnectionStore(dynamodb_client(s.region, s.dynamodb_endpoint_url), s.table_name),
        workspace=trip_workspace(),
        pusher=ManagementApiPusher(management_api_client(s.region, s.websocket_management_url)),
        now=time.time,
    )
