"""Running plugin code so that it cannot spoil lacak's output or answers, or hang it.

The guards live in :mod:`~lacak.plugin.isolation.calls` (a component's calls),
:mod:`~lacak.plugin.isolation.watch` (time limits) and, since the kernel's searches
use it too, the kernel's :mod:`lacak.streams` (what reaches standard output); this
package gives them all.

The guards, used by the plugin loader, the registry and the command line:

- :func:`stdout_to_stderr`: while a plugin is imported or one of its hooks runs,
  ``sys.stdout`` is ``sys.stderr``, so what it prints is shown but never mixed
  into lacak's output;
- :func:`call_with_timeout`: an import or a hook runs in a daemon thread that is
  waited for at most a given time; past it, :class:`PluginTimeout` is raised and
  the thread is left behind (Python cannot stop it), so a blocking plugin is
  reported and skipped instead of hanging lacak;
- :class:`PluginCall`: every function of a component a third-party plugin
  registered (a searcher's ``search``, a heuristic's ``estimate``, a kind's
  ``render``, ...) is called through one (the registry wraps them once). What
  escapes it becomes a :class:`~lacak.PluginError` naming the plugin and the
  component; a heuristic's numbers are checked (:class:`Estimate`,
  :class:`Prepare`): an estimate is a finite number ``>= 0``;
- :func:`quiet`: code that runs while lacak works (every search, every plugin
  call) writes nothing to lacak's standard output: under
  :func:`stdout_for_lacak`, what it writes to ``sys.stdout`` goes to stderr;
- :func:`stdout_for_lacak`: what the command line wraps every command in. File
  descriptor 1 points at stderr (so C code and ``os.write(1, ...)`` cannot reach
  the real standard output either), and ``sys.stdout`` writes lacak's own output
  to a duplicate of the real standard output (whose ``isatty()`` still decides
  colours and pictures) unless :func:`quiet` code writes;
- :func:`watchdog`: what the ``lacak`` script runs in. A deadline (``--timeout``)
  that plugin code overruns by :data:`GRACE` seconds ends the process with one
  line naming the plugin and the component (exit status 1), since Python cannot
  stop a thread; and plugin code that holds the interpreter (a C call that never
  releases the GIL, such as a catastrophic regular expression), which no thread
  of the process can even notice, is ended by a *sentinel*, a small forked
  process that kills this one (status 137 by SIGKILL) after one line naming the
  plugin, :data:`SENTINEL_GRACE` seconds later. Imports and hooks of third-party
  plugins are watched the same way against their own time limit.

What cannot be bounded: in a library (no :func:`watchdog`), a component that
blocks runs as long as it blocks (a thread cannot be stopped); code in threads a
plugin starts itself is not marked as plugin code; without ``os.fork`` (Windows)
there is no sentinel.
"""

from __future__ import annotations

from ...streams import quiet, stdout_for_lacak, stdout_to_stderr
from . import calls, watch
from .calls import (
    PLUGIN_ERRORS,
    Estimate,
    Estimator,
    PluginCall,
    Prepare,
    culprit,
    note_plugin_module,
    one_line,
)
from .watch import GRACE, SENTINEL_GRACE, PluginTimeout, call_with_timeout, watchdog

__all__ = [
    "GRACE",
    "PLUGIN_ERRORS",
    "SENTINEL_GRACE",
    "Estimate",
    "Estimator",
    "PluginCall",
    "PluginTimeout",
    "Prepare",
    "call_with_timeout",
    "calls",
    "culprit",
    "note_plugin_module",
    "one_line",
    "quiet",
    "stdout_for_lacak",
    "stdout_to_stderr",
    "watch",
    "watchdog",
]
