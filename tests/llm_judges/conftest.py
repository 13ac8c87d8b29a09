"""The shared local-judge fixtures of tests/evaluators (a real HTTP judge server, ``block``)."""

from ..evaluators.conftest import block  # noqa: F401  (re-exported helper)
