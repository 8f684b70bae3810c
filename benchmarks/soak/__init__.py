"""The soak (``make soak``): many members at once on a local stack of its own, for a bounded time, with
faults injected if asked; then the invariants, checked once the queues drain.

Locust drives it, headless, from this process (``locust.env.Environment``): each simulated member signs
in, creates a trip of their own with two editors, and loops over the real mix (reads, operations with
``expectedVersion`` whose 409s they handle as a client would, brief-chat turns, generations, agent chat
streams, mentions, and the reviewer's suggestions answered by both editors at once), pausing 0.5–1.5 s
between actions as a person would. First, one member alone runs the same mix, warm, for the p95 the
soak's is compared with. At the end it prints, per route, the requests, p50 / p95 / p99 and failures,
and checks:

- the soak's p95 at most 3× one member's (without faults);
- no 5xx but the typed 503 (or a model's 502) of a failing dependency, and none at all without a fault;
  a typed ``ai_*`` error within ``AI_TIMEOUT_S`` and 2 s;
- every operation a member saw succeed is in its trip exactly once and none it saw fail: the trip's
  version is its creation's plus one per success (plus at most the answers whose outcome it could not
  know: a 503 may come after the commit);
- every committed whitelisted operation reached the bus once (at least once under the store's and the
  consumers' faults), was recorded exactly once in its trip's session, reviewed (its ledger settled, none
  left queued or claimed) and is in at most one suggestion;
- every member's chat turn and mention accepted is in the session, once, and a mention's reply at the
  sequence number its 202 named; every session's turns have unique, increasing numbers;
- no suggestion has two winners, no trip moved more than once for one, and each trip's WebSocket
  subscriber stayed connected and heard every applied suggestion decided;
- no dead letter, and each fault's recovery within 10 s.

``--fault`` (``SOAK_FAULT``) names faults, each injected a third of the way in for a third of the run
(20 s at most): ``valhalla`` and ``dynamodb`` stop the engine and start it again (the store keeps its data
on disk), ``consumers`` makes 30 % of the consumers' invocations die mid-batch (``tripagent fault``),
``model`` makes the deployment's provider (``benchmarks/fake_model.py``) slow, 503, 429 and garbage in
turn; ``all`` injects them together.

``members``: what a simulated member does and what it saw; ``faults``: injecting, healing and timing the
recovery of each fault; ``invariants``: the checks and figures; ``__main__``: the run.
"""

# Locust runs on gevent, which must patch the standard library before anything imports ssl or sockets:
# here, before any module of the soak.
from gevent import monkey

monkey.patch_all()
