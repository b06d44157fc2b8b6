"""Shared test configuration: hypothesis profiles.

Choose one with ``pytest --hypothesis-profile=NAME``:

``default``   what CI runs;
``quick``     fewer examples, for a fast local loop;
``thorough``  many more examples, for a nightly run.

The tests never see the user's own lacak data: ``XDG_DATA_HOME`` points at an
empty folder of the session (so a ``klingon.json`` dropped into
``~/.local/share/lacak/dictionaries`` cannot change an answer), and
``LACAK_DICTIONARY_PATH`` is cleared; subprocesses inherit both.

``LACAK_PROGRESS=0`` too: the command line says one-time work (a first compile,
a database build) in one ``lacak:`` line on a standard error that is no
terminal, and whether there is any depends on what the caches hold when a
test runs; the tests of those lines unset it (``tests/core/test_progress_lines.py``).
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

from hypothesis import HealthCheck, settings

_user_data = tempfile.mkdtemp(prefix="lacak-test-data-")
atexit.register(shutil.rmtree, _user_data, ignore_errors=True)
os.environ["XDG_DATA_HOME"] = _user_data
os.environ.pop("LACAK_DICTIONARY_PATH", None)
os.environ["LACAK_PROGRESS"] = "0"

settings.register_profile(
    "default", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "quick", max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "thorough", max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("default")
# (the fuzzers that set a count of their own scale it by the loaded profile's
# max_examples / 60, so that --hypothesis-profile=thorough enlarges them too)
