"""The rules engines of the offline ``rules`` provider, one per task, built in the composition root with what
they need (``adapters/llm/rules.py`` holds them)."""
