"""A dictionary as a third-party lacak plugin: a few English pet words.

A word list plugs in with :func:`register_dictionaries`: a
:class:`lacak.DictionarySource` names it and loads it only when it is used
(``lacak boggle solve ... -d pets``, ``lacak.dictionary("pets")``).
:meth:`lacak.Dictionary.from_words` normalises the words (NFC, upper case,
sorted, unique) and skips, with a note in its ``report``, any it cannot use. A word list in a JSON file needs no plugin at all: drop it into the
dictionary folder (``lacak dictionaries list`` says where).
"""

from __future__ import annotations

from typing import Any

import lacak

#: The words; a real plugin would read a file shipped in its package.
WORDS = ("cat", "dog", "cod", "god", "hen", "owl", "rat", "ant", "bee", "emu", "gnu", "yak")


def load() -> lacak.Dictionary:
    """The dictionary, built when lacak first needs it.

    >>> load().words[:3]
    ('ANT', 'BEE', 'CAT')
    """
    return lacak.Dictionary.from_words(
        WORDS,
        name="pets",
        language="en",
        title="Pets (a tutorial example)",
        source="written for lacak's plugin tutorial",
        license="CC0-1.0",
    )


@lacak.hookimpl
def register_dictionaries(register: Any) -> None:
    register(
        lacak.DictionarySource(
            name="pets",
            language="en",
            load=load,
            description="a dozen pet words (tutorial example)",
            count=len(WORDS),  # known without loading: listings need not load it
        )
    )
