"""lacak's tasks as reasoning-gym datasets (reasoning-gym is imported only when they are
registered, so that this module imports without it).

Each task ``NAME`` becomes ``lacak_NAME``: ``reasoning_gym.create_dataset("lacak_sliding",
size=, seed=, level=, options=)`` gives our entries (their ``answer`` as text, as
reasoning-gym's scoring reads it: a maze's path and a word list as JSON) and its
``score_answer`` calls :func:`lacak.tasks.score_answer`.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from typing import Any


def _text(answer: Any) -> str:
    return answer if isinstance(answer, str) else json.dumps(answer)


def _dataset_class(
    name: str, create_dataset: Callable[..., Any], score_answer: Callable[..., float]
) -> tuple[type, type]:
    from reasoning_gym.dataset import ProceduralDataset  # (deferred: optional)

    @dataclasses.dataclass
    class Config:
        size: int = 500
        seed: int | None = None
        level: int = 1
        options: dict[str, Any] = dataclasses.field(default_factory=dict)

        def validate(self) -> None:
            if not isinstance(self.level, int) or self.level < 1:
                raise ValueError(f"level must be a positive integer, got {self.level!r}")

    class Dataset(ProceduralDataset):
        def __init__(self, config: Config) -> None:
            seed = 0 if config.seed is None else config.seed
            super().__init__(config=config, seed=seed, size=config.size)
            self.lacak = create_dataset(
                name, size=config.size, seed=seed, level=config.level, **config.options
            )

        def __getitem__(self, idx: int) -> dict[str, Any]:
            entry = dict(self.lacak[idx])
            entry["metadata"] = {**entry["metadata"], "answer": entry["answer"]}
            entry["answer"] = _text(entry["answer"])
            return entry

        def score_answer(self, answer: str | None, entry: dict[str, Any]) -> float:
            return score_answer(answer, entry)

    Config.__name__ = Config.__qualname__ = f"Lacak{name.title().replace('_', '')}Config"
    Dataset.__name__ = Dataset.__qualname__ = f"Lacak{name.title().replace('_', '')}Dataset"
    return Dataset, Config


def register(
    names: list[str], create_dataset: Callable[..., Any], score_answer: Callable[..., float]
) -> list[str]:
    """Register each task (once: a name reasoning-gym holds already is left as it is), with
    :func:`lacak.tasks.create_dataset` and :func:`lacak.tasks.score_answer` (given, so that
    this module imports nothing of its package)."""
    import reasoning_gym  # (deferred: optional)

    registered = []
    for name in names:
        dataset_name = f"lacak_{name}"
        if dataset_name not in reasoning_gym.factory.DATASETS:
            classes = _dataset_class(name, create_dataset, score_answer)
            reasoning_gym.register_dataset(dataset_name, *classes)
        registered.append(dataset_name)
    return registered
