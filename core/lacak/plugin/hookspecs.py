"""Hook specifications: what a lacak plugin can implement.

Every collection hook receives a ``register`` callable; a plugin calls it once
per component. Plugins never see the catalogues themselves. A plugin module
implements any subset of these with :data:`hookimpl`::

    import lacak

    @lacak.hookimpl
    def register_heuristics(register):
        register(lacak.Heuristic(name="zero", kind="sliding", admissible=True,
                                 estimate=lambda puzzle, state: 0))

and names the module in its ``pyproject.toml``::

    [project.entry-points.lacak]
    zero = "my_module"
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:
    import click

    from ..interfaces import DictionarySource, Generator, Heuristic, PuzzleType, Searcher

__all__ = ["hookimpl", "hookspec"]

#: Marks a hook specification of the ``lacak`` project.
hookspec = pluggy.HookspecMarker("lacak")
#: Marks a plugin's hook implementation: ``@lacak.hookimpl``.
hookimpl = pluggy.HookimplMarker("lacak")


@hookspec
def register_puzzles(register: Callable[[PuzzleType], None]) -> None:
    """Register puzzle types.

    :param register: call with a :class:`lacak.PuzzleType` for each kind of
        puzzle the plugin can parse (and validate).

    Example::

        @lacak.hookimpl
        def register_puzzles(register):
            register(lacak.PuzzleType(kind="sliding", parse=SlidingPuzzle.from_string))

    .. versionadded:: 0.1
    """


@hookspec
def register_searchers(register: Callable[[Searcher], None]) -> None:
    """Register search strategies.

    :param register: call with a :class:`lacak.Searcher` for each strategy.
        A searcher with empty ``kinds`` must work on any :class:`lacak.Puzzle`.

    Example::

        @lacak.hookimpl
        def register_searchers(register):
            register(lacak.Searcher(name="random-walk", search=random_walk))

    .. versionadded:: 0.1
    """


@hookspec
def register_heuristics(register: Callable[[Heuristic], None]) -> None:
    """Register heuristics, each for one puzzle kind.

    :param register: call with a :class:`lacak.Heuristic`. Names are unique
        within a kind.

    Example::

        @lacak.hookimpl
        def register_heuristics(register):
            register(lacak.Heuristic(name="gaschnig", kind="sliding",
                                     admissible=True, estimate=gaschnig))

    .. versionadded:: 0.1
    """


@hookspec
def register_generators(register: Callable[[Generator], None]) -> None:
    """Register instance generators (mazes, boards, scrambles).

    :param register: call with a :class:`lacak.Generator`. Names are unique
        within a kind.

    Example::

        @lacak.hookimpl
        def register_generators(register):
            register(lacak.Generator(kind="maze", name="spiral", make=spiral))

    .. versionadded:: 0.1
    """


@hookspec
def register_dictionaries(register: Callable[[DictionarySource], None]) -> None:
    """Register word lists, loaded on demand.

    :param register: call with a :class:`lacak.DictionarySource` whose
        ``load()`` returns a :class:`lacak.Dictionary`.

    Example::

        @lacak.hookimpl
        def register_dictionaries(register):
            register(lacak.DictionarySource(name="tiny", language="en",
                                            load=lambda: lacak.Dictionary(
                                                name="tiny", language="en", words=["CAT"])))

    .. versionadded:: 0.1
    """


@hookspec
def register_commands(cli: click.Group) -> None:
    """Add commands or command groups to the ``lacak`` command line.

    :param cli: the root :class:`click.Group`; call ``cli.add_command(...)``.
        Raise :class:`lacak.LacakError` subclasses from commands: the CLI turns
        them into one line on stderr and exit status 2.

    Example::

        @lacak.hookimpl
        def register_commands(cli):
            @cli.command()
            def hello():
                click.echo("hello")

    .. versionadded:: 0.1
    """
