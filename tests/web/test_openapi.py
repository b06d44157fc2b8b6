"""Property-based tests of the API from its own OpenAPI description (schemathesis): requests
generated from the schema, valid and malformed, get documented answers, and never a 500."""

from __future__ import annotations

import json
from typing import Any

import pytest

schemathesis = pytest.importorskip("schemathesis", reason="schemathesis is not installed")

from hypothesis import HealthCheck, settings  # noqa: E402
from schemathesis import GenerationMode  # noqa: E402
from schemathesis.specs.openapi.checks import positive_data_acceptance  # noqa: E402

from .conftest import make_app  # noqa: E402

schema = schemathesis.openapi.from_asgi("/api/openapi.json", make_app())
schema.config.generation.update(
    modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE],
    # 40 under the default profile (60 examples), more under --hypothesis-profile=thorough
    max_examples=max(1, 40 * settings.default.max_examples // 60),
    deterministic=True,
)


@schema.parametrize()
@settings(deadline=None, suppress_health_check=list(HealthCheck))
def test_answers_are_documented_and_never_a_server_error(case: schemathesis.Case) -> None:
    # Every default check but "schema-valid requests are accepted": names (kinds,
    # strategies, generators) come from the registry, so a request can fit the schema and
    # still name nothing, which is rightly a 422 with lacak's message.
    response = case.call_and_validate(
        additional_checks=[no_private_words], excluded_checks=[positive_data_acceptance]
    )
    assert response.status_code < 500, response.text


def test_the_description_names_the_documented_formats() -> None:
    from fastapi.testclient import TestClient

    with TestClient(make_app()) as client:
        description = client.get("/api/openapi.json").json()
    paths = description["paths"]
    assert {"/api/kinds", "/api/kinds/{kind}", "/api/kinds/{kind}/solve",
            "/api/kinds/{kind}/generate", "/api/dictionaries", "/api/server"} <= set(paths)  # fmt: skip
    solved = description["components"]["schemas"]["Solved"]["properties"]["result"]
    assert "docs/results.md" in solved["description"]


# -- nothing but registered names gets through ----------------------------------------------

#: A word of a private file that no registered dictionary holds, on a board that has it.
CANARY = "ZYXWVU"
CANARY_BOARD = "ZYX/UVW/AAA"


@pytest.fixture(scope="module")
def private_list(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("private") / "words.json"
    path.write_text(json.dumps([CANARY, "ZYX"]))
    return str(path)


def no_private_words(_ctx: Any, response: Any, _case: Any) -> None:
    """A schemathesis check: no answer holds the private file's words."""
    assert CANARY not in response.text, "a private file's words came back"


#: Every way a request may name a dictionary: (operation, body) with ``{}`` for the path.
NAMED = [
    ("solve", {"puzzle": CANARY_BOARD, "options": {"dictionary": {}}}),
    ("solve", {"puzzle": CANARY_BOARD, "strategy": "boggle",
               "strategy_options": {"dictionary": {}}}),
    ("generate", {"algorithm": "random", "seed": 1, "options": {"dictionary": {}}}),
    ("generate", {"algorithm": "classic4", "seed": 1, "prepare": {"dictionary": {}}}),
]  # fmt: skip


def _filled(body: Any, value: str) -> Any:
    if body == {}:
        return value
    if isinstance(body, dict):
        return {key: _filled(item, value) for key, item in body.items()}
    return body


@pytest.mark.parametrize(("operation", "body"), NAMED)
def test_a_path_in_a_request_is_one_documented_422_and_no_file_is_read(
    private_list: str, operation: str, body: dict[str, Any]
) -> None:
    """Explicit cases of the fuzzed API: a dictionary given as a path (the web API read
    any file, and answered with its words)."""
    case = schema[f"/api/kinds/{{kind}}/{operation}"]["POST"].Case(
        path_parameters={"kind": "boggle"},
        body=_filled(body, private_list),
        media_type="application/json",
    )
    response = case.call_and_validate(
        additional_checks=[no_private_words], excluded_checks=[positive_data_acceptance]
    )
    assert response.status_code == 422, response.text
    assert "registered dictionary" in response.json()["detail"]
