from . import agent  # noqa: F401  (ADK loads <package>.agent.root_agent)
