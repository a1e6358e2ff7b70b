"""The parser every command uses: one-line errors with exit code 2, and a help layout that reads the
same on every Python from 3.11 on (so the reference, which quotes ``--help``, does not drift)."""

from __future__ import annotations

import argparse
import re
from typing import Any, NoReturn

EXIT_USAGE = 2


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """The help layout, the same on every Python from 3.11 on.

    Descriptions and epilogs are printed as written. Python 3.13 counts a sub-command's indentation
    when it sizes the first column, and 3.11 does not; this formatter always counts it (3.13's rule),
    so ``--help`` output, and the reference that quotes it, do not depend on the Python version.
    """

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

        if len(prefix) + len(prog) <= 0.75 * width:  # a short prog: the parts follow it
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
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")
