"""The run options every long command shares (``--workers``, ``--scheduler``, ``--worker-wait``), and
mapping a sweep's solves over them, results in input order (:func:`solver.simulate.executor.map_in_order`)."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from solver.cli.common import Progress, note, parse_count
from solver.errors import InputError

if TYPE_CHECKING:
    from solver.simulate.tasks import Idle, Scheduler

T = TypeVar("T")
R = TypeVar("R")

SCHEDULER_HELP = "a Dask distributed scheduler, e.g. tcp://host:8786 (pip install 'baccarat-solver[dask]')"
SWEEP_WORKERS = "local processes for the solves (default 1); the same results, in order"


def seconds(text: str) -> float:
    """argparse type: a number of seconds, 0 or more (``--worker-wait``)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a number of seconds was expected, got {text[:40]!r}") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"a number of seconds, 0 or more, was expected, got {text[:40]!r}")
    return value


def add_run_options(group: Any, workers_help: str = "local processes (default: all cores)") -> None:
    """``--workers``, ``--scheduler`` and ``--worker-wait`` on a parser or an argument group."""
    group.add_argument("--workers", type=parse_count, metavar="N", help=workers_help)
    group.add_argument("--scheduler", metavar="ADDRESS", help=SCHEDULER_HELP)
    group.add_argument(
        "--worker-wait",
        type=seconds,
        metavar="SECONDS",
        help="with --scheduler: how long to wait with no Dask worker connected before failing (default 60)",
    )


def workers_from_args(args: argparse.Namespace) -> int | None:
    """``--workers`` as given (None: the default, every core), capped at the executor's limit with a note
    saying so (more processes than that per core only add start-up time and memory)."""
    if args.workers is None:
        return None
    from solver.simulate.executor import MAX_WORKERS_PER_CORE, max_workers

    cap = max_workers()
    if args.workers > cap and not getattr(args, "scheduler", None):
        note(f"--workers {args.workers:,} is more than {MAX_WORKERS_PER_CORE} processes per core: at most {cap} are used")
        return cap
    return int(args.workers)


def scheduler_from_args(args: argparse.Namespace) -> Scheduler | None:
    """``--scheduler`` with its ``--worker-wait`` (None: run on local processes)."""
    from solver.simulate.tasks import DEFAULT_WORKER_WAIT, DaskScheduler

    wait = getattr(args, "worker_wait", None)
    if args.scheduler is None:
        if wait is not None:
            raise InputError("--worker-wait goes with --scheduler (a Dask cluster's workers)")
        return None
    return DaskScheduler(args.scheduler, DEFAULT_WORKER_WAIT if wait is None else wait)


def processes_from_args(args: argparse.Namespace) -> tuple[int, Scheduler | None]:
    """The local processes of a sweep (default one, as the sweeps ran before; more where asked), or the
    Dask scheduler."""
    from solver.simulate.executor import default_workers

    scheduler = scheduler_from_args(args)
    workers = workers_from_args(args)
    return (1 if scheduler is None and workers is None else (workers or default_workers())), scheduler


def map_from_args(
    args: argparse.Namespace,
    fn: Callable[[T], R],
    items: Sequence[T],
    what: str,
    initialize: Callable[[], Any] | None = None,
) -> list[R]:
    """``[fn(item) for item in items]`` in the items' order, over ``--workers`` (default: one process,
    as the sweeps ran before; more where asked) or ``--scheduler``, with a progress line of ``what``;
    ``initialize`` is called here before local workers start (they are forked: what it imports, they share)."""
    from solver.simulate.executor import map_in_order

    n, scheduler = processes_from_args(args)
    with Progress(len(items), what) as progress:
        return map_in_order(fn, items, n, scheduler, progress.update, initialize)


def stream_from_args(args: argparse.Namespace, fn: Callable[[T], R], items: Iterable[T | Idle]) -> Iterator[R]:
    """``fn(item)`` for each item as it comes (a stream's lines: ``items`` is consumed lazily, and yields
    :data:`~solver.simulate.tasks.IDLE` while it waits for the next), in the items' order, each as soon
    as it and those before it are done, over the processes :func:`map_from_args` takes."""
    from solver.simulate.executor import in_order, map_chunks

    n, scheduler = processes_from_args(args)
    if isinstance(items, Sequence):  # no more processes than items
        n = min(n, max(1, len(items)))
    return in_order(map_chunks(fn, items, n, scheduler))
