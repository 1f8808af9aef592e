"""What the Sphinx extension (:mod:`hipporag.sphinx`) and the MkDocs plugin
(:mod:`hipporag.mkdocs`) share: their options, the config file's keys (docs/site.md,
"Configuration"), turned into ``hipporag site`` flags; the run of ``hipporag site`` on the
built site; and the tags that put the default UI into a page.

The binary is the one :func:`hipporag.find_binary` finds, run in the site's directory with the
``HIPPORAG_*`` and ``PAGEFIND_*`` variables removed (but ``HIPPORAG_MODEL_DIR``), as the Python
API runs it: a plugin's options are its config's, never the environment's.
"""

import html
import json
import os
import posixpath
import subprocess
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence

from ._binary import HipporagError, find_binary
from .index import _option_free_env

OUTPUT_DIR = "_hipporag"

# The config file's keys a plugin takes, each with its kind. `site` is the generator's output
# directory, and `serve`/`json` make no sense inside a build: they are errors naming the key.
OPTIONS: Dict[str, str] = {
    "glob": "string",
    "root_selector": "string",
    "exclude_selectors": "strings",
    "force_language": "string",
    "output_subdir": "string",
    "output_path": "path",
    "verbose": "boolean",
    "quiet": "boolean",
    "silent": "boolean",
    "exclude": "strings",
    "include_noindex": "boolean",
    "lang": "string",
    "encoder": "string",
    "model_weights": "string",
    "full_index": "boolean",
    "fragment_text_chars": "number",
    "no_static_embeddings": "boolean",
    "model": "path",
    "synonymy_threshold": "number",
    "pkg": "path",
    "ui": "path",
}
_REFUSED = {
    "site": "the plugin indexes the generator's output directory",
    "serve": "serve the built site with the generator's own server (or `hipporag site DIR --serve`)",
    "json": "the plugin reads no build report",
}


def version() -> str:
    """The installed hipporag wheel's version, else ``"unknown"`` (run from a source tree)."""
    try:
        from importlib.metadata import PackageNotFoundError, version as v

        return v("hipporag")
    except Exception:
        return "unknown"


def site_args(options: Optional[Mapping[str, Any]], base_dir: str) -> List[str]:
    """``hipporag site``'s flags for a plugin's ``options`` (relative paths are taken from
    ``base_dir``, the directory of conf.py or mkdocs.yml); raises :class:`HipporagError` naming
    every bad key or value."""
    args: List[str] = []
    errors: List[str] = []
    for name, value in (options or {}).items():
        if value is None:
            continue
        flag = "--" + name.replace("_", "-")
        kind = OPTIONS.get(name)
        if kind is None:
            if name in _REFUSED:
                errors.append(f"{name}: not an option of the plugin ({_REFUSED[name]})")
            else:
                near = name.replace("-", "_")
                hint = f' (did you mean "{near}"?)' if near in OPTIONS else ""
                errors.append(f"{name}: unknown option{hint}")
            continue
        if kind == "boolean":
            if not isinstance(value, bool):
                errors.append(f"{name}: expected true or false, got {value!r}")
            elif value:
                args.append(flag)
        elif kind == "string":
            if not isinstance(value, str) or value == "":
                errors.append(f"{name}: expected a string, got {value!r}")
            else:
                args += [flag, value]
        elif kind == "path":
            if not isinstance(value, (str, os.PathLike)) or os.fspath(value) == "":
                errors.append(f"{name}: expected a path, got {value!r}")
            else:
                args += [flag, os.path.join(base_dir, os.fspath(value))]
        elif kind == "number":
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                errors.append(f"{name}: expected a number, got {value!r}")
            else:
                args += [flag, str(value)]
        elif kind == "strings":
            if isinstance(value, str):
                value = [value]
            if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
                errors.append(f"{name}: expected a list of strings, got {value!r}")
            else:
                args += [a for v in value for a in (flag, v)]
    if errors:
        raise HipporagError("hipporag options: " + "; ".join(errors))
    return args


def output_dir(options: Optional[Mapping[str, Any]], site_dir: str, base_dir: str) -> str:
    """The search's directory relative to the site (``_hipporag`` unless ``output_subdir`` or
    ``output_path`` says otherwise), in URL form; raises when it is outside the site, where no
    page could load it."""
    options = options or {}
    if options.get("output_path"):
        path = os.path.join(base_dir, os.fspath(options["output_path"]))
        rel = os.path.relpath(path, site_dir)
        if rel == os.curdir or rel.startswith(os.pardir):
            raise HipporagError(f"output_path {path}: the plugin's search must be inside the site ({site_dir})")
        return rel.replace(os.sep, "/")
    return str(options.get("output_subdir") or OUTPUT_DIR).strip("/")


def run_site(site_dir: str, args: Sequence[str], log: Callable[[str], None]) -> None:
    """Runs ``hipporag site SITE_DIR ARGS`` in ``site_dir``; its log goes to this process's
    stderr. Raises :class:`HipporagError` when the binary is missing or fails."""
    binary = find_binary()
    site_dir = os.path.abspath(site_dir)
    cmd = [binary, "site", site_dir, *args]
    log("hipporag: " + " ".join(cmd))
    r = subprocess.run(cmd, cwd=site_dir, env=_option_free_env())
    if r.returncode != 0:
        raise HipporagError(f"hipporag site {site_dir} failed (exit status {r.returncode}): see its log above")


def ui_tags(rel_dir: str, out_dir: str = OUTPUT_DIR) -> str:
    """The two scripts that put the default UI into a page whose path to the search's directory
    is ``rel_dir`` (``../_hipporag``; ``out_dir`` is that directory below the site root): the first sets the API's ``baseUrl`` to the site's root
    (the directory the search's is in), so result links work wherever the site is served
    (``/``, ``/docs/en/latest/``…); the second is the UI, which renders into the page's
    ``[data-hipporag-search]`` and ``#hipporag-search`` elements."""
    d = rel_dir.rstrip("/")
    if not d.startswith(("./", "../", "/")) and d not in (".", ".."):
        d = "./" + d  # a module specifier: a bare one would be a package name
    site_js = json.dumps(d + "/hipporag-site.js")
    root = json.dumps(d + "/" + "../" * len([p for p in out_dir.split("/") if p]))
    body = (
        f"import {{ options }} from {site_js};"
        f" options({{ baseUrl: new URL({root}, document.baseURI).pathname }});"
    )
    return (
        f'<script type="module">{body}</script>\n'
        f'<script type="module" src="{html.escape(d + "/hipporag-ui.js", quote=True)}"></script>\n'
    )


def relative_dir(from_page_dir: str, site_rel_dir: str) -> str:
    """``site_rel_dir`` (a directory below the site root) relative to the directory of a page
    (``from_page_dir``, below the site root, ``""`` for the root), in URL form."""
    rel = posixpath.relpath(site_rel_dir, from_page_dir or ".")
    return rel
