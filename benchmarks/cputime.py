"""CPU time of a command and every process it starts (a pool's workers too), for the benchmarks.

``resource.getrusage(RUSAGE_CHILDREN)`` counts only the processes that were waited for, and a
forkserver pool's workers are not children of the importing process, so their CPU would be
missed. :func:`run_measured` samples ``/proc`` every ``interval`` seconds for the descendants'
user + system time (the last sample of a process that exits is at most ``interval`` old) and
takes the command's own process from ``getrusage``, which is exact.
"""

from __future__ import annotations

import os
import resource
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Measured:
    wall: float  # seconds
    cpu: float  # seconds, user + system, the command and all its descendants
    peak_rss: int  # bytes, the largest process waited for
    load: float  # 1-minute load average when the command started


def _stat(pid: int) -> tuple[int, float] | None:
    """(parent pid, own user + system seconds) of a live process."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text.rpartition(")")[2].split()
    return int(fields[1]), (int(fields[11]) + int(fields[12])) / TICKS


def family_of(root: int, parents: dict[int, int]) -> set[int]:
    """``root`` and every process descending from it, from each process's parent (read from /proc)."""
    family, grown = {root}, True
    while grown:
        grown = False
        for pid, parent in parents.items():
            if parent in family and pid not in family:
                family.add(pid)
                grown = True
    return family


def run_measured(command: list[str], interval: float = 0.05) -> Measured:
    load = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    seen: dict[int, float] = {}  # descendants (not the command itself): last CPU seconds sampled
    while process.poll() is None:
        parents: dict[int, int] = {}
        times: dict[int, float] = {}
        for entry in os.listdir("/proc"):
            if entry.isdigit() and (stat := _stat(int(entry))) is not None:
                parents[int(entry)], times[int(entry)] = stat
        family = family_of(process.pid, parents)
        for pid in family - {process.pid}:
            seen[pid] = max(seen.get(pid, 0.0), times[pid])
        time.sleep(interval)
    wall = time.perf_counter() - started
    if process.returncode:
        raise subprocess.CalledProcessError(process.returncode, command)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    own = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Measured(wall, own + sum(seen.values()), after.ru_maxrss * 1024, load)
