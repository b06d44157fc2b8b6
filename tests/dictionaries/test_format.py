"""The dictionary file format in the core: formats, normalisation, skipped words, errors."""

from __future__ import annotations

import json
import re
import tempfile
import unicodedata
from pathlib import Path

import lacak
import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from lacak.words import SkippedWord, dump_dictionary, normalize_word, word_problem

from .strategies import any_words, decomposed, expected_form, simple_words

FORMATS = ("list", "seed", "object")


def write_format(words: list[str], fmt: str, **metadata: str) -> str:
    """Raw ``words`` as JSON in ``fmt``, written independently of lacak's writer."""
    if fmt == "list":
        return json.dumps(words, ensure_ascii=False)
    groups: dict[str, list[str]] = {}
    for word in words:
        groups.setdefault(word[:1].upper() or "?", []).append(word)
    if fmt == "seed":
        return json.dumps(groups, ensure_ascii=False, indent=1)
    return json.dumps({**metadata, "words": words}, ensure_ascii=False, indent=2)


# -- round trips ---------------------------------------------------------------------


@given(st.lists(simple_words(), min_size=1, max_size=30), st.sampled_from(FORMATS))
@example(["Straße", "STRASSE", "maß"], "list")
@example(["abad", "ABAD", "Abad"], "seed")
def test_round_trip_simple_words(words: list[str], fmt: str) -> None:
    """Any list of letters written in any format loads as its documented normal forms."""
    dictionary = lacak.Dictionary.from_json(write_format(words, fmt), name="t")
    expected = sorted({expected_form(word) for word in words})
    assert list(dictionary.words) == expected
    report = dictionary.report
    assert report is not None and report.format == fmt
    assert report.entries == len(words)
    assert report.skipped == ()
    assert report.duplicates == len(words) - len(expected)


@given(st.lists(any_words(), min_size=1, max_size=30), st.sampled_from(FORMATS))
def test_every_entry_is_kept_skipped_or_a_duplicate(words: list[str], fmt: str) -> None:
    """Arbitrary strings: kept words are letters in normal form; the rest are reported."""
    text = write_format(words, fmt)
    try:
        dictionary = lacak.Dictionary.from_json(text, name="t")
    except lacak.DictionaryError as error:
        assert "usable" in str(error)
        assert all(word_problem(normalize_word(w)) is not None for w in words)
        return
    report = dictionary.report
    assert report is not None
    assert len(dictionary) + len(report.skipped) + report.duplicates == len(words)
    for word in dictionary.words:
        assert word_problem(word) is None
        assert normalize_word(word) == word
        assert unicodedata.is_normalized("NFC", word)
    assert {item.word for item in report.skipped} <= set(words)
    for item in report.skipped:
        assert item.reason == word_problem(normalize_word(item.word))
        assert item.reason is not None


@given(st.lists(simple_words(), min_size=1, max_size=30), st.sampled_from(FORMATS))
def test_writer_and_reader_round_trip(words: list[str], fmt: str) -> None:
    """``to_json`` in every format reads back to an equal dictionary."""
    original = lacak.Dictionary.from_words(
        words, name="t", language="de", source="tests", title="Test", license="CC0-1.0"
    )
    again = lacak.Dictionary.from_json(original.to_json(fmt), name="t")
    assert again.words == original.words
    if fmt == "object":
        assert again == original
        assert again.license == "CC0-1.0"


@given(st.lists(simple_words(), min_size=1, max_size=20))
def test_decomposed_accents_are_composed(words: list[str]) -> None:
    nfc = lacak.Dictionary.from_words(words, name="a")
    nfd = lacak.Dictionary.from_words([decomposed(word) for word in words], name="a")
    assert nfc.words == nfd.words


@given(any_words())
def test_normalize_word_is_idempotent(word: str) -> None:
    once = normalize_word(word)
    assert normalize_word(once) == once


@given(st.lists(simple_words(), min_size=1, max_size=10))
def test_file_and_text_loading_agree(words: list[str]) -> None:
    text = write_format(words, "object", language="en")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "mine.json"
        path.write_text(text, encoding="utf-8")
        from_file = lacak.Dictionary.from_file(path, cache=False)
    assert from_file == lacak.Dictionary.from_json(text, name="mine")
    assert from_file.name == "mine" and from_file.language == "en"


# -- normalisation decisions -------------------------------------------------------------


def test_sharp_s_is_kept_as_capital_sharp_s() -> None:
    assert normalize_word("Straße") == "STRAẞE"
    assert normalize_word("STRAẞE") == "STRAẞE"
    d = lacak.Dictionary.from_words(["Masse", "Maße"], name="de")
    assert d.words == ("MASSE", "MAẞE")


def test_whitespace_around_words_is_ignored_inside_is_not() -> None:
    d = lacak.Dictionary.from_json('["  abad\\n", "aba aba"]', name="t")
    assert d.words == ("ABAD",)
    assert d.report is not None
    assert d.report.skipped == (
        lacak.SkippedWord("aba aba", "contains U+0020, which is not a letter"),
    )


def test_skipped_words_say_why() -> None:
    text = json.dumps(
        {"alphabet": "abcdefghijklmnopqrstuvwxyz", "words": ["cat", "café", "don't", "", "b2b"]}
    )
    d = lacak.Dictionary.from_json(text, name="t")
    assert d.words == ("CAT",)
    assert d.alphabet == "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    reasons = {item.word: item.reason for item in d.report.skipped}  # type: ignore[union-attr]
    assert reasons == {
        "café": "contains 'É', which is outside the alphabet",
        "don't": 'contains "\'", which is not a letter',
        "": "empty",
        "b2b": "contains '2', which is not a letter",
    }
    assert d.report.reasons() == {  # type: ignore[union-attr]
        "outside the alphabet": 1,
        "not letters": 2,
        "empty": 1,
    }
    assert "4 skipped" in d.report.summary()  # type: ignore[union-attr]


def test_combining_marks_after_a_letter_are_letters() -> None:
    # j + combining caron has no precomposed capital: upper() gives J + U+030C
    d = lacak.Dictionary.from_words(["ǰa", "\u030ca"], name="t")
    assert d.words == ("J\u030cA",)
    assert d.report is not None and d.report.skipped[0].reason.startswith("contains U+030C")


def test_metadata_and_notes() -> None:
    text = json.dumps(
        {
            "name": "english",
            "title": "Tiny English",
            "language": "en",
            "source": "a test",
            "license": "CC0-1.0",
            "alphabet": "A B C D E F G H I J K L M N O P Q R S T U V W X Y Z",
            "version": 3,
            "words": {"C": ["cat"], "D": ["dog"]},
        }
    )
    named = lacak.Dictionary.from_json(text)
    assert (named.name, named.title, named.language, named.source, named.license) == (
        "english",
        "Tiny English",
        "en",
        "a test",
        "CC0-1.0",
    )
    assert named.alphabet == "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    assert named.report is not None and named.report.format == "object"
    assert named.report.notes == ("unknown key 'version' ignored",)
    renamed = lacak.Dictionary.from_json(text, name="eng")
    assert renamed.name == "eng"
    assert "the file calls itself 'english'; it is loaded as 'eng'" in renamed.report.notes  # type: ignore[union-attr]


def test_letters_are_the_alphabet_or_the_letters_used() -> None:
    assert lacak.Dictionary.from_words(["bca", "ab"], name="t").letters == "ABC"
    declared = lacak.Dictionary.from_words(["ab"], name="t", alphabet="abcd")
    assert declared.letters == "ABCD"


def test_dump_rejects_unknown_format() -> None:
    d = lacak.Dictionary.from_words(["a"], name="t")
    with pytest.raises(lacak.InvalidOptionError, match="formats: object, seed, list"):
        dump_dictionary(d, "yaml")


def test_bom_is_accepted() -> None:
    assert lacak.Dictionary.from_json('\ufeff["a"]', name="t").words == ("A",)
    assert lacak.Dictionary.from_json(b'\xef\xbb\xbf["a"]', name="t").words == ("A",)


# -- malformed files ----------------------------------------------------------------------

MALFORMED = [
    # (file text, message fragment, line, column)
    ('[\n  "abad",\n  "abadi" "x"\n]', "not valid JSON: Expecting ',' delimiter", 3, 11),
    (
        '{"A": ["ABAD"],\n "B": ["BABA", 12]}',
        "word 1 of the list under 'B' must be a string, not the number 12",
        2,
        16,
    ),
    ('{"words": ["a", null]}', "word 1 of 'words' must be a string, not null", 1, 17),
    (
        '{"words": {"A": ["ab", {"x": 1}]}}',
        "word 1 of the list under 'A' must be a string, not an object",
        1,
        24,
    ),
    ('{"A": "ABAD"}', "the list under 'A' must be a list of words, not a string", 1, 7),
    ('{"language": 5, "words": []}', "'language' must be a string, not the number 5", 1, 14),
    ('{"language": "en"}', "has metadata (language) but no 'words' key", 1, 1),
    ('{"A": ["X"],\n"A": ["Y"]}', "the key 'A' appears more than once", 2, 6),
    ('"abad"', "expected a JSON list of words or an object, not a string", 1, 1),
    ("42", "not the number 42", 1, 1),
    ("[1]", "word 0 of the file must be a string, not the number 1", 1, 2),
    ("[true]", "not a boolean", 1, 2),
]


@pytest.mark.parametrize(("text", "message", "line", "column"), MALFORMED)
def test_malformed_files_name_file_line_and_column(
    tmp_path: Path, text: str, message: str, line: int, column: int
) -> None:
    path = tmp_path / "broken.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(lacak.DictionaryError) as caught:
        lacak.Dictionary.from_file(path)
    error = caught.value
    assert str(error) == f"{path}, line {line}, column {column}: {message}" or (
        str(error).startswith(f"{path}, line {line}, column {column}: ") and message in str(error)
    )
    assert (error.path, error.line, error.column) == (str(path), line, column)
    assert isinstance(error, ValueError)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "the file is empty"),
        (b"  \n\t", "the file is empty"),
        (b"[]", "the file contains no words"),
        (b'{"words": {}}', "the file contains no words"),
        (b"{}", "the file contains no words"),
        (b'["1", "a-b"]', "none of the words in the file is usable (2 entries, 2 skipped"),
    ],
)
def test_empty_files_are_errors(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "empty.json"
    path.write_bytes(content)
    with pytest.raises(lacak.DictionaryError, match=r"empty\.json") as caught:
        lacak.Dictionary.from_file(path)
    assert message in str(caught.value)


def test_not_utf8_names_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes('[\n"ab",\n"smörgås"]'.encode("latin-1"))
    with pytest.raises(lacak.DictionaryError) as caught:
        lacak.Dictionary.from_file(path)
    assert str(caught.value) == f"{path}, line 3, column 4: not UTF-8 text (byte 0xF6)"


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(lacak.DictionaryError, match=r"nope\.json: cannot be read"):
        lacak.Dictionary.from_file(tmp_path / "nope.json")


def test_bad_alphabet_names_line_and_column() -> None:
    with pytest.raises(lacak.DictionaryError) as caught:
        lacak.Dictionary.from_json('{"words": ["a"],\n  "alphabet": "AB1-"}', origin="x.json")
    assert str(caught.value) == (
        "x.json, line 2, column 15: the alphabet contains '1', '-', which are not letters"
    )
    assert (caught.value.line, caught.value.column) == (2, 15)


@pytest.mark.parametrize(
    ("alphabet", "words", "kept", "skipped"),
    [
        ("ǰA", ["ǰa", "a", "ǰ"], ("A", "J̌", "J̌A"), ()),
        ("ǰ, a", ["ǰa", "ja", "jo"], ("J̌A", "JA"), ("jo",)),
        ("कखगािी", ["कि", "खी", "घ"], ("कि", "खी"), ("घ",)),
        ("abc", ["a\u0301b", "cab"], ("CAB",), ("a\u0301b",)),
    ],
)
def test_an_alphabet_may_hold_combining_marks_after_letters(
    alphabet: str, words: list[str], kept: tuple[str, ...], skipped: tuple[str, ...]
) -> None:
    """The alphabet is checked like words: a mark is a letter's part when it follows one.

    The alphabet is a set of characters, so ``ǰ`` (``J`` + U+030C) admits a plain ``J``.
    """
    text = json.dumps({"alphabet": alphabet, "words": words}, ensure_ascii=False)
    dictionary = lacak.Dictionary.from_json(text, name="t")
    assert dictionary.words == tuple(sorted(kept))
    assert dictionary.report is not None
    assert tuple(item.word for item in dictionary.report.skipped) == skipped
    from_words = lacak.Dictionary.from_words(words, name="t", alphabet=alphabet)
    assert from_words.alphabet == dictionary.alphabet


@pytest.mark.parametrize("alphabet", ["\u030cA", "A \u030c", "A,\u0301B"])
def test_a_mark_that_follows_no_letter_is_not_an_alphabet_letter(alphabet: str) -> None:
    escaped = alphabet.encode("unicode-escape").decode()
    text = '{"words": ["a"], "alphabet": "' + escaped + '"}'
    with pytest.raises(lacak.DictionaryError) as caught:
        lacak.Dictionary.from_json(text, origin="x.json")
    message = str(caught.value)
    assert message.startswith("x.json, line 1, column 30: the alphabet contains U+03")
    assert message.endswith("which is not a letter (a combining mark must follow a letter)")
    with pytest.raises(lacak.DictionaryError, match="a combining mark must follow a letter"):
        lacak.Dictionary.from_words(["a"], name="t", alphabet=alphabet)


def test_deeply_nested_json_names_line_and_column() -> None:
    text = '["ab", "[[[",\n  ' + "[" * 100_000 + "]" * 100_000 + "]"
    with pytest.raises(lacak.DictionaryError) as caught:
        lacak.Dictionary.from_json(text, origin="x.json")
    error = caught.value
    assert (error.line, error.column) == (2, 100_002)
    assert str(error) == (
        "x.json, line 2, column 100002: not valid JSON: nested too deeply "
        "(100001 levels of lists and objects)"
    )


@given(st.text(max_size=40))
def test_any_text_either_loads_or_raises_dictionary_error(text: str) -> None:
    try:
        dictionary = lacak.Dictionary.from_json(text, origin="fuzz.json")
    except lacak.DictionaryError as error:
        assert str(error).startswith("fuzz.json")
    else:
        assert len(dictionary) > 0


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4)
    ),
    max_leaves=12,
)


@given(JSON_VALUES, st.sampled_from([None, 0, 2]))
def test_any_json_value_loads_or_points_into_the_file(value: object, indent: int | None) -> None:
    """Whatever the structure, the result is a dictionary or an error located inside the text."""
    text = json.dumps(value, indent=indent, ensure_ascii=False)
    try:
        dictionary = lacak.Dictionary.from_json(text, origin="fuzz.json")
    except lacak.DictionaryError as error:
        assert str(error).startswith("fuzz.json")
        if error.line is not None:
            lines = text.split("\n")
            assert 1 <= error.line <= len(lines)
            assert error.column is not None and 1 <= error.column <= len(lines[error.line - 1]) + 1
    else:
        assert len(dictionary) > 0
        assert all(word_problem(word) is None for word in dictionary.words)


# -- text that is not text: lone surrogates -------------------------------------------


def test_a_word_with_a_lone_surrogate_is_skipped_as_its_escape() -> None:
    """``"\\ud800"`` in JSON is no text: the word is skipped and reported in a printable form."""
    dictionary = lacak.Dictionary.from_json('["\\ud800ok", "fine", "\\udfff"]', name="t")
    assert dictionary.words == ("FINE",)
    report = dictionary.report
    assert report is not None
    assert report.skipped == (
        SkippedWord("\\ud800ok", "contains U+D800, which is not a letter"),
        SkippedWord("\\udfff", "contains U+DFFF, which is not a letter"),
    )
    json.dumps([item.word for item in report.skipped], ensure_ascii=False).encode("utf-8")


@given(st.lists(st.text(st.characters(categories=["Cs", "Ll"]), max_size=5), max_size=6))
def test_every_skipped_word_can_be_written_as_utf8(words: list[str]) -> None:
    dictionary = lacak.Dictionary.from_words(words, name="t")
    assert dictionary.report is not None
    for item in dictionary.report.skipped:
        item.word.encode("utf-8")
        item.reason.encode("utf-8")


@pytest.mark.parametrize("key", ["title", "language", "source", "license", "name"])
def test_metadata_with_a_lone_surrogate_is_an_error_with_its_position(key: str) -> None:
    text = f'{{"words": ["abad"],\n "{key}": "x\\ud800"}}'
    with pytest.raises(lacak.DictionaryError) as caught:
        lacak.Dictionary.from_json(text, origin="w.json")
    assert str(caught.value) == (
        f"w.json, line 2, column {len(key) + 6}: "
        f"{key!r} contains the lone surrogate U+D800, which is not text"
    )


def test_from_words_metadata_with_a_lone_surrogate_is_an_error() -> None:
    with pytest.raises(lacak.DictionaryError, match="'title' contains the lone surrogate U"):
        lacak.Dictionary.from_words(["abad"], name="t", title="\udcff")


def test_count_and_filters_metadata() -> None:
    """``count`` (a whole number) and ``filters`` (strings) travel through a round trip;
    a count that is not the number of words read is noted, and wrong types are errors
    located in the file."""
    made = lacak.Dictionary.from_words(
        ["abad", "abadi"], name="mini", language="id", filters=["read 2 entries: a test"]
    )
    assert made.filters == ("read 2 entries: a test",)
    text = made.to_json("object")
    assert '"count": 2' in text and text.index('"filters"') < text.index('"words"')
    again = lacak.Dictionary.from_json(text, name="mini")
    assert again == made and again.report is not None and again.report.notes == ()
    wrong = lacak.Dictionary.from_json('{"count": 5, "words": ["abad"]}', name="w")
    assert wrong.report is not None
    assert wrong.report.notes == ("the file says it holds 5 words; 1 were read",)
    for bad, message in [
        ('{"count": "3", "words": ["a"]}', "'count' must be a whole number of words, not a string"),
        ('{"count": true, "words": ["a"]}', "'count' must be a whole number of words"),
        ('{"count": -1, "words": ["a"]}', "'count' must be a whole number of words"),
        ('{"filters": "x", "words": ["a"]}', "'filters' must be a list of strings, not a string"),
        ('{"filters": ["ok", 3], "words": ["a"]}', "item 1 of 'filters' must be a string, not the number 3"),
    ]:
        with pytest.raises(lacak.DictionaryError, match=re.escape(message)) as caught:
            lacak.Dictionary.from_json(bad, origin="f.json")
        assert caught.value.line == 1 and caught.value.column is not None


def test_count_and_filters_survive_the_cache(tmp_path) -> None:
    path = tmp_path / "w.json"
    made = lacak.Dictionary.from_words(["kata", "rumah"], name="w", filters=["one", "two"])
    path.write_text(made.to_json(), encoding="utf-8")
    first = lacak.Dictionary.from_file(path)
    second = lacak.Dictionary.from_file(path)
    assert second.report is not None and second.report.cached
    assert second == first and second.filters == ("one", "two") and second.words == made.words


@given(
    words=st.lists(
        st.one_of(
            any_words(),
            st.text(alphabet="abcßẞÄäeé\u0301 \n-'", max_size=6),
            st.sampled_from(["straße", "Cafe\u0301", "ǰ", "ŉ", "ﬁ", "abc", "ABC", " abc", "a\nb"]),
        ),
        max_size=12,
    ),
    alphabet=st.sampled_from(["", "ABCÄẞÉ", "ABCDEFGHIJKLMNOPQRSTUVWXYZ"]),
)
def test_all_at_once_is_word_by_word(words: list[str], alphabet: str) -> None:
    """The joined-text fast path gives exactly what the word-by-word loop gives, or
    declines (``None``) and leaves the list to it."""
    from lacak.words.normalize import _normalize_all_at_once, _normalize_words

    letters = frozenset(alphabet) if alphabet else None
    fast = _normalize_all_at_once(list(words), letters)
    slow = _normalize_words(iter(words), alphabet)  # an iterator takes the loop
    if fast is not None:
        assert fast == slow
    if words and all(w.isascii() and w.isalpha() for w in words) and not alphabet:
        assert fast is not None  # the usual list takes the fast path


def test_keys_without_quotes_are_named_in_the_error() -> None:
    """The tutorial prints its KBBI list as ``{A: ["ABAD", ...]}`` (JavaScript); a file
    written that way is one clear error saying what to change, at the key."""
    text = '{A: ["ABAD", "ABADI"],\n B: ["BABA"]}'
    with pytest.raises(lacak.DictionaryError) as caught:
        lacak.Dictionary.from_json(text, origin="ind.json")
    assert str(caught.value) == (
        'ind.json, line 1, column 2: not valid JSON: Expecting property name enclosed in '
        'double quotes (a key needs double quotes: "A": ..., not A: ...)'
    )
    fixed = text.replace("A:", '"A":').replace("B:", '"B":')
    assert lacak.Dictionary.from_json(fixed, name="ind").words == ("ABAD", "ABADI", "BABA")
