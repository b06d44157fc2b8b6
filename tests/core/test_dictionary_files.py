"""Reading dictionary files: any text gives a Dictionary or one DictionaryError naming the file."""

from __future__ import annotations

import json
from pathlib import Path

import lacak
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner,
                                                                max_size=4),
    max_leaves=12,
)


@given(text=st.text(max_size=40) | json_values.map(json.dumps))
@example(text="[" + "9" * 5000 + "]")
@example(text='{"words": ["ABAD"], "count": -' + "1" * 4301 + "}")
@example(text="[" * 100_000)
@example(text='["ABAD", "abadi"]')
def test_any_text_gives_a_dictionary_or_a_dictionary_error(text: str) -> None:
    try:
        dictionary = lacak.Dictionary.from_json(text, name="t", origin="words.json")
    except lacak.DictionaryError as error:
        assert str(error).startswith("words.json")
        assert error.path == "words.json"
        return
    assert isinstance(dictionary, lacak.Dictionary)


def test_a_number_too_long_to_read_is_located(tmp_path: Path) -> None:
    path = tmp_path / "long.json"
    path.write_text('["ABAD",\n  ' + "9" * 5000 + "]", encoding="utf-8")
    with pytest.raises(lacak.DictionaryError) as info:
        lacak.Dictionary.from_file(path, cache=False)
    error = info.value
    assert (error.path, error.line, error.column) == (str(path), 2, 3)
    assert str(error) == (
        f"{path}, line 2, column 3: not valid JSON: a number of 5000 digits "
        "(at most 4300 can be read)"
    )


def test_dictionary_lives_with_its_file_format() -> None:
    """``Dictionary`` is defined in ``lacak.words``, which imports nothing of
    ``lacak.interfaces`` (the old cycle); the kernel does not import it back, and every
    old name still reaches it (``lacak.dictionary_files``, ``lacak.interfaces.Dictionary``
    with a warning)."""
    import ast
    import importlib
    import inspect
    import pkgutil

    import lacak.interfaces
    import lacak.words

    assert lacak.Dictionary is lacak.words.Dictionary
    assert lacak.Dictionary.__module__ == "lacak.words.dictionary"
    with pytest.warns(DeprecationWarning, match=r"^lacak\.interfaces\.Dictionary is deprecated"):
        assert lacak.interfaces.Dictionary is lacak.Dictionary
    with pytest.warns(DeprecationWarning, match=r"^lacak\.dictionary_files is deprecated"):
        assert lacak.dictionary_files is lacak.words  # type: ignore[attr-defined]
    for info in pkgutil.iter_modules(lacak.words.__path__, "lacak.words."):
        tree = ast.parse(inspect.getsource(importlib.import_module(info.name)))
        imported = {
            node.module
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module is not None
        }
        assert not imported & {"interfaces", "..interfaces", "lacak.interfaces"}, info.name
