"""The word lists that ship with lacak (``lacak_dictionaries.data``).

One JSON file per language (``ind.json``, ``eng.json``, ...), rebuilt from
their Debian sources by ``build.py``; ``NOTICE`` names each source and its
licence. The ``lacak_dictionaries`` plugin registers every ``*.json`` here.
"""
