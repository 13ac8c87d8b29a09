"""The extras' pins resolve alike in any install order (no network: pyproject.toml and installed metadata).

google-adk 2.13 accepts opentelemetry-sdk 1.39 to 1.44 only; mlflow-skinny and the OTLP exporter take
any 1.x. So ``pip install -e '.[otel,mlflow]'`` then ``'.[adk]'`` installed 1.45+ first and downgraded it
second. Every extra that brings OpenTelemetry in now names one window, inside google-adk's, so
whichever comes first already installs what the others accept. (The heavy
``test_extras_coinstall.py`` installs them for real in both orders and runs ``pip check``.)
"""

import sys
from importlib import metadata
from typing import Dict, List

import pytest
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet

from tests.conftest import REPO_ROOT, in_ci, needs

if sys.version_info < (3, 11):
    pytest.skip("reads pyproject.toml with tomllib (Python 3.11+)", allow_module_level=True)
import tomllib  # noqa: E402

#: the extras whose packages depend on OpenTelemetry (google-adk; mlflow-skinny; the OTLP exporter)
OTEL_USERS = ("adk", "mlflow", "otel")
#: sample versions to compare windows on: every 1.x minor from 1.30 to 1.60, first and a late patch
VERSIONS = [f"1.{minor}.{patch}" for minor in range(30, 61) for patch in (0, 9)]


def _extras() -> Dict[str, List[Requirement]]:
    extras = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    return {name: [Requirement(r) for r in reqs] for name, reqs in extras.items()}


def _otel_pins() -> Dict[str, Dict[str, SpecifierSet]]:
    return {extra: {r.name: r.specifier for r in reqs if r.name.startswith("opentelemetry-")}
            for extra, reqs in _extras().items()}


def _window() -> SpecifierSet:
    windows = {str(spec) for pins in _otel_pins().values() for spec in pins.values()}
    assert len(windows) == 1, f"the extras pin OpenTelemetry differently: {windows}"
    return SpecifierSet(windows.pop())


def test_every_opentelemetry_pin_is_the_one_window():
    _window()


@pytest.mark.parametrize("extra", OTEL_USERS)
def test_each_extra_that_brings_opentelemetry_caps_it_itself(extra):
    """Whichever of them is installed first must already stay inside the window."""
    assert {"opentelemetry-api", "opentelemetry-sdk"} <= set(_otel_pins()[extra]), _otel_pins()[extra]


@pytest.mark.parametrize("dist,extra", [("google-adk", "adk"), ("mlflow-skinny", "mlflow")])
def test_the_window_is_inside_what_each_dependency_accepts(dist, extra):
    try:
        requires = metadata.requires(dist) or []
    except metadata.PackageNotFoundError:
        if in_ci():
            raise
        pytest.skip(needs(extra))
    theirs = [Requirement(r) for r in requires if not Requirement(r).marker]
    window = _window()
    inside = [v for v in VERSIONS if v in window]
    assert inside, window
    for req in theirs:
        if req.name in ("opentelemetry-api", "opentelemetry-sdk"):
            outside = [v for v in inside if v not in req.specifier]
            assert not outside, f"{dist} requires {req}; the extras' window {window} allows {outside}"
