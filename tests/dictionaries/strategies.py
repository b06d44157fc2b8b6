"""Hypothesis strategies for word lists."""

from __future__ import annotations

import unicodedata

from hypothesis import strategies as st

#: Letters whose normal form is easy to state independently: ASCII, common
#: precomposed Latin letters of the packaged languages, and ß.
SIMPLE_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZäöüßÄÖÜåéèàìòùíóúñç"


def simple_words() -> st.SearchStrategy[str]:
    """Words of :data:`SIMPLE_LETTERS`."""
    return st.text(SIMPLE_LETTERS, min_size=1, max_size=12)


def expected_form(word: str) -> str:
    """The documented normal form of a simple word, computed independently."""
    upper = "".join("ẞ" if char == "ß" else char.upper() for char in word)
    return unicodedata.normalize("NFC", upper)


def any_words() -> st.SearchStrategy[str]:
    """Arbitrary short strings: letters of any script, marks, digits, punctuation, spaces."""
    return st.text(
        st.characters(
            categories=["Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Nd", "Po", "Pd", "Zs"],
            exclude_characters="\x00",
        ),
        max_size=8,
    )


def decomposed(word: str) -> str:
    """The same word in NFD (accents as combining marks)."""
    return unicodedata.normalize("NFD", word)
