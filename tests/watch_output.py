"""The lines a running `import --watch` prints, read as they come (without their line breaks), for
the tests that drive a watch: ``wait_for`` blocks until a line holds a text, ``wait_for_whole`` until a
pass has read a file to its end (no fixed sleep: a loaded machine is slower)."""

from __future__ import annotations

import re
import subprocess
import threading
import time
from collections.abc import Callable


class WatchOutput:
    def __init__(self, process: subprocess.Popen[str]) -> None:
        self.lines: list[str] = []
        self.changed = threading.Condition()
        self.thread = threading.Thread(target=self._read, args=(process,), daemon=True)
        self.thread.start()

    def _read(self, process: subprocess.Popen[str]) -> None:
        assert process.stdout is not None
        for line in process.stdout:
            with self.changed:
                self.lines.append(line.rstrip("\n"))
                self.changed.notify_all()

    def wait_for(self, text: str, timeout: float = 90) -> None:
        self._wait(lambda line: text in line, timeout, f"no line with {text!r}")

    def wait_for_whole(self, name: str, hands: int, timeout: float = 60) -> None:
        """Until a pass reports ``name`` read to its end holding ``hands`` hands, none cut off mid-line
        (a grown file's line names the file's total; a new file's, its hands found)."""
        pattern = re.compile(rf"{re.escape(name)}: (\d+) hands found = .* \+ 0 incomplete(?: \((\d+) in the file\))?$")

        def whole(line: str) -> bool:
            found = pattern.search(line)
            return found is not None and int(found[2] or found[1]) == hands

        self._wait(whole, timeout, f"no pass read {name} whole with {hands} hands")

    def _wait(self, matches: Callable[[str], bool], timeout: float, failure: str) -> None:
        deadline = time.monotonic() + timeout
        with self.changed:
            while not any(matches(line) for line in self.lines):
                left = deadline - time.monotonic()
                assert left > 0, f"{failure}: {self.lines}"
                self.changed.wait(left)
