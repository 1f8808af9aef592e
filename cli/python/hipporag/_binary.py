"""Where the ``hipporag`` binary is: ``$HIPPORAG_BINARY`` when set, else the one the wheel
installed beside this package (the scripts directory of the install scheme whose library
directory holds it: a venv's ``bin/``, ``~/.local/bin`` for ``pip install --user``,
``/usr/local/bin``), else ``hipporag`` on ``PATH``. The binary finds the model wheel's files
in ``../share/hipporag/`` from its own directory, so nothing else is set."""

import os
import shutil
import sys
import sysconfig
from typing import Iterator


class HipporagError(Exception):
    """A call of the hipporag API failed; the message says why."""


_EXE = "hipporag.exe" if os.name == "nt" else "hipporag"


def _inside(path: str, directory: str) -> bool:
    path, directory = os.path.realpath(path), os.path.realpath(directory)
    return path == directory or path.startswith(directory.rstrip(os.sep) + os.sep)


def _scripts_dirs() -> Iterator[str]:
    here = os.path.dirname(os.path.abspath(__file__))
    for scheme in sysconfig.get_scheme_names():
        try:
            paths = sysconfig.get_paths(scheme)
        except (KeyError, ValueError):
            continue
        if any(paths.get(k) and _inside(here, paths[k]) for k in ("purelib", "platlib")):
            yield paths["scripts"]
    yield sysconfig.get_path("scripts")
    yield os.path.dirname(sys.executable)


def find_binary() -> str:
    """The path of the ``hipporag`` binary to run, or raises :class:`HipporagError`."""
    override = os.environ.get("HIPPORAG_BINARY")
    if override:
        path = os.path.abspath(override)
        if not os.path.isfile(path):
            raise HipporagError(f"HIPPORAG_BINARY: {path} does not exist")
        return path
    for d in _scripts_dirs():
        path = os.path.join(d, _EXE)
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    found = shutil.which("hipporag")
    if found:
        return found
    raise HipporagError(
        "no hipporag binary: the hipporag wheel installs one beside Python's scripts "
        "(pip install hipporag); or set HIPPORAG_BINARY to a hipporag binary"
    )
