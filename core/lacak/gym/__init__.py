"""Gymnasium environments of every puzzle kind (the ``gym`` extra: ``pip install 'lacak[gym]'``).

Each kind is ``gymnasium.make("lacak/<Kind>-v0", ...)`` (``lacak/Sliding-v0``,
``lacak/Maze-v0``, ``lacak/Boggle-v0``, and a third-party kind's too): the generic
:class:`lacak.gym.env.PuzzleEnv` over the kind's successors, shaped by what the kind
declares in :attr:`lacak.PuzzleType.gym` (a :class:`GymKind`: its actions, its
observation arrays, or an env of its own), with instances from the kind's task levels
(:mod:`lacak.tasks`) or its generators. See docs/machine-learning.md.

This module is light: it never imports Gymnasium itself. ``import lacak`` calls
:func:`install`, which registers the environments at once when Gymnasium is imported
already, or else as soon as it is (a finder on :data:`sys.meta_path` runs
:func:`register_envs` after Gymnasium's own import, then leaves). Gymnasium's
module form, ``gymnasium.make("lacak.gym:lacak/Sliding-v0")``, works too.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Hashable
from typing import Any

import attrs

from ..api import _registry
from ..errors import LacakError
from ..tasks._after import when_imported

__all__ = ["GymKind", "env_id", "install", "register_envs"]


def _as_tuple(items: Any) -> tuple[Any, ...]:
    return tuple(items)


@attrs.frozen(kw_only=True)
class GymKind:
    """How a kind's Gymnasium environment differs from the generic one, declared in
    :attr:`lacak.PuzzleType.gym`. Every field is optional: a kind that declares nothing
    gets the generic env, whose actions are the indices of a state's successors (up to
    ``branching``) and whose observation is the state's text as bytes.
    """

    #: The kind's fixed actions (``("U", "D", "L", "R")``): action ``i`` is the successor
    #: whose action is ``actions[i]``; empty: action ``i`` is the ``i``-th successor.
    actions: tuple[Hashable, ...] = attrs.field(default=(), converter=_as_tuple)
    #: ``observe(puzzle, state) -> numpy array``: the observation (same shape and dtype
    #: for every state of every instance of the env's options).
    observe: Callable[[Any, Any], Any] | None = attrs.field(default=None, repr=False)
    #: ``bounds(puzzle) -> (low, high)``: the least and greatest values :attr:`observe`
    #: gives (numbers, or arrays of its shape).
    bounds: Callable[[Any], tuple[Any, Any]] | None = attrs.field(default=None, repr=False)
    #: ``at(puzzle, state) -> puzzle``: the puzzle started from ``state``, which the
    #: kind's :attr:`~lacak.PuzzleType.render` draws (``None``: the state's text only).
    at: Callable[[Any, Any], Any] | None = attrs.field(default=None, repr=False)
    #: ``"module:Class"``: an env of the kind's own (a ``gymnasium.Env`` taking the
    #: keyword ``kind`` and keywords of its own), in place of the generic one.
    entry_point: str | None = None
    #: ``"module:Class"``: the kind's vectorised env (``gymnasium.make_vec(...,
    #: vectorization_mode="vector_entry_point")``).
    vector_entry_point: str | None = None
    #: Steps before an episode is cut short (Gymnasium's ``TimeLimit``).
    max_episode_steps: int | None = 200
    #: The env's name (``lacak/<name>-v0``; default the kind's, capitalised).
    name: str = ""


#: The generic env.
GENERIC = "lacak.gym.env:PuzzleEnv"


def env_id(kind: str, gym: GymKind | None = None) -> str:
    """The id of ``kind``'s env: ``"lacak/Sliding-v0"``.

    >>> env_id("sliding"), env_id("lights-out")
    ('lacak/Sliding-v0', 'lacak/LightsOut-v0')
    """
    name = gym.name if gym is not None and gym.name else None
    if name is None:
        name = "".join(part[:1].upper() + part[1:] for part in kind.replace("_", "-").split("-"))
    return f"lacak/{name}-v0"


def register_envs(*, registry: Any = None) -> list[str]:
    """Register every kind's env with Gymnasium (those not registered yet); the ids.

    :raises ImportError: Gymnasium is not installed (``pip install 'lacak[gym]'``).
    """
    import gymnasium  # (deferred: the optional gym extra)

    ids = []
    for kind, kind_type in _registry(registry).puzzle_types().items():
        gym = getattr(kind_type, "gym", None)
        gym = gym if isinstance(gym, GymKind) else None
        ident = env_id(kind, gym)
        ids.append(ident)
        if ident in gymnasium.registry:
            continue
        gymnasium.register(
            id=ident,
            entry_point=gym.entry_point if gym is not None and gym.entry_point else GENERIC,
            vector_entry_point=gym.vector_entry_point if gym is not None else None,
            max_episode_steps=gym.max_episode_steps if gym is not None else 200,
            kwargs={"kind": kind},
        )
    return ids


def _register_quietly() -> None:
    try:
        register_envs()
    except (LacakError, ImportError) as error:
        warnings.warn(f"lacak's Gymnasium envs were not registered: {error}", stacklevel=2)


def install() -> None:
    """Register the envs now if Gymnasium is imported, else when it is (see the module)."""
    when_imported("gymnasium", _register_quietly)
