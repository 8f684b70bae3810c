"""Run every benchmark and print its ratios; exit 1 if a goal is missed."""

from __future__ import annotations

import os
import sys

from benchmarks import agent, cold_import, generation, places, review, web


def main() -> int:
    from tripagent_local.stack import LocalStack, StackConfig

    ok = cold_import.report()
    ok &= places.report()
    approvals = review.approvals()  # before the stack starts: its pollers and engines would share the cores
    stack = LocalStack(StackConfig.on_free_ports())
    stack.start()
    # The agent and review benchmarks call the use cases in this process, as AgentChatFunction would.
    os.environ.update(stack.function_environment("AgentChatFunction"))
    try:
        ok &= generation.report(f"http://127.0.0.1:{stack.config.valhalla_port}")
        ok &= agent.report()
        ok &= review.report(approvals)
        ok &= web.report(stack)
    finally:
        stack.stop()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
