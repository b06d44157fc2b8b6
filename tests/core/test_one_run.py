"""One solve run (lacak.run): the same input through the CLI, the web API and a batch job
gives the same result JSON, for every built-in kind and the example plugin's kind."""

from __future__ import annotations

import json
from typing import Any

import lacak
import pytest
from click.testing import CliRunner
from lacak import api
from lacak.batch import dataset, job_seed
from lacak.cli import make_cli
from lacak.limits import check_deadline, use_clock
from lacak.plugin.registry import using
from lacak.run import NOT_CHOSEN, solve_run

KINDS = ["maze", "sliding", "boggle", "jugs"]


class Fixed:
    """A ``fixed`` generator for each kind: its example, whatever the seed (so a batch job
    solves the very puzzle the CLI and the web are given)."""

    def __init__(self, examples: dict[str, str]) -> None:
        self.examples = examples

    @lacak.hookimpl
    def register_generators(self, register: Any) -> None:
        for kind, text in self.examples.items():
            register(lacak.Generator(
                kind=kind, name="fixed",
                make=lambda size, seed, kind=kind, text=text: _generated(kind, text),
            ))  # fmt: skip


def _generated(kind: str, text: str) -> Any:
    """What the kind's generator gives for ``text`` (a maze's generator gives the maze)."""
    puzzle = api.parse(kind, text)
    return puzzle.maze if kind == "maze" else puzzle


@pytest.fixture(scope="module")
def registry() -> lacak.Registry:
    types = lacak.Registry().puzzle_types()
    reg = lacak.Registry()
    reg.add_plugin(Fixed({kind: types[kind].example for kind in KINDS}), name="fixed-examples")
    return reg


def _untimed(data: dict[str, Any]) -> dict[str, Any]:
    data = json.loads(json.dumps(data))
    data["stats"]["seconds"] = None
    return data


def _cli(registry: lacak.Registry, kind: str, text: str) -> dict[str, Any]:
    outcome = CliRunner().invoke(make_cli(registry), [kind, "solve", "-", "--json"], input=text)
    assert outcome.exit_code in (0, 1), outcome.output
    return _untimed(json.loads(outcome.stdout))


def _web(registry: lacak.Registry, kind: str, text: str, **body: Any) -> dict[str, Any]:
    pytest.importorskip("fastapi", reason="the web extra is not installed")
    from fastapi.testclient import TestClient
    from lacak.web import create_app
    from lacak.web.pool import Pool

    with TestClient(create_app(registry=registry, pool=Pool(1, processes=False))) as client:
        response = client.post(f"/api/kinds/{kind}/solve", json={"puzzle": text, **body})
    assert response.status_code == 200, response.text
    return response.json()


def _batch(registry: lacak.Registry, kind: str) -> dict[str, Any]:
    spec = dataset.spec(kind, generator="fixed", solve=True, registry=registry)
    with using(registry):
        (record,) = [json.loads(r.line) for r in dataset.records(spec, count=1, seed=1)]
    assert record["ok"], record
    return _untimed(record["result"])


@pytest.mark.parametrize("kind", KINDS)
def test_the_cli_the_web_and_a_batch_job_give_the_same_result(
    registry: lacak.Registry, kind: str
) -> None:
    text = registry.puzzle_types()[kind].example
    direct = _untimed(solve_run(kind, text, registry=registry).to_dict())
    assert direct["found"] is True
    assert _cli(registry, kind, text) == direct
    assert _untimed(_web(registry, kind, text)["result"]) == direct
    assert _batch(registry, kind) == direct


def _stopped_clock() -> Any:
    """A clock that jumps an hour at each look: any time limit is up before the search."""
    ticks = iter(range(0, 10**9, 3600))
    return lambda: float(next(ticks))


@pytest.mark.parametrize("kind", KINDS)
def test_time_up_before_the_search_is_the_same_stopped_result(
    registry: lacak.Registry, kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The time runs out while the strategy is chosen: the run, the CLI and the web give
    the same "stopped before the search" result; a batch job (whose time limit covers
    making the instance too) records it as the job's ``LimitReachedError``."""
    text = registry.puzzle_types()[kind].example
    choose = api.choose

    def slow_choose(*args: Any, **kwargs: Any) -> Any:  # choosing looks at the clock
        check_deadline("choosing the strategy")
        return choose(*args, **kwargs)

    monkeypatch.setattr(api, "choose", slow_choose)
    with use_clock(_stopped_clock()):
        ran = solve_run(kind, text, limits=lacak.Limits(seconds=1), registry=registry)
    assert ran.stopped_before is not None and ran.choice is None
    direct = _untimed(ran.to_dict())
    assert direct["found"] is False and direct["stopped"] == "time-limit"
    assert direct["strategy"] == NOT_CHOSEN
    with use_clock(_stopped_clock()):
        outcome = CliRunner().invoke(make_cli(registry), [kind, "solve", "-", "--json",
                                                          "--timeout", "1"], input=text)
    assert outcome.exit_code == 1, outcome.output
    assert _untimed(json.loads(outcome.stdout)) == direct
    spec = dataset.spec(kind, generator="fixed", solve=True, registry=registry,
                        limits=lacak.Limits(seconds=1))  # fmt: skip
    # (the job itself, in this process: a batch's workers do not see this test's clock)
    with using(registry), use_clock(_stopped_clock()), pytest.raises(lacak.LimitReachedError):
        spec((0, job_seed(1, 0)))
    pytest.importorskip("fastapi", reason="the web extra is not installed")
    from lacak.web import work

    # (the web's work function itself: the app's pool threads do not see this test's clock)
    with use_clock(_stopped_clock()):
        web = work.solve(kind, {"puzzle": text, "limits": {"seconds": 1}}, registry=registry)
    assert _untimed(web["result"]) == direct and web["choice"] is None
    assert web["advice"].startswith("the time limit was reached before the search began")
