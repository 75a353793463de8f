"""Where an import's chunks are parsed, replayed and tabulated: here, in a process pool, or on Dask.

The importer (:mod:`hhtool.ingest.loader`) reads the files, cuts them into chunks of hands, and stores
the results in order; an executor only runs :func:`hhtool.ingest.chunks.run_chunk` on those chunks
(each a :class:`hhtool.ingest.chunks.ChunkWork`).
So every executor gives the same tables, file rows, resume of grown files and counts.

* :class:`LocalExecutor` (``--jobs N``): in the importing process, or a process pool of N workers
  when there is enough to read to pay for starting one;
* :class:`DaskExecutor` (``--dask ADDRESS``): the tasks of a Dask distributed cluster (``local``
  starts a LocalCluster on this machine's cores). Workers receive the chunks' lines and send back
  their tables: they need hhtool installed, not the files.
"""

from __future__ import annotations

import gc
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from typing import Any, Protocol

#: runs run_chunk somewhere (a pool, a cluster); returns something with .result()
Submit = Callable[..., Any]
#: a process pool pays its start-up only when there is this much to read
POOL_MIN_BYTES = 4 << 20
#: chunks handed out at most per worker before the importer waits for the oldest: enough to keep
#: every worker busy while one result is stored, few enough that memory stays bounded
IN_FLIGHT_PER_WORKER = 2
#: the cyclic collector's thresholds while importing. With CPython's (700, 10, 10) it ran a full
#: collection over the 2,000-hand chunk of model objects alive (≈1,600 objects a hand) again and
#: again: ≈180 µs of collector CPU per hand. With the start-up heap frozen and these thresholds it
#: is ≈45 µs per hand (one full collection per 10,000 hands parsed; benchmarks/RESULTS.md, #17).
#: Hands and their tables hold no reference cycles, so refcounting frees them either way.
IMPORT_GC_THRESHOLDS = (100_000, 50, 1000)

#: seconds to wait for a Dask scheduler to answer before saying none does
DASK_CONNECT_TIMEOUT = 5


class DaskUnavailable(ValueError):
    """``--dask ADDRESS`` names no scheduler that can be reached: the message says what to do."""


@dataclass(frozen=True)
class Running:
    """A started executor: its submit function (None: run each chunk in the importing process)
    and how many chunks may be submitted and not yet stored."""

    submit: Submit | None = None
    in_flight: int = 0
    #: give up the chunks submitted and not finished, now (a Ctrl-C: see :mod:`hhtool.ingest.stopping`)
    stop: Callable[[], None] | None = None


class Executor(Protocol):
    def running(self, total_bytes: int) -> AbstractContextManager[Running]:
        """Start (for an import of about ``total_bytes``) and stop when the import ends."""
        ...


def default_jobs() -> int:
    return os.cpu_count() or 1


@dataclass(frozen=True)
class LocalExecutor:
    """The importing process alone (``jobs`` 1, or little to read) or a pool of ``jobs`` processes."""

    jobs: int = 1

    @contextmanager
    def running(self, total_bytes: int) -> Iterator[Running]:
        if self.jobs <= 1 or total_bytes < POOL_MIN_BYTES:
            yield Running()
            return
        # forkserver: workers do not inherit the importing process's open database
        with ProcessPoolExecutor(max_workers=self.jobs, mp_context=multiprocessing.get_context("forkserver"),
                                 initializer=exit_with, initargs=(os.getpid(),)) as pool:
            yield Running(pool.submit, IN_FLIGHT_PER_WORKER * self.jobs, lambda: stop_pool_now(pool))


def stop_pool_now(pool: ProcessPoolExecutor) -> None:
    """Cancel the pool's queued chunks and end its workers without waiting for the chunks they are
    parsing (a chunk takes seconds; a Ctrl-C must stop within two). The workers are the pool's own
    processes (its private ``_processes``: the standard library offers no other way to end them)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()


def check_dask_address(address: str) -> None:
    """DaskUnavailable for an address Dask cannot connect to as written (no port, an unknown protocol)."""
    if address == "local":
        return
    from distributed.comm.addressing import parse_address, parse_host_port
    from distributed.comm.registry import backends

    example = "e.g. tcp://HOST:8786, or 'local' for a cluster on this machine"
    try:
        scheme, location = parse_address(address)
        if scheme in ("tcp", "tls"):
            parse_host_port(location)
    except ValueError:
        raise DaskUnavailable(f"--dask {address!r}: a scheduler address needs a port ({example})") from None
    if scheme not in backends:
        raise DaskUnavailable(f"--dask {address!r}: unknown protocol {scheme!r} ({example})")


@dataclass(frozen=True)
class DaskExecutor:
    """The workers of a Dask distributed scheduler at ``address``; ``local`` starts a LocalCluster
    of :func:`default_jobs` single-threaded worker processes on loopback for the import's length."""

    address: str = "local"

    @contextmanager
    def running(self, total_bytes: int) -> Iterator[Running]:
        from distributed import Client, LocalCluster

        check_dask_address(self.address)
        cluster = LocalCluster(n_workers=default_jobs(), threads_per_worker=1, host="127.0.0.1",
                               dashboard_address=None, silence_logs=logging.ERROR) if self.address == "local" else None
        try:
            try:
                connected = Client(cluster if cluster is not None else self.address, timeout=DASK_CONNECT_TIMEOUT)
            except (OSError, TimeoutError) as error:  # distributed says "Timed out trying to connect …"
                if cluster is not None:
                    raise
                raise DaskUnavailable(f"no Dask scheduler answers at {self.address} (waited {DASK_CONNECT_TIMEOUT} s): "
                                      "start one with `dask scheduler` or check the address") from error
            with connected as client:
                threads = sum(client.nthreads().values()) or 1

                def submit(function: Callable[..., Any], *args: Any) -> Any:
                    # pure=False: two equal chunks (a file imported twice in one run) are two tasks
                    return client.submit(function, *args, pure=False)

                submitted: list[Any] = []

                def submit_and_keep(function: Callable[..., Any], *args: Any) -> Any:
                    submitted.append(future := submit(function, *args))
                    del submitted[:-4 * IN_FLIGHT_PER_WORKER * threads]  # (only the last ones can still run)
                    return future

                yield Running(submit_and_keep, IN_FLIGHT_PER_WORKER * threads,
                              lambda: client.cancel([future for future in submitted if not future.done()]))
        finally:
            if cluster is not None:
                cluster.close()


@contextmanager
def import_gc() -> Iterator[None]:
    """The collector tuned for an import (:data:`IMPORT_GC_THRESHOLDS`) in this process while the
    block runs: the heap built so far (modules, grammars) is frozen out of every collection, and
    the previous thresholds come back at the end."""
    previous = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(*IMPORT_GC_THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*previous)
        gc.unfreeze()


def tune_worker_gc() -> None:
    """A pool worker's collector, for its whole life: the import code loaded, then frozen out of
    the collections, and the thresholds raised (see :data:`IMPORT_GC_THRESHOLDS`)."""
    import hhtool.ingest.chunks
    import hhtool.ingest.rule_choice  # noqa: F401  (loaded before the freeze, so the freeze covers it)

    gc.freeze()
    gc.set_threshold(*IMPORT_GC_THRESHOLDS)


def exit_with(importer_pid: int, interval: float = 1.0) -> None:
    """Pool initializer: end this worker when the importing process is gone. A killed importer
    (SIGKILL, the OOM killer) runs no clean-up, and its workers would otherwise wait on their task
    queue for ever. Ctrl-C (SIGINT to the whole process group) is the importer's to handle: it stops
    the pool and says what was stored; a worker would only print a traceback. The worker's
    collector is tuned for the import (:func:`tune_worker_gc`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    tune_worker_gc()

    def watch() -> None:
        while _alive(importer_pid):
            time.sleep(interval)
        os._exit(1)

    threading.Thread(target=watch, name="hhtool-importer-watch", daemon=True).start()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a killed process stays a zombie until its parent reaps it
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
            return stat.read().rpartition(")")[2].split()[0] != "Z"
    except (OSError, IndexError):
        return True
