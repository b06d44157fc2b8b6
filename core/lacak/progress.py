"""Progress of long work, shown only when someone is watching.

Library code that may take long (building a pattern database, compiling an
engine, a search past a second) reports through this module; nothing is shown
unless a *reporter* is installed. The command line installs a rich progress
display on standard error when it is a terminal, so scripts and pipes never
see it; a program can install its own (a web page, a log).

Reporting costs nothing without a reporter::

    with lacak.progress.task("building the 6-6-3 pattern databases", total=3) as step:
        for group in groups:
            build(group)
            step.advance()

    lacak.progress.announce("compiling the Boggle engine once for this machine")
"""

from __future__ import annotations

import contextlib
import contextvars
import time
from collections.abc import Iterator
from typing import Any, Protocol

__all__ = [
    "LineReporter",
    "Reporter",
    "RichReporter",
    "Task",
    "active",
    "announce",
    "current",
    "reporting",
    "search_done",
    "searching",
    "task",
]


class Task(Protocol):
    """One piece of long work being shown."""

    def update(
        self,
        *,
        completed: float | None = None,
        total: float | None = None,
        description: str | None = None,
    ) -> None:
        """Set how much is done (and of how much), or change the description."""

    def advance(self, amount: float = 1) -> None:
        """Count ``amount`` more done."""


class Reporter(Protocol):
    """Shows tasks and announcements (what :func:`reporting` installs)."""

    def start(self, description: str, total: float | None) -> Task:
        """Begin showing a task."""

    def stop(self, task: Task) -> None:
        """Stop showing ``task``."""

    def announce(self, message: str) -> None:
        """Say one thing once (``"compiling once for this machine"``)."""


class _Quiet:
    """The task handed out when nobody is watching: every call does nothing."""

    def update(self, **_fields: Any) -> None:
        return None

    def advance(self, amount: float = 1) -> None:
        return None


_QUIET = _Quiet()
_REPORTER: contextvars.ContextVar[Reporter | None] = contextvars.ContextVar(
    "lacak_progress_reporter", default=None
)


def active() -> bool:
    """Whether a reporter is installed (so that work may be worth reporting)."""
    return _REPORTER.get() is not None


def current() -> Reporter | None:
    """The reporter installed here, or ``None`` (through it a batch shows what a job it
    runs in a process of its own reports there)."""
    return _REPORTER.get()


@contextlib.contextmanager
def task(description: str, total: float | None = None) -> Iterator[Task]:
    """Show ``description`` (with a bar when ``total`` is known) while the block runs."""
    reporter = _REPORTER.get()
    if reporter is None:
        yield _QUIET
        return
    shown = reporter.start(description, total)
    try:
        yield shown
    finally:
        reporter.stop(shown)


def announce(message: str) -> None:
    """Say ``message`` once to whoever is watching (nothing when nobody is)."""
    reporter = _REPORTER.get()
    if reporter is not None:
        reporter.announce(message)


_SEARCH: contextvars.ContextVar[Task | None] = contextvars.ContextVar(
    "lacak_progress_search", default=None
)


def searching(expanded: int, seconds: float) -> None:
    """Show a running search: nodes expanded and the rate (a :class:`~lacak.Budget`
    calls it for a search past a second; nothing happens when nobody is watching)."""
    reporter = _REPORTER.get()
    if reporter is None:
        return
    shown = _SEARCH.get()
    if shown is None:
        shown = reporter.start("searching", None)
        _SEARCH.set(shown)
    rate = expanded / seconds if seconds > 0 else 0.0
    shown.update(description=f"searching: {expanded:,} nodes expanded, {rate:,.0f} a second")


def search_done() -> None:
    """Stop showing the running search (:class:`~lacak.Searcher` calls it when a search ends)."""
    shown = _SEARCH.get()
    reporter = _REPORTER.get()
    if shown is not None:
        _SEARCH.set(None)
        if reporter is not None:
            reporter.stop(shown)


@contextlib.contextmanager
def reporting(reporter: Reporter | None) -> Iterator[None]:
    """Install ``reporter`` for the block (``None``: report nothing)."""
    token = _REPORTER.set(reporter)
    try:
        yield
    finally:
        _REPORTER.reset(token)


class LineReporter:
    """Announcements as plain lines on standard error, tasks unseen: what the command
    line shows when standard error is no terminal (a log, a pipe, a CI job), so that
    one-time work (a first compile, a database build) is said in one line, never
    silent, and no progress bar garbles a log."""

    def start(self, description: str, total: float | None) -> Task:
        return _QUIET

    def stop(self, task: Task) -> None:
        return None

    def announce(self, message: str) -> None:
        import sys  # (deferred: only when something is said)

        print(f"lacak: {message}", file=sys.stderr, flush=True)


class RichReporter:
    """A rich progress display on standard error: a spinner, a bar when the total is
    known, counts and elapsed time; tasks vanish when done, announcements stay."""

    def __init__(self) -> None:
        self._progress: Any = None  # made on first use: importing rich costs start-up time
        self._open = 0

    def _display(self) -> Any:
        if self._progress is None:
            from rich.console import Console  # (deferred: rich, only when progress shows)
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                SpinnerColumn,
                TextColumn,
                TimeElapsedColumn,
            )

            self._progress = Progress(
                SpinnerColumn(),
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                _remaining_column(),
                console=Console(stderr=True),
                transient=True,
            )
        return self._progress

    def start(self, description: str, total: float | None) -> Task:
        progress = self._display()
        if self._open == 0:
            progress.start()
        self._open += 1
        return _RichTask(progress, progress.add_task(description, total=total))

    def stop(self, task: Task) -> None:
        progress = self._display()
        if isinstance(task, _RichTask):
            progress.remove_task(task.id)
        self._open -= 1
        if self._open <= 0:
            self._open = 0
            progress.stop()

    def announce(self, message: str) -> None:
        from rich.text import Text  # (deferred: rich, only when progress shows)

        self._display().console.print(Text(message, style="dim"))


def _remaining_column() -> Any:
    """A rich column with the time left (``eta 0:01:05``), for tasks with a known total."""
    from rich.progress import ProgressColumn  # (deferred: rich, only when progress shows)
    from rich.text import Text

    class Remaining(ProgressColumn):
        def render(self, task: Any) -> Text:
            left = task.time_remaining
            if task.total is None or task.finished or left is None:
                return Text("")
            minutes, seconds = divmod(int(left), 60)
            hours, minutes = divmod(minutes, 60)
            return Text(f"eta {hours}:{minutes:02d}:{seconds:02d}", style="cyan")

    return Remaining()


class _RichTask:
    def __init__(self, progress: Any, task_id: Any) -> None:
        self._progress = progress
        self.id = task_id
        self._last = 0.0

    def update(
        self,
        *,
        completed: float | None = None,
        total: float | None = None,
        description: str | None = None,
    ) -> None:
        fields: dict[str, Any] = {}
        if completed is not None:
            fields["completed"] = completed
        if total is not None:
            fields["total"] = total
        if description is not None:
            fields["description"] = description
        self._progress.update(self.id, **fields)

    def advance(self, amount: float = 1) -> None:
        now = time.monotonic()
        self._progress.advance(self.id, amount)
        if now - self._last > 0.1:
            self._last = now
            self._progress.refresh()
