"""``lacak batch boggle``: shaken boards solved with a dictionary; --dice, -d, --scores-only."""

from __future__ import annotations

import json
from pathlib import Path

import lacak
from click.testing import CliRunner
from lacak.batch import job_seed
from lacak.cli import make_cli


def records(*args: str) -> list[dict]:  # type: ignore[type-arg]
    result = CliRunner().invoke(make_cli(), ["batch", "boggle", "--seed", "6", "-w", "1", *args])
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_boards_and_their_words() -> None:
    english = lacak.dictionary("eng")
    for record in records("-n", "3", "--dice", "big5"):
        board = lacak.generate("boggle", "big5", None, seed=job_seed(6, record["index"]))
        assert record["instance"] == board.to_dict()
        assert record["instance"]["board"] == board.to_rows()
        solved = lacak.solve(board.with_dictionary(english))
        answer = record["result"]["boggle"]
        assert [w["word"] for w in answer["words"]] == solved.word_list
        assert answer["score"] == solved.score and answer["dictionary"] == "eng"


def test_scores_only_keeps_the_counts(tmp_path: Path) -> None:
    words = tmp_path / "tiny.json"
    words.write_text(json.dumps({"name": "tiny", "language": "en",
                                 "alphabet": "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
                                 "words": ["TEAS", "SEAT", "EAST", "RATE", "TEAR", "NEAR"]}))
    full = records("-n", "4", "-d", str(words), "-m", "4")
    scores = records("-n", "4", "-d", str(words), "-m", "4", "--scores-only")
    for whole, short in zip(full, scores, strict=True):
        answer = whole["result"]["boggle"]
        assert answer["min_length"] == 4 and answer["dictionary"] == "tiny"
        assert short["result"]["boggle"] == {
            key: answer[key] for key in ("dictionary", "min_length", "complete", "count",
                                         "score", "best")}  # fmt: skip
        assert "words" not in short["result"]["boggle"] and "actions" not in short["result"]
