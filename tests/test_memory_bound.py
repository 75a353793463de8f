"""Peak memory of an import does not grow with the input (README, "What an import promises").

A generated iPoker XML session and a gzip-compressed PokerStars file of 60 MB each are imported by
the real command in a child process, whose peak resident memory is read from the OS; the bounds
sit between what these inputs took when read whole and what they take streamed (LIMITS). Not a timing
test: it runs in CI with the suite; marked ``memory`` so that it can be selected or left out
(``-m "not memory"``).
"""

from __future__ import annotations

import contextlib
import gzip
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from benchmarks.cputime import family_of
from tests.inputs import SAMPLES

SIZE = 60 << 20
#: (DuckDB's buffer, peak RSS bound in MiB). Measured on these inputs: the XML file 446 MiB streamed
#: against 759 MiB read whole, with DuckDB capped at 256 MiB (the .gz runs out of DuckDB memory there);
#: the .gz 657 MiB streamed against 871 MiB read whole, with the default 512 MiB.
LIMITS = {"ipoker-xml": ("256MiB", 600), "pokerstars-gz": ("512MiB", 780)}


def _ipoker_session(path: Path, size: int) -> int:
    """The sample session's first game repeated with new game codes until the file has ``size`` bytes."""
    data = (SAMPLES / "ipoker" / "7-StudHL-EUR-0.05-0.10-sample-session.xml").read_bytes()
    start, end = data.index(b"<game "), data.rindex(b"</game>") + len(b"</game>")
    game = data[start:data.index(b"</game>", start) + len(b"</game>")]
    games = 0
    with path.open("wb") as out:
        written = out.write(data[:start])
        while written < size:
            written += out.write(re.sub(rb'gamecode="\d+"', b'gamecode="%d"' % (8_000_000_000 + games), game) + b"\n")
            games += 1
        out.write(data[end:])
    return games


def _stars_gz(path: Path, size: int) -> int:
    text = (SAMPLES / "pokerstars" / "simulated-seed1.txt").read_text(encoding="utf-8")
    hands = len(re.findall(r"^PokerStars Hand #", text, re.M))
    copies, written = 0, 0
    with gzip.open(path, "wt", encoding="utf-8", compresslevel=1) as out:
        while written < size:
            written += out.write(re.sub(r"Hand #(\d+)", rf"Hand #{copies + 1}\1", text) + "\n")
            copies += 1
    return copies * hands


_MEASURE = """
import resource, subprocess, sys
done = subprocess.run(sys.argv[1:], capture_output=True, text=True)
sys.stdout.write(done.stdout + done.stderr)
print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


@pytest.mark.slow
@pytest.mark.memory
@pytest.mark.parametrize("kind", ["ipoker-xml", "pokerstars-gz"])
def test_peak_memory_of_an_import_stays_under_the_bound(kind: str, tmp_path: Path) -> None:
    if kind == "ipoker-xml":
        source = tmp_path / "big-session.xml"
        hands = _ipoker_session(source, SIZE)
    else:
        source = tmp_path / "big-stars.txt.gz"
        hands = _stars_gz(source, SIZE)
    command = [sys.executable, "-m", "hhtool", "import", "--db", str(tmp_path / "store.duckdb"), "--jobs", "1",
               str(source)]
    duckdb_memory, bound_mib = LIMITS[kind]
    env = {**os.environ, "HHTOOL_IMPORT_MEMORY": duckdb_memory}
    done = subprocess.run([sys.executable, "-c", _MEASURE, *command], capture_output=True, text=True, env=env,
                          timeout=1800, check=True)
    returncode, peak_kib = map(int, done.stdout.splitlines()[-1].split())
    assert returncode == 0, done.stdout
    assert f"{hands} hands found = {hands} stored" in done.stdout, done.stdout
    assert peak_kib / 1024 < bound_mib, f"peak RSS {peak_kib / 1024:.0f} MiB"


#: simulated hands making a 31 MB file, just under the size from which files used to be streamed
#: (32 MB), where an import's process tree with two jobs took 1.06-1.13 GiB (#28, item 11); streamed
#: in chunks of 1,000 hands, 0.89 GiB; with the facts left until the workers stop, 700 MiB. The
#: bound is under the promise (1 GiB for any input) by what a 200 MB file adds (807 MiB measured)
TREE_HANDS = 18_000
TREE_BOUND_MIB = 850


def _tree_rss(root: int) -> int:
    """Resident KiB of ``root`` and all its descendants (a forkserver pool's workers are the
    forkserver's children, not the importing process's), counted from /proc."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):  # (a process that just ended)
                parents[int(entry)] = int(Path(f"/proc/{entry}/stat").read_text().rpartition(")")[2].split()[1])
    total = 0
    for pid in family_of(root, parents):
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        total += next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:")), 0)
    return total


@pytest.mark.slow
@pytest.mark.memory
@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the process tree from /proc (Linux)")
def test_the_process_tree_of_a_two_job_import_stays_under_1_gib(tmp_path: Path) -> None:
    """The importing process and its pool together (every process's resident memory summed, sampled
    every 50 ms: shared pages count once per process, so the bound is on the safe side)."""
    source = tmp_path / "big-stars.txt"
    subprocess.run([sys.executable, "-m", "hhtool", "simulate", "--hands", str(TREE_HANDS), "--seed", "5", "--out",
                    str(source)], capture_output=True, check=True, timeout=600)
    hands = TREE_HANDS
    command = [sys.executable, "-m", "hhtool", "import", "--db", str(tmp_path / "store.duckdb"), "--jobs", "2",
               str(source)]
    peak = 0
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          env={**os.environ, "HHTOOL_PROGRESS": "off"}) as process:
        while process.poll() is None:
            peak = max(peak, _tree_rss(process.pid))
            time.sleep(0.05)
        output = process.stdout.read() if process.stdout else ""
    assert process.returncode == 0, output
    assert f"{hands} hands found = {hands} stored" in output, output
    assert peak / 1024 < TREE_BOUND_MIB, f"peak RSS of the process tree {peak / 1024:.0f} MiB"
