"""JSON and TOML documents users write (bet files, house sheets, policies, strategies), read within bounds.

A document is read by :func:`read_document` (a regular file of bounded size, through
:func:`solver.store.files.read_text`) and parsed by :func:`parse_document`: its nesting is bounded
(:data:`MAX_DEPTH`: one line, never a RecursionError), and so are its whole numbers
(:data:`MAX_INTEGER_DIGITS`, a JSON literal measured before it is converted; Python's own limit,
4,300 digits, comes after the conversion and as a traceback); NaN and Infinity are refused; a decimal
reaches the caller as its text, for an exact reader of numbers
(:func:`solver.exact.numbers.exact` bounds its digits and exponent before any power is computed).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path

from solver.errors import InputError
from solver.store.files import MAX_FILE_BYTES, read_text

MAX_DEPTH = 32
"""The deepest nesting of lists and tables a JSON or TOML document may have (the formats need 5)."""

MAX_INTEGER_DIGITS = 100
"""The most digits a whole number in a JSON or TOML document may have (Python itself refuses 4,300,
after converting; arithmetic on such numbers could run for hours)."""


def _bounded_int(source: str) -> Callable[[str], int]:
    def parse(text: str) -> int:
        if len(text.lstrip("-")) > MAX_INTEGER_DIGITS:
            raise InputError(f"{source}: a whole number of {len(text.lstrip('-')):,} digits (at most {MAX_INTEGER_DIGITS})")
        return int(text)

    return parse


def _bounded_float(source: str, parse_float: Callable[[str], object]) -> Callable[[str], object]:
    def parse(text: str) -> object:
        if len(text) > MAX_INTEGER_DIGITS:
            raise InputError(f"{source}: a number of {len(text):,} characters (at most {MAX_INTEGER_DIGITS})")
        return parse_float(text)

    return parse


def _json_constant(source: str) -> Callable[[str], object]:
    def refuse(name: str) -> object:
        raise InputError(f"{source}: not valid JSON: {name} is not a number")

    return refuse


def _check_document(data: object, source: str) -> None:
    """Refuse a parsed document nested deeper than :data:`MAX_DEPTH` or holding a whole number of more
    than :data:`MAX_INTEGER_DIGITS` digits (walked without recursion)."""
    bound = 10**MAX_INTEGER_DIGITS
    stack: list[tuple[object, int]] = [(data, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Iterable[object] = item.values()
        elif isinstance(item, list):
            children = item
        else:
            if isinstance(item, int) and not -bound < item < bound:
                raise InputError(f"{source}: a whole number of more than {MAX_INTEGER_DIGITS} digits")
            continue
        if depth > MAX_DEPTH:
            raise InputError(f"{source}: nested more than {MAX_DEPTH} deep (lists or tables within one another)")
        stack.extend((child, depth + 1) for child in children)


def parse_document(text: str, fmt: str, source: str, parse_float: Callable[[str], object] = str) -> object:
    """A JSON (``fmt="json"``) or TOML document, bounded: nesting at most :data:`MAX_DEPTH`, whole numbers
    of at most :data:`MAX_INTEGER_DIGITS` digits (a JSON literal is measured before it is converted), no
    NaN or Infinity; every decimal is handed to ``parse_float`` as written (default: kept as its text,
    for :func:`solver.exact.numbers.exact`; never a binary float).

    >>> parse_document('{"pays": 1.5, "n": [1, 2]}', "json", "bets.json")
    {'pays': '1.5', 'n': [1, 2]}
    >>> parse_document("[" * 40 + "]" * 40, "json", "bets.json")
    Traceback (most recent call last):
    ...
    solver.errors.InputError: bets.json: nested more than 32 deep (lists or tables within one another)

    Raises:
        InputError: not valid JSON or TOML (with the parser's reason), too deep, or a number too long.
    """
    import tomllib

    label = "JSON" if fmt == "json" else "TOML"
    try:
        if fmt == "json":
            data = json.loads(
                text,
                parse_int=_bounded_int(source),
                parse_float=_bounded_float(source, parse_float),
                parse_constant=_json_constant(source),
            )
        else:
            data = tomllib.loads(text, parse_float=_bounded_float(source, parse_float))
    except InputError:
        raise
    except RecursionError:
        raise InputError(f"{source}: nested more than {MAX_DEPTH} deep (lists or tables within one another)") from None
    except json.JSONDecodeError as e:
        raise InputError(f"{source}: not valid JSON: {e.msg} at line {e.lineno}, column {e.colno}") from None
    except ValueError as e:  # tomllib.TOMLDecodeError, or a number Python will not convert
        raise InputError(f"{source}: not valid {label}: {e}") from None
    _check_document(data, source)
    return data


def read_document(
    path: str | Path,
    fmt: str,
    what: str | None = None,
    parse_float: Callable[[str], object] = str,
    limit: int = MAX_FILE_BYTES,
) -> object:
    """A JSON or TOML file read by :func:`read_text` and parsed by :func:`parse_document`.

    Raises:
        InputError: any of theirs, naming the file.
    """
    name = what or str(path)
    return parse_document(read_text(path, name, limit), fmt, name, parse_float)
