"""The per-user rate limit on DynamoDB Local: concurrent requests from one user, one atomic counter."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from tripagent.adapters.aws import dynamodb_client
from tripagent.adapters.dynamodb.rate_limits import DynamoRateLimiter
from tripagent.adapters.system import new_id
from tripagent_local.stack import LocalStack


def test_concurrent_requests_from_one_user_get_exactly_the_limit(local_stack: LocalStack) -> None:
    client = dynamodb_client("eu-west-1", f"http://127.0.0.1:{local_stack.config.dynamodb_port}")
    limiter = DynamoRateLimiter(client, next(iter(local_stack.table_names.values())))
    user = new_id("usr")
    with ThreadPoolExecutor(max_workers=20) as pool:
        answers = list(pool.map(lambda _: limiter.hit(f"ai-chat#{user}", limit=20, window_s=3600), range(35)))
    assert answers.count(None) == 20
    refused = [a for a in answers if a is not None]
    assert len(refused) == 15
    assert all(1 <= a <= 3600 for a in refused)
    assert limiter.hit(f"ai-chat#{new_id('usr')}", limit=20, window_s=3600) is None  # others are not affected
