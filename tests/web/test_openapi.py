"""Property-based tests of the API from its own OpenAPI description (schemathesis): requests
generated from the schema, valid and malformed, get documented answers, and never a 500."""

from __future__ import annotations

import pytest

schemathesis = pytest.importorskip("schemathesis", reason="schemathesis is not installed")

from hypothesis import HealthCheck, settings  # noqa: E402
from schemathesis import GenerationMode  # noqa: E402
from schemathesis.specs.openapi.checks import positive_data_acceptance  # noqa: E402

from .conftest import make_app  # noqa: E402

schema = schemathesis.openapi.from_asgi("/api/openapi.json", make_app())
schema.config.generation.update(
    modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE], max_examples=40, deterministic=True
)


@schema.parametrize()
@settings(deadline=None, suppress_health_check=list(HealthCheck))
def test_answers_are_documented_and_never_a_server_error(case: schemathesis.Case) -> None:
    # Every default check but "schema-valid requests are accepted": names (kinds,
    # strategies, generators) come from the registry, so a request can fit the schema and
    # still name nothing, which is rightly a 422 with lacak's message.
    response = case.call_and_validate(excluded_checks=[positive_data_acceptance])
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
