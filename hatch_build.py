"""The optional compiled build: a hatchling build hook that compiles hhtool's hot modules with mypyc.

``pip install .`` (and ``pip install -e .``) build pure Python, needing nothing but Python. With the
environment variable ``HHTOOL_COMPILE=1`` a regular (not editable) install also compiles the modules in
``COMPILED`` from the same source with mypyc into C extensions and puts them in the wheel beside the
``.py`` files (Python imports the extension first). pip installs mypy, setuptools and lark into the
isolated build environment for it (see :meth:`MypycBuildHook.dependencies`); a C compiler and the Python
headers must be present, else the hook says why on stderr and the wheel stays pure Python.

An editable install always stays pure Python: mypyc would write the extensions into the source tree,
where they would shadow every later edit of the ``.py`` files until rebuilt. ``hhtool --version`` says
which build runs (``hhtool.build()``).
"""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

#: site modules left interpreted: the package's discovery, mypyc's mark, and the XML sites (compiled, ElementTree's
#: parser crashed in their tree builder's start callback: a segmentation fault on every iPoker and Merge file)
INTERPRETED_SITE_MODULES = ("__init__.py", "kit/__init__.py", "kit/subclassing.py", "kit/xmlsupport.py", "ipoker.py",
                            "merge.py")
#: the site modules compiled: the line driver, the builder and every line site's readers, which build the model's
#: objects (native classes, fast only when built by compiled code). Interpreted code may subclass their parsers
#: (``allow_interpreted_subclasses``: the XML sites' and the tests' variants).
_SITES = Path(__file__).resolve().parent / "hhtool" / "sites"
SITE_MODULES = sorted(f"hhtool/sites/{path.relative_to(_SITES).as_posix()}"
                      for path in [*_SITES.glob("*.py"), *_SITES.glob("kit/*.py")]
                      if path.relative_to(_SITES).as_posix() not in INTERPRETED_SITE_MODULES)
#: the modules compiled: the model, the replay (every rule check, the pots, the evaluator) and the sites, the
#: per-line and per-action loops of an import. None of their classes is subclassed outside them (mypyc's
#: native classes cannot be subclassed by interpreted code) but the site parsers, which allow it.
COMPILED = ["hhtool/model.py", "hhtool/evaluation.py", "hhtool/replay", *SITE_MODULES]
#: what the compilation needs in the build environment (lark: lines.py's types)
COMPILE_REQUIRES = ["mypy>=1.11", "setuptools>=68", "lark>=1.2"]


def compile_requested() -> bool:
    return os.environ.get("HHTOOL_COMPILE", "").strip().lower() in ("1", "true", "yes")


def why_not_compilable() -> str | None:
    """Why this machine cannot compile the extensions (None when it can)."""
    try:
        import mypyc.build  # noqa: F401
        import setuptools  # noqa: F401
    except ImportError as error:
        return f"{error.name} is not installed in the build environment"
    compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]  # as setuptools chooses
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler}) on PATH"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").is_file():
        return "the Python headers (Python.h) are not installed"
    return None


class MypycBuildHook(BuildHookInterface):
    PLUGIN_NAME = "mypyc"

    def dependencies(self) -> list[str]:
        return list(COMPILE_REQUIRES) if compile_requested() else []

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or not compile_requested():
            return
        if version == "editable":
            print("hhtool: HHTOOL_COMPILE is ignored for an editable install (the extensions would shadow the "
                  "sources); building pure Python. Install with `pip install .` for the compiled build.", file=sys.stderr)
            return
        reason = why_not_compilable()
        if reason is not None:
            print(f"hhtool: cannot compile with mypyc ({reason}); building pure Python", file=sys.stderr)
            return
        self._work = Path(tempfile.mkdtemp(prefix="hhtool-mypyc-"))
        for built, inside in self._compile(self._work).items():
            build_data["force_include"][built] = inside
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        work = getattr(self, "_work", None)
        if work is not None:
            shutil.rmtree(work, ignore_errors=True)

    def _compile(self, work: Path) -> dict[str, str]:
        """Compile ``COMPILED`` into ``work``; {extension file: its path inside the wheel}."""
        from mypyc.build import mypycify
        from setuptools import Distribution

        here = Path.cwd()
        os.chdir(self.root)  # mypyc names modules by their paths from the project root
        try:
            extensions = mypycify(COMPILED, opt_level="3", group_name="hhtool", target_dir=str(work / "c"))
            distribution = Distribution({"name": "hhtool", "ext_modules": extensions})
            command = distribution.get_command_obj("build_ext")
            command.build_lib = str(work / "lib")
            command.build_temp = str(work / "temp")
            distribution.run_command("build_ext")
        finally:
            os.chdir(here)
        suffixes = (".so", ".pyd")
        return {str(path): path.relative_to(work / "lib").as_posix()
                for path in sorted((work / "lib").rglob("*")) if path.suffix in suffixes}
