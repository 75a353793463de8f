"""The one way every ``--out`` gets its place: missing folders are made; where the place cannot be
written (a folder where a file is named, a file where a folder must be, no permission) the request
is refused as a usage error (exit 2), before anything is written. A failure while writing (a full
disk) stays the file's, not the request's: :func:`written_whole` writes under a temporary name and
renames it, so that such a failure leaves no partial file (and an earlier file of that name as it was)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

from hhtool.service.errors import UsageError


def prepare_out_file(out_file: str | Path) -> Path:
    """``out_file`` with its missing folders made; UsageError where it cannot be written."""
    path = Path(out_file)
    if path.is_dir():
        raise UsageError(f"--out {out_file} is a folder: name a file")
    _writable_folder(path.parent, out_file)
    if path.exists() and not os.access(path, os.W_OK):
        raise UsageError(f"--out {out_file}: the file cannot be written (no permission)")
    return path


@contextlib.contextmanager
def written_whole(out_file: str | Path) -> Iterator[Path]:
    """A temporary name beside ``out_file`` (prepared by :func:`prepare_out_file`) to write to: renamed
    to ``out_file`` when the block ends, removed when it fails."""
    path = prepare_out_file(out_file)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.partial")
    try:  # made before anything is written: a place where no file can be made (/proc) is the request's fault
        os.close(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666))
    except OSError as error:
        raise UsageError(f"--out {out_file}: no file can be made in {path.parent}: "
                         f"{error.strerror or error}") from None
    try:
        yield temporary
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise


def prepare_out_folder(out_dir: str | Path) -> Path:
    """``out_dir`` made (with its missing parents); UsageError where it cannot be."""
    path = Path(out_dir)
    if path.exists() and not path.is_dir():
        raise UsageError(f"--out {out_dir} is a file: name a folder (or a file with the format's suffix)")
    _writable_folder(path, out_dir)
    return path


def _writable_folder(folder: Path, named: str | Path) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:  # a file is in the way (mkdir says "exists" of a file with the folder's name)
        raise UsageError(f"--out {named}: cannot make the folder {folder}: a file is in the way") from None
    except OSError as error:
        raise UsageError(f"--out {named}: cannot make the folder {folder}: {error.strerror or error}") from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise UsageError(f"--out {named}: the folder {folder} cannot be written (no permission)")


__all__ = ["prepare_out_file", "prepare_out_folder", "written_whole"]
