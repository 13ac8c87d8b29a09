"""How every message names the command that adds an optional extra.

``pip install 'agent-evaluators[x]'`` is right for an installed package but wrong in a clone: there
it fetches the published package over the editable checkout (or fails where none is published),
so each hint also gives the checkout's spelling, ``pip install -e '.[x]'``. One function, so no
message drifts back to one spelling (``tests/test_install_hints.py`` checks the package for others).
"""


def install_hint(extra: str) -> str:
    """``pip install 'agent-evaluators[EXTRA]' (from a checkout: pip install -e '.[EXTRA]')``."""
    return f"pip install 'agent-evaluators[{extra}]' (from a checkout: pip install -e '.[{extra}]')"
