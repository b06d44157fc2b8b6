"""The water-jug puzzle: a puzzle kind of its own, with no command-line code.

Jugs of given capacities, a tap and a drain: fill a jug to the brim, empty
it, or pour one jug into another until the first is empty or the second is
full. Measure a target amount. Written ``CAPACITIES:TARGET``:

- ``3,5:4``: jugs of 3 and 5 litres, empty at the start; get 4 litres into
  either jug (the *Die Hard* puzzle, 6 moves);
- ``8,5,3:4,4,0`` with ``start="8,0,0"`` and ``tap=False``: as many targets as
  jugs ask for those exact contents; share 8 litres fairly by pouring alone
  (Tartaglia's puzzle, 7 moves).

Registering the kind with :func:`register_puzzles` is all it takes for
``lacak.parse("jugs", ...)``, ``lacak.solve(...)`` with every generic strategy,
and ``lacak jugs solve 3,5:4`` with ``--json``, ``--tree``, ``--trace``,
limits and ``-`` for standard input: lacak's command kit builds the command
from the :class:`lacak.PuzzleType`. :func:`register_heuristics` adds an
admissible heuristic for ``astar`` and ``idastar``.

The kind has a page of its own in ``lacak serve``: the static files in this
package's ``page/`` folder (``jugs.js`` draws the jugs as bars and steps
through a solution; ``jugs.css``), declared as the kind's :class:`lacak.Page`.
That is why this plugin is a package, not a module like the others.
"""

from __future__ import annotations

import math
import string
from collections.abc import Iterator, Sequence
from typing import Any

import attrs
import lacak
from lacak.options import Text

#: Jugs are named by letters, so there are at most this many.
MAX_JUGS = len(string.ascii_uppercase)

#: How the text form looks, for error messages.
FORM = "CAPACITIES:TARGET, like '3,5:4' (jugs of 3 and 5, measure 4)"

Contents = tuple[int, ...]


@attrs.frozen(kw_only=True)
class Jugs:
    """Measure ``target`` in any one jug (an ``int``), or reach exact contents (a tuple).

    States are the jugs' contents, ``(0, 5)``; actions are ``"fill(A)"``,
    ``"empty(B)"`` and ``"pour(A,B)"``, every one costing 1. Moves that change
    nothing (filling a full jug, pouring from an empty one) are not offered.
    """

    #: Capacity of each jug, in litres; jug A first.
    capacities: Contents
    #: What to measure: an amount in any jug, or the contents of every jug.
    target: int | Contents
    #: Contents at the start (empty jugs by default).
    initial: Contents
    #: Whether the tap and drain are there (``False``: only pouring).
    tap: bool = True

    kind = "jugs"

    def is_goal(self, state: Contents) -> bool:
        """Whether ``state`` holds the target."""
        if isinstance(self.target, tuple):
            return state == self.target
        return self.target in state

    def successors(self, state: Contents) -> Iterator[tuple[str, Contents, float]]:
        """Fill, empty and pour moves, in that order, jug A first."""
        names = string.ascii_uppercase
        if self.tap:
            for i, capacity in enumerate(self.capacities):
                if state[i] < capacity:
                    yield f"fill({names[i]})", _set(state, {i: capacity}), 1.0
            for i in range(len(state)):
                if state[i] > 0:
                    yield f"empty({names[i]})", _set(state, {i: 0}), 1.0
        for i, j in _pairs(len(state)):
            moved = min(state[i], self.capacities[j] - state[j])
            if moved > 0:
                yield (
                    f"pour({names[i]},{names[j]})",
                    _set(state, {i: state[i] - moved, j: state[j] + moved}),
                    1.0,
                )

    def format_state(self, state: Contents) -> str:
        """The contents as written on the command line: ``"3,4"``."""
        return ",".join(map(str, state))

    def state_count(self) -> int:
        """How many contents the jugs can hold: a bound on any search's expanded nodes."""
        return math.prod(capacity + 1 for capacity in self.capacities)


@attrs.frozen(kw_only=True)
class ExactJugs(Jugs):
    """Jugs with exact target contents: one goal state, so searchable backwards too
    (a :class:`lacak.ReversiblePuzzle`, for ``bidirectional-bfs``)."""

    target: Contents

    @property
    def goal(self) -> Contents:
        """The one goal state."""
        return self.target

    def predecessors(self, state: Contents) -> Iterator[tuple[str, Contents, float]]:
        """The ``(action, previous, cost)`` triples whose move leads to ``state``.

        Each candidate undoes one move, and is kept only when that move, done
        forwards, gives ``state`` again.
        """
        candidates: set[Contents] = set()
        for i, capacity in enumerate(self.capacities):
            if self.tap:  # before a fill or an empty, jug i held anything
                candidates.update(_set(state, {i: level}) for level in range(capacity + 1))
            for j in range(len(state)):  # before pouring i into j, i held more, j less
                if j != i:
                    for moved in range(1, state[j] + 1):
                        if state[i] + moved <= capacity:
                            candidates.add(_set(state, {i: state[i] + moved, j: state[j] - moved}))
        for previous in sorted(candidates):
            for action, after, cost in self.successors(previous):
                if after == state:
                    yield action, previous, cost


def _set(state: Contents, changes: dict[int, int]) -> Contents:
    return tuple(changes.get(i, amount) for i, amount in enumerate(state))


def _pairs(count: int) -> Iterator[tuple[int, int]]:
    return ((i, j) for i in range(count) for j in range(count) if i != j)


def _amounts(text: str, what: str) -> Contents:
    """``"3,5"`` as ``(3, 5)``: whole numbers of litres, none negative."""
    try:
        amounts = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise lacak.InvalidPuzzleError(
            f"{what} are whole numbers separated by commas, got {text.strip()!r}"
        ) from None
    if any(amount < 0 for amount in amounts):
        raise lacak.InvalidPuzzleError(f"{what} cannot be negative, got {text.strip()!r}")
    return amounts


def parse(text: str, start: str | Sequence[int] | None = None, tap: Any = True) -> Jugs:
    """Read a jugs puzzle: ``CAPACITIES:TARGET``.

    >>> parse("3,5:4")
    Jugs(capacities=(3, 5), target=4, initial=(0, 0), tap=True)
    >>> parse("8,5,3:4,4,0", start="8,0,0", tap=False).goal
    (4, 4, 0)

    :param text: capacities, a colon, and one amount (in any jug) or one per jug.
    :param start: the contents at the start, ``"8,0,0"`` (or a sequence of
        ints); default empty jugs.
    :param tap: whether jugs can be filled and emptied (a yes/no word is read
        with :func:`lacak.as_flag`); ``False`` leaves pouring alone.
    :raises lacak.InvalidPuzzleError: the text is not of that form, a capacity
        is not positive, or a target cannot fit.
    :raises lacak.InvalidOptionError: ``start`` does not fit the jugs, or
        ``tap`` is not a yes/no value.
    """
    capacities_text, colon, target_text = text.strip().partition(":")
    if not colon:
        raise lacak.InvalidPuzzleError(f"a jugs puzzle is {FORM}; got {text.strip()!r}")
    capacities = _amounts(capacities_text, "capacities")
    if not 0 < len(capacities) <= MAX_JUGS or 0 in capacities:
        raise lacak.InvalidPuzzleError(
            f"give 1 to {MAX_JUGS} capacities, each at least 1, got {capacities_text.strip()!r}"
        )
    targets = _amounts(target_text, "targets")
    jugs = len(capacities)
    if len(targets) == jugs:  # one jug: "in any jug" and "in each jug" are the same
        target: int | Contents = targets
        _check_fits(targets, capacities, "target", lacak.InvalidPuzzleError)
    elif len(targets) == 1:
        target = targets[0]
        if targets[0] > max(capacities):
            raise lacak.InvalidPuzzleError(
                f"no jug holds {targets[0]}: the largest holds {max(capacities)}"
            )
    else:
        raise lacak.InvalidPuzzleError(
            f"give one target (for any jug) or one per jug ({jugs}), not {len(targets)}"
        )
    initial = (0,) * jugs if start is None else _start(start, capacities)
    flag = lacak.as_flag(tap, "jugs option 'tap'")
    if isinstance(target, tuple):
        return ExactJugs(capacities=capacities, target=target, initial=initial, tap=flag)
    return Jugs(capacities=capacities, target=target, initial=initial, tap=flag)


def _start(start: str | Sequence[int], capacities: Contents) -> Contents:
    if isinstance(start, str):
        try:
            amounts = _amounts(start, "start contents")
        except lacak.InvalidPuzzleError as error:
            raise lacak.InvalidOptionError(str(error)) from None
    else:
        whole = isinstance(start, Sequence) and all(
            isinstance(a, int) and not isinstance(a, bool) and a >= 0 for a in start
        )
        if not whole:
            raise lacak.InvalidOptionError(
                f"start is text like '8,0,0' or a sequence of whole numbers, got {start!r}"
            )
        amounts = tuple(start)
    if len(amounts) != len(capacities):
        raise lacak.InvalidOptionError(
            f"start needs one amount per jug ({len(capacities)}), got {len(amounts)}"
        )
    _check_fits(amounts, capacities, "start", lacak.InvalidOptionError)
    return amounts


def _check_fits(amounts: Contents, capacities: Contents, what: str, error: type) -> None:
    for name, amount, capacity in zip(string.ascii_uppercase, amounts, capacities, strict=False):
        if amount > capacity:
            raise error(f"{what}: jug {name} holds {capacity}, not {amount}")


def off_target(puzzle: Jugs, state: Contents) -> int:
    """A lower bound on the moves left: admissible and consistent.

    For exact contents, one move changes at most two jugs (a pour; a fill or
    an empty changes one), so at least half the jugs off their target, rounded
    up. For an amount in any jug: 0 at a goal, 1 when one move reaches one, else 2.

    >>> off_target(parse("8,5,3:4,4,0"), (8, 0, 0))  # A and B are off: one pour at best
    1
    >>> off_target(parse("3,5:4"), (0, 0)), off_target(parse("3,5:4"), (2, 5))
    (2, 1)
    """
    if isinstance(puzzle.target, tuple):
        off = sum(1 for have, want in zip(state, puzzle.target, strict=True) if have != want)
        return (off + 1) // 2
    if puzzle.is_goal(state):
        return 0
    return 1 if any(puzzle.is_goal(after) for _a, after, _c in puzzle.successors(state)) else 2


def choose(puzzle: Jugs, heuristic: str | None, registry: Any) -> tuple[str, str | None]:
    """Breadth-first search (fewest moves; the state space is small), or ``astar``
    when a heuristic was asked for; strategies that use one get ``off-target``."""
    return ("astar" if heuristic else "bfs"), "off-target"


def describe(puzzle: Jugs) -> str:
    """``jugs A=3 B=5 (empty); goal: 4 in any jug``: the puzzle in words."""
    names = string.ascii_uppercase[: len(puzzle.capacities)]
    jugs = " ".join(f"{n}={c}" for n, c in zip(names, puzzle.capacities, strict=True))
    start = "empty" if not any(puzzle.initial) else "start " + puzzle.format_state(puzzle.initial)
    if isinstance(puzzle.target, tuple):
        goal = "contents " + puzzle.format_state(puzzle.target)
    else:
        goal = f"{puzzle.target} in any jug"
    return f"jugs {jugs} ({start}{'' if puzzle.tap else ', no tap'}); goal: {goal}"


def render(puzzle: Jugs, result: Any, format: str = "text", *, full: bool = False) -> str:
    """A table of the solution, one row per move with every jug's contents.

    :param result: a found :class:`lacak.SearchResult`, or ``None`` for the puzzle alone.
    :param full: show every row of a long solution (else both ends and a count).
    :raises lacak.InvalidOptionError: a format other than ``"text"``.
    """
    if format != "text":
        raise lacak.InvalidOptionError(f"jugs puzzles are drawn as text, not {format}")
    names = string.ascii_uppercase[: len(puzzle.capacities)]
    states = list(result.states) if result is not None else [puzzle.initial]
    moves = ["(start)", *(str(action) for action in (result.actions if result else ()))]
    width = max(len(move) for move in moves)
    columns = [max(len(str(c)), 1) for c in puzzle.capacities]

    def row(step: str, move: str, cells: Sequence[object]) -> str:
        jugs = "  ".join(str(cell).rjust(w) for cell, w in zip(cells, columns, strict=True))
        return f"{step:>4}  {move:<{width}}  {jugs}".rstrip()

    lines = [describe(puzzle), "", row("step", "move", names)]
    body = [
        row(str(step), move, state) + ("  <- goal" if puzzle.is_goal(state) else "")
        for step, (move, state) in enumerate(zip(moves, states, strict=True))
    ]
    return "\n".join(lines + lacak.output.cut_middle(body, full=full, noun="move"))


def extras(puzzle: Jugs, result: Any) -> dict[str, Any]:
    """The puzzle itself under ``"jugs"`` in a result's JSON."""
    target = list(puzzle.target) if isinstance(puzzle.target, tuple) else puzzle.target
    return {
        "jugs": {
            "capacities": list(puzzle.capacities),
            "start": list(puzzle.initial),
            "target": target,
            "tap": puzzle.tap,
        }
    }


def advice(puzzle: Jugs, result: Any) -> str:
    """What helps when a limit stopped a search: the state space is small and known."""
    return (
        f"these jugs hold at most {puzzle.state_count():,} different contents, so "
        f"--max-nodes {puzzle.state_count()} always suffices for bfs"
    )


@lacak.hookimpl
def register_puzzles(register: Any) -> None:
    register(
        lacak.PuzzleType(
            kind="jugs",
            parse=parse,
            description="water jugs: fill, empty and pour to measure an amount (3,5:4)",
            options={"start": None, "tap": True},
            # what the web API may pass (text options are refused there unless declared)
            accepts={"start": Text(max_length=200, pattern=r"[0-9, ]*", like="8,0,0")},
            help={
                "start": "Contents at the start, one amount per jug (8,0,0); default empty.",
                "tap": "Whether jugs can be filled and emptied (--no-tap: only pouring).",
            },
            example="3,5:4",
            choose=choose,
            render=render,
            extras=extras,
            advice=advice,
            # a page of its own in lacak serve: the static files of lacak_jugs/page/
            # (package data in pyproject.toml), served under /pages/jugs/
            page=lacak.Page(
                package="lacak_jugs", script="jugs.js", styles=("jugs.css",), title="Jugs"
            ),
        )
    )


@lacak.hookimpl
def register_heuristics(register: Any) -> None:
    register(
        lacak.Heuristic(
            name="off-target",
            kind="jugs",
            estimate=off_target,
            admissible=True,
            consistent=True,
            description="jugs off their target, two per move; 1 or 2 for an amount in any jug",
        )
    )


def amounts(capacities: Contents, tap: bool = True) -> tuple[list[int], int]:
    """Every amount one jug can come to hold, from empty jugs; and how many contents.

    >>> amounts((3, 5))
    ([0, 1, 2, 3, 4, 5], 16)
    >>> amounts((2, 4))
    ([0, 2, 4], 6)

    :returns: the amounts, sorted, and the number of reachable contents.
    :raises lacak.InvalidPuzzleError: jugs with more than a million contents.
    """
    from collections import deque

    puzzle = Jugs(capacities=capacities, target=-1, initial=(0,) * len(capacities), tap=tap)
    if puzzle.state_count() > 10**6:
        raise lacak.InvalidPuzzleError(
            f"these jugs hold {puzzle.state_count():,} different contents; at most 1,000,000 here"
        )
    seen = {puzzle.initial}
    queue = deque(seen)
    while queue:
        for _action, after, _cost in puzzle.successors(queue.popleft()):
            if after not in seen:
                seen.add(after)
                queue.append(after)
    return sorted({amount for contents in seen for amount in contents}), len(seen)


@lacak.hookimpl
def register_commands(cli: Any) -> None:
    # click and lacak.cli are imported here, when the command line is built: the
    # library never imports CLI code
    import click
    from lacak.cli import echo_json, read_input

    @cli.group("jugs")
    def jugs_group() -> None:
        """Water jugs: solve a puzzle, or list the amounts some jugs can measure."""

    @jugs_group.command("amounts")
    @click.argument("capacities")
    @click.option("--json", "as_json", is_flag=True, help="Print the answer as JSON.")
    def amounts_command(capacities: str, as_json: bool) -> None:
        """The amounts jugs of CAPACITIES (3,5; '-' for standard input) can measure."""
        text = read_input("-") if capacities == "-" else capacities
        sizes = parse(text.strip() + ":0").capacities
        found, contents = amounts(sizes)
        if as_json:
            echo_json({"capacities": list(sizes), "amounts": found, "contents": contents})
        else:
            click.echo(f"{' '.join(map(str, found))} ({contents} reachable contents)")
