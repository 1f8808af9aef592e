"""An index built from pages given one by one, shaped like Pagefind's Python API
(``pagefind.index``): ``async with IndexAsync(config) as index:``, then ``add_html_file``,
``add_custom_record``, ``add_directory``, ``get_files``, ``write_files``, ``delete_index``.

It drives the installed ``hipporag`` binary, so the same pages give the same bytes as
``hipporag site``: each index is a temporary site directory. ``add_html_file`` writes a page
at the path its URL maps to (``/a/b/`` → ``a/b/index.html``), ``add_directory`` copies a
directory's pages in, ``add_custom_record`` writes a small HTML page carrying the record's
meta, filters and sort as Pagefind's ``data-pagefind-*`` attributes; ``get_files`` and
``write_files`` run ``hipporag site <dir> --json`` once per change and read or copy its
``_hipporag/``. A failure raises :class:`HipporagError` naming what failed.
"""

import asyncio
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import uuid
from urllib.parse import unquote
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, TypedDict, Union

from ._binary import HipporagError, find_binary

__all__ = ["IndexAsync", "IndexConfig", "HipporagError"]

OUTPUT_DIR = "_hipporag"
ENTRY_FILE = "hipporag-entry.json"
_PAGE_NAME = re.compile(r"\.(html|htm|md)$")
DEFAULT_GLOB = "**/*.{html,htm,md}"
_RESERVED_FILTER_KEYS = {"any", "all", "none", "not"}


class IndexConfig(TypedDict, total=False):
    """The options of an index: Pagefind's where they mean the same, and ``hipporag site``'s
    own flags by the snake_case of their name. An unknown or unsupported option raises
    :class:`HipporagError` naming it."""

    root_selector: str
    """``--root-selector`` when the binary has that flag, else an error."""
    exclude_selectors: Sequence[str]
    """``--exclude-selectors`` when the binary has that flag, else an error."""
    force_language: str
    """``--force-language`` when the binary has that flag, else an error."""
    verbose: bool
    """The build's log at info level rather than warnings only (to ``logfile``, else stderr)."""
    logfile: str
    """A file the build's log is written to; emptied when the index opens."""
    keep_index_url: bool
    """``True`` only: hipporag keeps ``index.html`` in its URLs."""
    write_playground: bool
    """``False`` only: hipporag has no playground."""
    output_path: str
    """Where closing the context (and ``write_files()``) writes the bundle; default
    ``_hipporag`` in the working directory."""
    lang: str
    """``--lang``: the language of pages without an ``<html lang>`` (default ``en``)."""
    exclude: Sequence[str]
    """``--exclude``: leave out pages whose path in the site matches one of these globs."""
    include_noindex: bool
    """``--include-noindex``."""
    full_index: bool
    """``--full-index``: also write the single-file index."""
    no_static_embeddings: bool
    """``--no-static-embeddings``: no static word embeddings; the build then needs no model."""
    model: str
    """``--model``: the all-MiniLM-L6-v2 directory."""
    encoder: str
    """``--encoder``: ``hashed`` (default) or ``minilm``."""
    model_weights: str
    """``--model-weights``: ``int8`` (default) or ``f32``."""
    fragment_text_chars: int
    """``--fragment-text-chars``."""
    synonymy_threshold: float
    """``--synonymy-threshold``."""


# hipporag site's own options: flag and kind.
_SITE_OPTIONS = {
    "lang": ("--lang", "string"),
    "exclude": ("--exclude", "strings"),
    "include_noindex": ("--include-noindex", "boolean"),
    "full_index": ("--full-index", "boolean"),
    "no_static_embeddings": ("--no-static-embeddings", "boolean"),
    "model": ("--model", "path"),
    "encoder": ("--encoder", "string"),
    "model_weights": ("--model-weights", "string"),
    "fragment_text_chars": ("--fragment-text-chars", "number"),
    "synonymy_threshold": ("--synonymy-threshold", "number"),
}
# Pagefind's options that become a flag of hipporag site when the binary has it.
_PAGEFIND_FLAG_OPTIONS = {
    "root_selector": ("--root-selector", "string"),
    "exclude_selectors": ("--exclude-selectors", "strings"),
    "force_language": ("--force-language", "string"),
}
_API_OPTIONS = {
    "verbose": "boolean",
    "logfile": "path",
    "keep_index_url": "boolean",
    "write_playground": "boolean",
    "output_path": "path",
}
_site_help: Dict[str, str] = {}


def _flag_args(name: str, flag: str, kind: str, value: Any) -> List[str]:
    def bad(want: str) -> HipporagError:
        return HipporagError(f"{name}: expected {want}, got {value!r}")

    if kind == "boolean":
        if not isinstance(value, bool):
            raise bad("True or False")
        return [flag] if value else []
    if kind == "string":
        if not isinstance(value, str):
            raise bad("a string")
        return [flag, value]
    if kind == "path":
        if not isinstance(value, (str, os.PathLike)) or str(value) == "":
            raise bad("a path")
        return [flag, os.path.abspath(value)]
    if kind == "number":
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise bad("a number")
        return [flag, repr(value) if isinstance(value, float) else str(value)]
    if kind == "strings":
        if isinstance(value, str) or not all(isinstance(v, str) for v in value):
            raise bad("a list of strings")
        return [a for v in value for a in (flag, v)]
    raise AssertionError(kind)


def _read_config(config: Optional[Mapping[str, Any]], binary: str) -> Tuple[List[str], Dict[str, Any]]:
    """hipporag site's flags and the API's settings; raises naming every bad option."""
    flags: List[str] = []
    settings: Dict[str, Any] = {"verbose": False, "logfile": None, "output_path": None}
    errors: List[str] = []
    for name, value in (config or {}).items():
        if value is None:
            continue
        try:
            if name in _SITE_OPTIONS:
                flags += _flag_args(name, *_SITE_OPTIONS[name], value)
            elif name in _PAGEFIND_FLAG_OPTIONS:
                flag, kind = _PAGEFIND_FLAG_OPTIONS[name]
                args = _flag_args(name, flag, kind, value)
                if flag not in _help_of(binary):
                    raise HipporagError(f"{name}: not supported by this hipporag (its `hipporag site` has no {flag})")
                flags += args
            elif name in _API_OPTIONS:
                _flag_args(name, "", _API_OPTIONS[name], value)
                if name == "keep_index_url" and value is False:
                    raise HipporagError(
                        "keep_index_url: False is not supported: hipporag keeps index.html in its URLs "
                        "(a page's URL is its file's path in the site)"
                    )
                if name == "write_playground" and value is True:
                    raise HipporagError("write_playground: not supported: hipporag has no playground")
                if name in ("verbose",):
                    settings[name] = value
                if name in ("logfile", "output_path"):
                    settings[name] = os.path.abspath(value)
            else:
                raise HipporagError(f"{name}: unknown option")
        except HipporagError as e:
            errors.append(str(e))
    if errors:
        raise HipporagError("; ".join(errors))
    return flags, settings


def _option_free_env() -> Dict[str, str]:
    """This process's environment without the variables ``hipporag site`` reads as options
    (``HIPPORAG_*`` but ``HIPPORAG_MODEL_DIR``, ``PAGEFIND_*``): an index's options are its
    config's."""
    return {
        k: v
        for k, v in os.environ.items()
        if k == "HIPPORAG_MODEL_DIR" or not re.match(r"(HIPPORAG|PAGEFIND)_", k, re.I)
    }


def _help_of(binary: str) -> str:
    if binary not in _site_help:
        r = subprocess.run(
            [binary, "site", "--help"],
            capture_output=True,
            text=True,
            cwd=tempfile.gettempdir(),
            env=_option_free_env(),
        )
        _site_help[binary] = r.stdout
    return _site_help[binary]


def _check_page_path(rel: str, what: str) -> str:
    parts = rel.split("/")
    if "\\" in rel or "\0" in rel:
        raise HipporagError(f"{what}: a page path may not hold \\ or NUL")
    if any(p in ("", ".", "..") for p in parts):
        raise HipporagError(f"{what}: not a path below the site ({rel})")
    if any(_skipped(p) for p in parts[:-1]):
        raise HipporagError(f"{what}: {rel} is inside a directory hipporag site skips")
    if not _PAGE_NAME.search(rel):
        raise HipporagError(f"{what}: {rel} is not a page name (*.html, *.htm or *.md)")
    return rel


def _skipped(name: str) -> bool:
    return name in (OUTPUT_DIR, ".hipporag-cache") or name.startswith(".hipporag-tmp")


def _path_of_url(url: Any) -> str:
    """The page path a URL maps to, Pagefind's way: ``/a/b/`` → ``a/b/index.html``."""
    if not isinstance(url, str) or url == "":
        raise HipporagError("url: expected a path such as /about/ or /about.html")
    if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", url) or url.startswith("//"):
        raise HipporagError(
            f"url {url}: give the page's path in the site (/about/): hipporag records each page at its path, without an origin"
        )
    try:
        p = unquote(re.sub(r"[?#].*$", "", url, flags=re.S), errors="strict")
    except UnicodeDecodeError:
        raise HipporagError(f"url {url}: malformed percent-encoding") from None
    if not p.startswith("/"):
        p = "/" + p
    last = p[p.rfind("/") + 1 :]
    if p.endswith("/"):
        p += "index.html"
    elif "." not in last:
        p += "/index.html"
    elif not re.search(r"\.html?$", last):
        raise HipporagError(
            f"url {url}: hipporag records a page at its file's path in the site, so its URL ends in /, .html "
            "or .htm (or has no extension: /about → about/index.html)"
        )
    return _check_page_path(p[1:], f"url {url}")


def _path_of_source(source_path: Any) -> str:
    if not isinstance(source_path, (str, os.PathLike)) or str(source_path) == "":
        raise HipporagError("source_path: expected a path such as about/index.html")
    rel = os.fspath(source_path)
    if os.path.isabs(rel):
        rel = os.path.relpath(rel, os.getcwd())
        if rel.startswith(".."):
            raise HipporagError(f"source_path {source_path}: not inside the working directory {os.getcwd()}")
    rel = re.sub(r"^(\./)+", "", rel.replace(os.sep, "/"))
    return _check_page_path(rel, f"source_path {source_path}")


def _url_of_path(rel: str) -> str:
    return "/" + (rel[:-3] + ".html" if rel.endswith(".md") else rel)


def _glob_regex(glob: str) -> "re.Pattern[str]":
    """A glob (``**``, ``*``, ``?``, ``{a,b}``, ``[…]``) over ``/``-separated relative paths."""
    out, braces, i = "", 0, 0
    while i < len(glob):
        c = glob[i]
        if glob.startswith("**", i):
            if glob.startswith("**/", i):
                out, i = out + "(?:.*/)?", i + 3
            else:
                out, i = out + ".*", i + 2
            continue
        if c == "*":
            out += "[^/]*"
        elif c == "?":
            out += "[^/]"
        elif c == "{":
            braces, out = braces + 1, out + "(?:"
        elif c == "}" and braces:
            braces, out = braces - 1, out + ")"
        elif c == "," and braces:
            out += "|"
        elif c == "[":
            end = glob.find("]", i + 2)
            if end < 0:
                raise HipporagError(f"glob {glob}: unclosed [")
            chars = glob[i + 1 : end]
            if chars.startswith("!"):
                chars = "^" + chars[1:]
            out += "[" + chars.replace("\\", "\\\\") + "]"
            i = end
        else:
            out += re.escape(c)
        i += 1
    if braces:
        raise HipporagError(f"glob {glob}: unclosed {{")
    return re.compile(out + r"\Z", re.S)


def _walk(root: str) -> List[Tuple[str, str]]:
    """Files below ROOT (relative ``/``-separated path, real path), sorted, skipping what
    ``hipporag site`` skips; a link to a file inside ROOT is followed, as it reads one."""
    real_root = os.path.realpath(root)
    out: List[Tuple[str, str]] = []

    def visit(d: str, rel: str) -> None:
        with os.scandir(d) as it:
            entries = sorted(it, key=lambda e: e.name.encode("utf-8", "surrogateescape"))
        for e in entries:
            r = f"{rel}/{e.name}" if rel else e.name
            if e.is_symlink():
                target = os.path.realpath(e.path)
                if _inside_dir(target, real_root) and os.path.isfile(target):
                    out.append((r, target))
            elif e.is_dir():
                if not _skipped(e.name):
                    visit(e.path, r)
            elif e.is_file():
                out.append((r, e.path))

    visit(root, "")
    return out


def _inside_dir(path: str, directory: str) -> bool:
    return path.startswith(directory.rstrip(os.sep) + os.sep)


def _check_key(kind: str, key: Any) -> None:
    if not isinstance(key, str) or key == "" or re.search(r"[:,\[\]]", key) or key.strip() != key:
        raise HipporagError(
            f'{kind} key {key!r}: a key may not be empty, hold ":", ",", "[" or "]", or start or end with a space'
        )
    if kind == "filters" and key in _RESERVED_FILTER_KEYS:
        raise HipporagError(f"filters key {key}: reserved by the filter syntax (any, all, none, not)")


def _custom_record_html(
    content: Any,
    language: Any,
    meta: Optional[Mapping[str, str]],
    filters: Optional[Mapping[str, Sequence[str]]],
    sort: Optional[Mapping[str, str]],
) -> str:
    if not isinstance(content, str):
        raise HipporagError("content: expected a string")
    if not isinstance(language, str) or not re.fullmatch(r"[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*", language):
        raise HipporagError(f"language: expected a language code such as en or pt-BR, got {language!r}")
    tags: List[str] = []

    def capture(attr: str, key: str, value: str) -> None:
        tags.append(f'<meta {attr}="{html.escape(f"{key}:{value}", quote=True)}">')

    for key, value in (meta or {}).items():
        _check_key("meta", key)
        if not isinstance(value, str):
            raise HipporagError(f"meta {key}: expected a string")
        capture("data-pagefind-meta", key, value)
    for key, values in (filters or {}).items():
        _check_key("filters", key)
        if isinstance(values, str) or not all(isinstance(v, str) for v in values):
            raise HipporagError(f"filters {key}: expected a list of strings")
        for v in values:
            capture("data-pagefind-filter", key, v)
    for key, value in (sort or {}).items():
        _check_key("sort", key)
        if not isinstance(value, str):
            raise HipporagError(f'sort {key}: expected a string (as Pagefind: "20", not 20)')
        capture("data-pagefind-sort", key, value)
    title = meta.get("title") if meta else None
    head_title = f"<title>{html.escape(title)}</title>" if isinstance(title, str) else ""
    paragraphs = [f"<p>{html.escape(p.strip())}</p>" for p in re.split(r"\n\s*\n", content) if p.strip()]
    return "\n".join(
        [
            "<!DOCTYPE html>",
            f'<html lang="{html.escape(language, quote=True)}">',
            f'<head><meta charset="utf-8">{head_title}',
            *tags,
            "</head>",
            "<body><main>",
            *paragraphs,
            "</main></body>",
            "</html>",
            "",
        ]
    )


class IndexAsync:
    """An index pages are added to, as an async context manager.

    Entering the context creates the index (a temporary site directory); leaving it without an
    exception writes the bundle to ``output_path`` (unless :meth:`delete_index` was called),
    and always removes the temporary directory. Calls on one index run one after another.
    """

    def __init__(self, config: Optional[IndexConfig] = None) -> None:
        self._binary = find_binary()
        self._flags, self._settings = _read_config(config, self._binary)
        self._dir: Optional[str] = None
        self._deleted = False
        self._built = False
        self._lock: Optional[asyncio.Lock] = None
        self.report: Optional[Dict[str, Any]] = None
        """The last build's report (``hipporag site --json``)."""

    async def __aenter__(self) -> "IndexAsync":
        if self._dir is not None:
            raise HipporagError("this index is open already")
        if self._settings["logfile"]:
            open(self._settings["logfile"], "w").close()
        self._dir = tempfile.mkdtemp(prefix="hipporag-index-")
        self._lock = asyncio.Lock()
        return self

    async def __aexit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        try:
            if exc_type is None and not self._deleted:
                await self.write_files()
        finally:
            self._remove()

    def _remove(self) -> None:
        self._deleted = True
        if self._dir is not None:
            shutil.rmtree(self._dir, ignore_errors=True)

    def _open_dir(self, name: str) -> str:
        if self._deleted:
            raise HipporagError(f"{name}: this index was deleted")
        if self._dir is None or self._lock is None:
            raise HipporagError(f"{name}: the index is not open (async with IndexAsync(...) as index)")
        return self._dir

    def _write_page(self, rel: str, content: Union[str, bytes]) -> None:
        path = os.path.join(self._open_dir("write"), *rel.split("/"))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(content.encode("utf-8") if isinstance(content, str) else content)
        self._built = False

    async def add_html_file(
        self,
        *,
        content: Union[str, bytes],
        source_path: Optional[str] = None,
        url: Optional[str] = None,
    ) -> Dict[str, Any]:
        """Adds an HTML page that is not on disk, at the path its ``url`` maps to (``/a/b/`` and
        ``/a/b`` → ``a/b/index.html``, ``/a/b.html`` → itself) or at ``source_path`` (relative
        to the site, or absolute inside the working directory). Returns ``{"url": …,
        "source_path": …}``: the URL the index records (the file's path, as ``hipporag site``
        records it) and the page's path in the site."""
        self._open_dir("add_html_file")
        assert self._lock is not None
        async with self._lock:
            if not isinstance(content, (str, bytes)):
                raise HipporagError("add_html_file: content: expected the page's HTML as str or bytes")
            if (url is None) == (source_path is None):
                raise HipporagError("add_html_file: give url or source_path (one of them)")
            try:
                rel = _path_of_url(url) if url is not None else _path_of_source(source_path)
            except HipporagError as e:
                raise HipporagError(f"add_html_file: {e}") from None
            self._write_page(rel, content)
            return {"url": _url_of_path(rel), "source_path": rel}

    async def add_custom_record(
        self,
        *,
        url: str,
        content: str,
        language: str,
        meta: Optional[Dict[str, str]] = None,
        filters: Optional[Dict[str, List[str]]] = None,
        sort: Optional[Dict[str, str]] = None,
    ) -> Dict[str, Any]:
        """Adds a record that is not an HTML page: a page at the path ``url`` maps to, in
        ``language``, its ``content`` as paragraphs (split at blank lines), its ``meta``,
        ``filters`` and ``sort`` as ``data-pagefind-meta``/``-filter``/``-sort`` captures (a key
        may not hold ``:``, ``,`` or ``[``; values are strings, ``"20"`` and not ``20``)."""
        self._open_dir("add_custom_record")
        assert self._lock is not None
        async with self._lock:
            try:
                rel = _path_of_url(url)
                if rel.endswith(".md"):
                    raise HipporagError(f"url {url}: a custom record is HTML")
                page = _custom_record_html(content, language, meta, filters, sort)
            except HipporagError as e:
                raise HipporagError(f"add_custom_record: {e}") from None
            self._write_page(rel, page)
            return {"url": _url_of_path(rel), "source_path": rel, "meta": dict(meta or {})}

    async def add_directory(self, path: str, *, glob: Optional[str] = None) -> Dict[str, int]:
        """Adds the pages of a directory on disk (copied now), those whose path below it
        matches ``glob`` (default ``**/*.{html,htm,md}``: every page ``hipporag site`` reads).
        Returns ``{"page_count": n}``."""
        site = self._open_dir("add_directory")
        assert self._lock is not None
        async with self._lock:
            root = os.path.abspath(path)
            if not os.path.isdir(root):
                raise HipporagError(f"add_directory: {root} is not a directory")
            pattern = _glob_regex(glob if glob is not None else DEFAULT_GLOB)

            def copy() -> int:
                n = 0
                for rel, src in _walk(root):
                    if not pattern.match(rel) or not _PAGE_NAME.search(rel):
                        continue
                    to = os.path.join(site, *rel.split("/"))
                    os.makedirs(os.path.dirname(to), exist_ok=True)
                    shutil.copyfile(src, to)
                    n += 1
                return n

            count = await asyncio.get_running_loop().run_in_executor(None, copy)
            if count:
                self._built = False
            return {"page_count": count}

    async def _build(self) -> None:
        """``hipporag site`` on the pages, unless ``_hipporag/`` is their build already."""
        site = self._open_dir("build")
        if self._built:
            return
        env = _option_free_env()
        if "RUST_LOG" not in env:
            env["RUST_LOG"] = "info" if self._settings["verbose"] else "warn"
        verbose = ["--verbose"] if self._settings["verbose"] and "--verbose" in _help_of(self._binary) else []
        # In the index's directory, which holds no config file (hipporag.toml, pagefind.yml, …).
        proc = await asyncio.create_subprocess_exec(
            self._binary,
            "site",
            site,
            "--json",
            *verbose,
            *self._flags,
            cwd=site,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=env,
        )
        try:
            stdout, stderr = await proc.communicate()
        except BaseException:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
            raise
        log = stderr.decode("utf-8", "replace")
        if self._settings["logfile"]:
            with open(self._settings["logfile"], "a", encoding="utf-8") as f:
                f.write(log)
        elif self._settings["verbose"]:
            sys.stderr.write(log)
        if proc.returncode != 0:
            tail = "\n".join(log.strip().split("\n")[-20:])
            raise HipporagError(f"hipporag site failed (exit {proc.returncode}):\n{tail}")
        self.report = json.loads(stdout)
        self._built = True

    async def get_files(self) -> List[Dict[str, Any]]:
        """Builds the index (once per change); every file of the bundle as ``{"path": …,
        "content": bytes}``, by path relative to it, sorted."""
        self._open_dir("get_files")
        assert self._lock is not None
        async with self._lock:
            await self._build()
            out = os.path.join(self._open_dir("get_files"), OUTPUT_DIR)

            def read() -> List[Dict[str, Any]]:
                files = []
                for rel, path in _walk(out):
                    with open(path, "rb") as f:
                        files.append({"path": rel, "content": f.read()})
                return files

            return await asyncio.get_running_loop().run_in_executor(None, read)

    async def write_files(self, output_path: Optional[str] = None) -> str:
        """Builds the index (once per change) and writes the bundle to ``output_path`` (else the
        config's, else ``_hipporag`` in the working directory), replacing a previous bundle
        there; a directory that is not empty and holds no ``hipporag-entry.json`` is left as it
        is (an error). Returns the absolute path written."""
        site = self._open_dir("write_files")
        assert self._lock is not None
        async with self._lock:
            dest = os.path.abspath(output_path or self._settings["output_path"] or OUTPUT_DIR)
            if os.path.exists(dest):
                if not os.path.isdir(dest):
                    raise HipporagError(f"write_files: {dest} exists and is not a directory")
                names = os.listdir(dest)
                if names and ENTRY_FILE not in names:
                    raise HipporagError(
                        f"write_files: {dest} is not empty and holds no {ENTRY_FILE}: not a hipporag bundle, left as it is"
                    )
            await self._build()

            def copy() -> None:
                parent = os.path.dirname(dest)
                os.makedirs(parent, exist_ok=True)
                fresh = os.path.join(parent, f".hipporag-tmp-{os.path.basename(dest)}-{uuid.uuid4().hex}")
                old = fresh + "-old"
                try:
                    shutil.copytree(os.path.join(site, OUTPUT_DIR), fresh)
                    existed = os.path.exists(dest)
                    if existed:
                        os.rename(dest, old)
                    os.rename(fresh, dest)
                finally:
                    shutil.rmtree(fresh, ignore_errors=True)
                    shutil.rmtree(old, ignore_errors=True)

            await asyncio.get_running_loop().run_in_executor(None, copy)
            return dest

    async def delete_index(self) -> None:
        """Deletes the index's temporary directory: leaving the context then writes nothing,
        and later calls raise :class:`HipporagError`."""
        if self._lock is not None:
            async with self._lock:
                self._remove()
        else:
            self._remove()
