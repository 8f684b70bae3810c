"""Model providers behind ``tripagent.application.llm.ModelProvider``: one module each."""
