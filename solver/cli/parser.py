"""The parser every command uses: one-line errors with exit code 2, and a help layout wrapped to the
terminal's width that reads the same on every Python from 3.11 on (so the reference, which quotes
``--help``, does not drift).

Descriptions and epilogs are written as paragraphs separated by blank lines, which :func:`layout`
wraps to the width:

- lines that start in the first column are prose: joined and wrapped, a word never broken (nor at
  its hyphens: ``--decks`` and ``comma-separated`` stay whole);
- an indented line with a gap of two or more spaces is an entry of a two-column list, a term and its
  description (an example command and what it does, an option and its meaning); the entries of a
  paragraph share one column for their descriptions where the width leaves room, else each term
  stands on a line of its own with its description below it (all of the paragraph's, so that they
  read alike); a line indented to the description column continues the entry above;
- any other indented line is kept as written (an example command, a sample line of a file), a command
  too long for the width continued on the next line after a backslash, as a shell reads it.
"""

from __future__ import annotations

import argparse
import re
import textwrap
from dataclasses import dataclass
from typing import Any, NoReturn

EXIT_USAGE = 2

MIN_DESCRIPTION = 24
"""The fewest columns a two-column list leaves its descriptions; narrower, each term has a line of its own."""

HANGING = 4
"""How far a description under its term, or a command's continuation, is indented past the term."""

_GAP = re.compile(r"\S(\s{2,})\S")


@dataclass
class _Entry:
    indent: int
    term: str
    text: str = ""
    column: int = 0  # where the description starts in the source (a continuation line starts there)


def _wrap(text: str, width: int, first: str = "", rest: str = "") -> list[str]:
    """``text`` filled to ``width`` columns, words whole (never broken, also not at a hyphen)."""
    return textwrap.wrap(
        text,
        width=max(width, 1),
        initial_indent=first,
        subsequent_indent=rest,
        break_long_words=False,
        break_on_hyphens=False,
    ) or [first.rstrip()]


def _command_lines(command: str, indent: int, width: int) -> list[str]:
    """A command line at ``indent``, continued after `` \\`` on lines indented :data:`HANGING` more
    where it is longer than ``width`` (a word longer than a line stays whole)."""
    if indent + len(command) <= width:
        return [" " * indent + command]
    words = command.split(" ")
    lines: list[str] = []
    line = " " * indent + words[0]
    for word in words[1:]:
        if len(line) + 1 + len(word) + 2 > width:
            lines.append(line + " \\")
            line = " " * (indent + HANGING) + word
        else:
            line += " " + word
    lines.append(line)
    return lines


def _paragraph(lines: list[str], width: int) -> list[str]:
    """One paragraph of a description or epilog, laid out to ``width`` columns (see the module)."""
    out: list[str] = []
    prose: list[str] = []
    entries: list[_Entry] = []

    def flush_prose() -> None:
        if prose:
            out.extend(_wrap(" ".join(prose), width))
            prose.clear()

    def flush_entries() -> None:
        if entries:
            out.extend(_entries(entries, width))
            entries.clear()

    for line in lines:
        indent = len(line) - len(line.lstrip(" "))
        text = line.strip()
        if indent == 0:
            flush_entries()
            prose.append(text)
            continue
        flush_prose()
        last = entries[-1] if entries else None
        if last is not None and last.text and indent == last.column:
            last.text += " " + text
            continue
        gap = _GAP.search(text)
        if gap is None:
            entries.append(_Entry(indent, text))
        else:
            entries.append(_Entry(indent, text[: gap.start(1)], text[gap.end(1) :], indent + gap.end(1)))
    flush_prose()
    flush_entries()
    return out


def _entries(entries: list[_Entry], width: int) -> list[str]:
    """A run of indented lines: the two-column entries aligned on one column where it fits."""
    ends = [e.indent + len(e.term) for e in entries if e.text]
    column = max(ends) + 2 if ends and max(ends) + 2 + MIN_DESCRIPTION <= width else None
    out: list[str] = []
    for e in entries:
        if not e.text:
            out.extend(_command_lines(e.term, e.indent, width))
        elif column is not None:
            head = " " * e.indent + e.term.ljust(column - e.indent)
            out.extend(_wrap(e.text, width, head, " " * column))
        else:
            out.extend(_command_lines(e.term, e.indent, width))
            below = " " * (e.indent + HANGING)
            out.extend(_wrap(e.text, width, below, below))
    return out


def layout(text: str, width: int) -> str:
    """A description or an epilog laid out to ``width`` columns: its paragraphs (see the module)."""
    paragraphs: list[list[str]] = [[]]
    for line in text.strip("\n").splitlines():
        if line.strip():
            paragraphs[-1].append(line.rstrip())
        elif paragraphs[-1]:
            paragraphs.append([])
    return "\n\n".join("\n".join(_paragraph(p, width)) for p in paragraphs if p)


class HelpFormatter(argparse.HelpFormatter):
    """The help layout: wrapped to the width, the same on every Python from 3.11 on.

    Descriptions and epilogs are laid out by :func:`layout`; an option's help is wrapped with its
    words whole. Python 3.13 counts a sub-command's indentation when it sizes the first column, and
    3.11 does not; this formatter always counts it (3.13's rule), so ``--help`` output, and the
    reference that quotes it, do not depend on the Python version.
    """

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return textwrap.indent(layout(text, width), indent)

    def _split_lines(self, text: str, width: int) -> list[str]:
        return _wrap(" ".join(text.split()), width)

    # One usage part: a bracketed or parenthesised group (a mutually exclusive group stays whole), or a word.
    _USAGE_PART = re.compile(r"\(.*?\)+(?=\s|$)|\[.*?\]+(?=\s|$)|\S+")

    def _format_usage(self, usage: str | None, actions: Any, groups: Any, prefix: str | None) -> str:
        """The usage line, wrapped the same way on every version: 3.13 breaks a mutually exclusive group
        across lines (``[--coups N |`` / ``--shoes N]``), 3.11 keeps it whole; this keeps it whole."""
        if usage is not None or not actions:
            return super()._format_usage(usage, actions, groups, prefix)
        prefix = "usage: " if prefix is None else prefix
        prog = self._prog
        optionals = [a for a in actions if a.option_strings]
        positionals = [a for a in actions if not a.option_strings]
        opt_usage = self._format_actions_usage(optionals, groups)
        pos_usage = self._format_actions_usage(positionals, groups)
        text = " ".join(s for s in (prog, opt_usage, pos_usage) if s)
        width = self._width - self._current_indent
        if len(prefix) + len(text) <= width:
            return f"{prefix}{text}\n\n"
        opt_parts, pos_parts = self._USAGE_PART.findall(opt_usage), self._USAGE_PART.findall(pos_usage)

        def fill(parts: list[str], indent: str, first: int | None = None) -> list[str]:
            # Greedy filling; ``first``: the first line already holds that many columns (the prefix).
            lines: list[str] = []
            line: list[str] = []
            used = (len(indent) if first is None else first) - 1
            for part in parts:
                if line and used + 1 + len(part) > width:
                    lines.append(indent + " ".join(line))
                    line, used = [], len(indent) - 1
                line.append(part)
                used += len(part) + 1
            if line:
                lines.append(indent + " ".join(line))
            if first is not None and lines:
                lines[0] = lines[0][len(indent) :]
            return lines

        longest = max(map(len, opt_parts + pos_parts), default=0)
        if len(prefix) + len(prog) <= 0.75 * width and len(prefix) + len(prog) + 1 + longest <= width:
            # a short prog: the parts follow it (where the longest fits beside it)
            indent = " " * (len(prefix) + len(prog) + 1)
            if opt_parts:
                lines = fill([prog, *opt_parts], indent, len(prefix)) + fill(pos_parts, indent)
            else:
                lines = fill([prog, *pos_parts], indent, len(prefix)) if pos_parts else [prog]
        else:  # a long prog on a line of its own
            indent = " " * len(prefix)
            lines = fill(opt_parts + pos_parts, indent)
            if len(lines) > 1:
                lines = fill(opt_parts, indent) + fill(pos_parts, indent)
            lines = [prog, *lines]
        return prefix + "\n".join(lines) + "\n\n"

    def add_argument(self, action: argparse.Action) -> None:
        super().add_argument(action)
        if action.help is not argparse.SUPPRESS:
            for sub in self._iter_indented_subactions(action):
                length = len(self._format_action_invocation(sub)) + self._current_indent
                self._action_max_length = max(self._action_max_length, length)


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit code 2, with :class:`HelpFormatter`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["formatter_class"] = HelpFormatter
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        """Exit 2 with one line, ``baccarat: error: ...``: the prefix of every error of the program
        (argparse's own would be ``baccarat punto: error:``), naming the help of the command."""
        tool = self.prog.split(" ", 1)[0]
        self.exit(EXIT_USAGE, f"{tool}: error: {message} (see {self.prog} --help)\n")
