"""docs/api.md and docs/plugins/testing.md name every public name of the core."""

from __future__ import annotations

import re
from pathlib import Path

import lacak
import lacak.cli
import lacak.testing
import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"


def _names(page: str) -> set[str]:
    """The names written as code (between backticks) on a docs page."""
    code = re.findall(r"`([^`]+)`", (DOCS / page).read_text(encoding="utf-8"))
    return {name for span in code for name in re.findall(r"[A-Za-z_][A-Za-z_0-9]*", span)}


@pytest.mark.parametrize(
    ("module", "page"),
    [(lacak, "api.md"), (lacak.cli, "api.md"), (lacak.testing, "plugins/testing.md")],
)
def test_every_public_name_is_documented(module: object, page: str) -> None:
    documented = _names(page)
    missing = [name for name in module.__all__ if name not in documented]  # type: ignore[attr-defined]
    assert not missing, f"{page} does not mention {missing}"
