"""lacak's built-in dictionaries: the packaged word lists and the drop-in folders.

Every ``*.json`` file in these folders is registered as a
:class:`lacak.DictionarySource` named after the file's stem, and read only
when used (through :meth:`lacak.Dictionary.from_file`, which caches a
compiled form). The folders, first match wins:

1. every folder (or ``.json`` file) in ``LACAK_DICTIONARY_PATH``
   (``os.pathsep``-separated), in order;
2. ``lacak.store.paths.user_data_dir() / "dictionaries"``;
3. the word lists packaged with lacak (``ind``, ``eng``, ``deu``, ``spa``,
   ``ita``, ``swe``).

So a user file named ``eng.json`` replaces the packaged English list; the
replaced one is shown as shadowed by ``lacak dictionaries list``. A malformed
file fails when it is used and is reported (not fatal) when listed.

Commands: ``lacak dictionaries list|show|validate|export``.
"""

from __future__ import annotations

from typing import Any

import lacak


@lacak.hookimpl
def register_dictionaries(register: Any) -> None:
    """Register one dictionary per word-list file found (see the module docs)."""
    from .folders import scan  # (deferred: registering the plugin loads neither)

    for entry in scan().active:
        register(entry.source())


@lacak.hookimpl
def register_commands(cli: Any) -> None:
    """Add ``lacak dictionaries ...``."""
    from .cli import dictionaries_group  # (deferred: registering the plugin loads neither)

    cli.add_command(dictionaries_group)
