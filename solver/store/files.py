"""Reading and writing users' files safely: text in UTF-8 (with or without a byte-order mark), whole
files written whole or not at all, and nothing overwritten unless asked.

Every input goes through one bounded reader. A file option (a bet file, a house's sheet, a policy, a
strategy) reads a *regular file* of at most a stated size (:func:`read_bytes`, :func:`read_text`): a
FIFO, a device (``/dev/zero``, ``/dev/urandom``, or a symbolic link to one) or a directory is refused at
once, without waiting on it and without reading it, and a file larger than the limit is refused by
its size. A stream option (``--shoes``, ``--coups``: ``-`` is standard input) reads lines of a bounded
length as they come (:func:`open_text`, :func:`read_lines`). A JSON or TOML document is read by
:func:`solver.store.documents.read_document`, which bounds its nesting and its numbers.

:func:`write_text` writes to a temporary file in the target's directory and renames it into place,
so a full disk or an interruption never leaves a truncated file behind under the real name; on
failure the temporary file is removed and the error names the real path and the reason.
:func:`read_text` and :func:`read_lines` refuse bytes that are not UTF-8 with one clear message.
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TextIO

from solver.errors import InputError

ENCODING = "utf-8-sig"
"""UTF-8; a byte-order mark at the start of a file is read and dropped (so the first card or number
of a file saved by an editor that writes one is read correctly)."""

MAX_LINE_CHARS = 100_000
"""The longest line an input file may have (a line of coups or shoes is far shorter)."""


MAX_FILE_BYTES = 16 << 20
"""The largest file a file option reads (16 MiB; a bet file, a house's sheet, a policy or a strategy
takes a few kilobytes)."""


def _decode_error(name: str, e: UnicodeDecodeError) -> InputError:
    return InputError(f"{name}: not UTF-8 text (byte 0x{e.object[e.start]:02x} at offset {e.start}); save it as UTF-8")


def _kind(mode: int) -> str | None:
    """What a file that is not a regular file is, in words (None for a regular file)."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"


def regular_file_error(name: str, mode: int) -> str | None:
    """Why a file of mode ``mode`` cannot be read as a file (None if it can): a directory, a FIFO, a device."""
    kind = _kind(mode)
    if kind is None:
        return None
    return f"{name} is {kind}, not a regular file"


def read_bytes(path: str | Path, what: str | None = None, limit: int = MAX_FILE_BYTES) -> bytearray:
    """The bytes of a regular file of at most ``limit`` bytes (a bytearray: numpy maps it writable
    without a copy).

    The file is looked at before it is opened and opened without waiting (``O_NONBLOCK``), so a FIFO
    with no writer, a device or a directory is refused at once; a file that grows past ``limit`` while
    it is read is refused too (at most ``limit + 1`` bytes are ever read).

    Raises:
        InputError: missing or unreadable, not a regular file, or larger than ``limit`` (all stated).
    """
    name = what or str(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    too_large = InputError(f"{name}: larger than {limit:,} bytes, more than this option reads")
    try:
        why = regular_file_error(name, os.stat(path).st_mode)
        if why is not None:
            raise InputError(why)
        fd = os.open(path, flags)
    except OSError as e:
        raise InputError(f"cannot read {name}: {e.strerror or e}") from None
    try:
        with os.fdopen(fd, "rb", buffering=0) as fh:
            st = os.fstat(fh.fileno())
            why = regular_file_error(name, st.st_mode)  # replaced since it was looked at
            if why is not None:
                raise InputError(why)
            if st.st_size > limit:
                raise too_large
            data = bytearray(st.st_size + 1)  # one byte more: a file that grew is noticed
            done = 0
            with memoryview(data) as view:
                while done < len(data):
                    n = fh.readinto(view[done:])
                    if not n:
                        break
                    done += n
            del data[done:]
            if done > st.st_size:  # it grew while it was read: the rest, bounded
                data += fh.read(limit + 1 - done)
    except OSError as e:
        raise InputError(f"cannot read {name}: {e.strerror or e}") from None
    if len(data) > limit:
        raise too_large
    return data


def read_text(path: str | Path, what: str | None = None, limit: int = MAX_FILE_BYTES) -> str:
    """A whole text file: a regular file of at most ``limit`` bytes (:func:`read_bytes`), UTF-8 (a
    byte-order mark dropped), without NUL bytes.

    Raises:
        InputError: the file cannot be read, is not a regular file, is too large, is not UTF-8, or holds
            a NUL byte (a binary file).
    """
    name = what or str(path)
    data = read_bytes(path, name, limit)
    nul = data.find(b"\0")
    if nul >= 0:
        raise InputError(f"{name}: a NUL byte at offset {nul}: a binary file, not text")
    try:
        return data.decode(ENCODING)
    except UnicodeDecodeError as e:
        raise _decode_error(name, e) from None


def read_lines(stream: TextIO, source: str) -> Iterator[tuple[int, str]]:
    """``(line number, line)`` of a text stream opened by :func:`open_text`, checked as they are read.

    Raises:
        InputError: a line longer than :data:`MAX_LINE_CHARS`, or bytes that are not UTF-8.
    """
    number = 0
    try:
        while True:
            line = stream.readline(MAX_LINE_CHARS + 1)
            if not line:
                return
            number += 1
            if len(line) > MAX_LINE_CHARS and not line.endswith("\n"):
                raise InputError(f"{source}, line {number}: longer than {MAX_LINE_CHARS:,} characters")
            if number == 1:
                line = line.removeprefix("\ufeff")
            yield number, line
    except UnicodeDecodeError as e:
        raise InputError(
            f"{source}, line {number + 1}: not UTF-8 text (byte 0x{e.object[e.start]:02x}); save it as UTF-8"
        ) from None


def open_text(name: str, stdin: TextIO) -> TextIO:
    """A text stream to read line by line (UTF-8, strict; :func:`read_lines`), or ``stdin`` for ``-``.

    A stream option reads what comes: a file, a pipe or a FIFO (waiting for its writer, as standard
    input does), a terminal; a directory is refused.

    Raises:
        InputError: the file cannot be opened, or is a directory.
    """
    if name == "-":
        return stdin
    try:
        if stat.S_ISDIR(os.stat(name).st_mode):
            raise InputError(f"{name} is a directory, not a file")
        return open(name, encoding=ENCODING, errors="strict")
    except OSError as e:
        raise InputError(f"cannot read {name}: {e.strerror}") from None


def check_writable(paths: Iterable[Path], overwrite: bool, option: str = "--force") -> None:
    """Refuse to go on when a target exists and overwriting was not asked for.

    Raises:
        InputError: naming the first existing file (and the option that allows overwriting it).
    """
    for p in paths:
        if p.exists() and not overwrite:
            raise InputError(f"{p} exists; pass {option} to overwrite it")
        if p.is_dir():
            raise InputError(f"{p} is a directory, not a file")


def check_out_dir(target: str, option: str = "--out") -> Path:
    """An output directory checked before any work: it is a writable directory, or it can be created
    (its nearest existing ancestor is a writable directory). Nothing is created: a temporary file is
    made and removed in the directory that would hold the files, or their first missing folder.

    Returns:
        ``target`` as a path.

    Raises:
        InputError: ``target`` (or a part of it) is not a directory, or no file can be written there.

    >>> check_out_dir("/dev/null/x")
    Traceback (most recent call last):
    ...
    solver.errors.InputError: --out /dev/null/x: /dev/null is not a directory
    """
    path = Path(target)
    existing = path
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        where = "" if existing == path else f"{existing} is "
        raise InputError(f"{option} {target}: {where}not a directory")
    try:
        fd, probe = tempfile.mkstemp(prefix=".baccarat-probe.", dir=existing)
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        what = "cannot write into it" if existing == path else f"cannot create it in {existing}"
        raise InputError(f"{option} {target}: {what} ({e.strerror or e})") from None
    return path


def files_for(target: str, names: Sequence[str], what: str, count: str | None = None) -> list[Path]:
    """Where files named ``names`` go: one name to the file ``target`` (unless ``target`` is a directory),
    several into the directory ``target``, each as ``NAME.json``.

    ``what`` says what one file is for (e.g. "one per shoe") and ``count`` how many there are, in words
    (default: ``len(names)``); used to refuse, before any work, a target that names one JSON file.

    Raises:
        InputError: several files and a target that is a ``.json`` name or an existing file.
    """
    path = Path(target)
    if len(names) == 1 and not path.is_dir():
        return [path]
    if path.suffix.lower() == ".json" or (path.exists() and not path.is_dir()):
        raise InputError(
            f"{count or len(names)} certificates ({what}) go into a directory: give --certificate a "
            f"directory name, not {target!r}"
        )
    return [path / f"{name}.json" for name in names]


def write_text(path: str | Path, text: str, overwrite: bool = False) -> Path:
    """Write ``text`` to ``path`` whole, or not at all (temporary file, then an atomic rename).

    Raises:
        InputError: the file exists (and not ``overwrite``), or cannot be written (naming the real
            path and the reason); no partial file is left.
    """
    return write_bytes(path, text.encode("utf-8"), overwrite)


def file_mode(target: Path) -> int:
    """The permissions a written file gets: those of the file it replaces, else what the user's umask allows
    a new file (0644 under the usual umask 022), as ``open()`` would give it.

    >>> import os
    >>> old = os.umask(0o022)
    >>> oct(file_mode(Path("/nonexistent/file")))
    '0o644'
    >>> _ = os.umask(old)
    """
    try:
        return target.stat().st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def write_bytes(path: str | Path, data: bytes, overwrite: bool = False) -> Path:
    """Write ``data`` to ``path`` whole, or not at all, as :func:`write_text` does (for images and the like)."""
    target = Path(path)
    check_writable([target], overwrite)
    directory = target.parent if str(target.parent) else Path(".")
    tmp_name = None
    try:
        directory.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
        os.fchmod(fd, file_mode(target))  # mkstemp makes it private (0600); a written file is the user's to share
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp_name, target)
        tmp_name = None
    except OSError as e:
        raise InputError(f"cannot write {target}: {e.strerror or e}") from None
    finally:
        if tmp_name is not None:
            try:
                os.unlink(tmp_name)
            except OSError:
                pass
    return target


def write_texts(files: dict[Path, str], overwrite: bool = False) -> list[Path]:
    """Write several files, each whole or not at all; nothing is written if any target is refused."""
    check_writable(files, overwrite)
    return [write_text(p, text, overwrite=True) for p, text in files.items()]


def write_files(files: dict[Path, bytes], overwrite: bool = False) -> list[Path]:
    """:func:`write_texts` for bytes."""
    check_writable(files, overwrite)
    return [write_bytes(p, data, overwrite=True) for p, data in files.items()]


def regenerate(argv: list[str] | None, module: str, default: str, what: str, write: Callable[[str], list[Path]]) -> int:
    """The main of ``python3 -m MODULE [DIR]``, which (re)writes a standard set of files (``what``) into
    DIR (``default`` if not given) by ``write``: a usage line for ``-h``; a bad argument or a directory
    that cannot be written is one line on stderr and exit code 2, an interruption exit code 130."""
    args = sys.argv[1:] if argv is None else argv
    usage = f"usage: python3 -m {module} [DIR]  (re)write the {what} into DIR (default: {default})"
    if any(a in ("-h", "--help") for a in args):
        print(usage)
        return 0
    if len(args) > 1 or (args and args[0].startswith("-")):
        sys.stderr.write(f"{usage}\n{module}: error: one directory at most, got {' '.join(args)!r}\n")
        return 2
    target = args[0] if args else default
    try:
        files = write(target)
    except OSError as e:
        if isinstance(e, FileExistsError):
            why = f"{e.filename or target} is a file, not a directory"
        elif isinstance(e, NotADirectoryError):
            why = f"{target}: a part of this path is a file, not a directory"
        else:
            why = f"cannot write into {e.filename or target}: {e.strerror or e}"
        sys.stderr.write(f"{module}: error: {why}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write(f"{module}: interrupted\n")
        return 130
    print(f"wrote {len(files)} {what} to {target}", file=sys.stderr)
    return 0
