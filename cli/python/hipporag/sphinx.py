"""hipporag's search for a Sphinx site, in place of Sphinx's own: in conf.py,

.. code-block:: python

    extensions = ["hipporag.sphinx"]
    hipporag_options = {"exclude": ["genindex*.html"]}   # optional: the config file's keys

After an HTML build (``html``, ``dirhtml``, ``singlehtml``) that did not fail, it runs
``hipporag site <outdir>`` (the binary :func:`hipporag.find_binary` finds) with the options of
``hipporag_options``: the keys of ``hipporag.toml`` (docs/site.md, "Configuration"), relative
paths taken from conf.py's directory. Every page gets the UI's script, and the theme's search
box templates (``searchbox.html``, the basic theme's sidebar box and the one alabaster and the
Read the Docs theme show; ``searchfield.html``; Furo's ``sidebar/search.html``) are replaced by
one holding ``<div data-hipporag-search="modal"></div>``: a search button that opens hipporag's
search dialog. A theme with its own search template gets the element from a template of the
project's (``_templates/``), which wins over this extension's.

Unless ``hipporag_options`` sets them, ``exclude`` leaves out Sphinx's generated pages (the
general and module indexes, the search page, the highlighted sources of ``sphinx.ext.viewcode``)
and ``exclude_selectors`` its heading permalinks (``a.headerlink``).
"""

import os
from typing import Any, Dict, Optional

from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.errors import ExtensionError
from sphinx.util import logging

from . import _plugin
from ._binary import HipporagError

__all__ = ["setup"]

logger = logging.getLogger(__name__)

TEMPLATES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "templates", "sphinx")

# Sphinx's generated pages, for the html and dirhtml builders: not documentation.
DEFAULT_EXCLUDE = [
    "genindex*.html",
    "genindex/**",
    "py-modindex.html",
    "py-modindex/**",
    "*-modindex.html",
    "search.html",
    "search/**",
    "_modules/**",
]
DEFAULT_EXCLUDE_SELECTORS = ["a.headerlink"]


def _options(config: Config) -> Dict[str, Any]:
    options = dict(config.hipporag_options or {})
    options.setdefault("exclude", DEFAULT_EXCLUDE)
    options.setdefault("exclude_selectors", DEFAULT_EXCLUDE_SELECTORS)
    return options


def _config_inited(app: Sphinx, config: Config) -> None:
    if not isinstance(config.hipporag_options, dict):
        raise ExtensionError(f"hipporag_options: expected a dict, got {config.hipporag_options!r}")
    try:
        _plugin.site_args(_options(config), app.confdir)
    except HipporagError as e:
        raise ExtensionError(str(e)) from None
    # Before the theme's templates (templates_path wins over them), after none of the
    # project's: a project's own searchbox.html still wins.
    if TEMPLATES not in config.templates_path:
        config.templates_path.append(TEMPLATES)


def _page_context(app: Sphinx, pagename: str, templatename: str, context: Dict[str, Any], doctree: Any) -> None:
    if app.builder.format != "html":
        return
    out_dir = _plugin.output_dir(_options(app.config), app.outdir, app.confdir)
    # pathto(…, resource=True) gives the path from this page (for every builder: dirhtml's
    # pages are one directory deeper); add_js_file's paths are relative to _static/.
    rel = context["pathto"](out_dir + "/hipporag-ui.js", 1)
    rel_dir = rel.rsplit("/", 1)[0] if "/" in rel else "."
    site_js, ui_tag = _plugin.ui_tags(rel_dir, out_dir).splitlines()
    body = site_js[len('<script type="module">') : -len("</script>")]
    # Called in html-page-context, add_js_file adds the script to this page only.
    app.add_js_file(None, body=body, type="module", priority=900)
    app.add_js_file("../" + out_dir + "/hipporag-ui.js", type="module", priority=901)


def _build_finished(app: Sphinx, exception: Optional[BaseException]) -> None:
    if exception is not None or app.builder.format != "html":
        return
    options = _options(app.config)
    try:
        args = _plugin.site_args(options, app.confdir)
        _plugin.run_site(str(app.outdir), args, logger.info)
    except HipporagError as e:
        raise ExtensionError(str(e)) from None
    # A theme whose templates include none of the ones replaced shows no search box.
    try:
        root = os.path.join(app.outdir, app.builder.get_target_uri(app.config.root_doc))
        if os.path.isdir(root):
            root = os.path.join(root, "index.html")
        with open(root, encoding="utf-8") as f:
            text = f.read()
            if "data-hipporag-search" not in text and 'id="hipporag-search"' not in text:
                logger.warning(
                    "hipporag: the theme %r shows no search box (it includes none of searchbox.html, "
                    'searchfield.html, sidebar/search.html): put <div data-hipporag-search="modal"></div> '
                    "into one of its templates (a file of templates_path)",
                    app.config.html_theme,
                )
    except OSError:
        pass


def setup(app: Sphinx) -> Dict[str, Any]:
    app.add_config_value("hipporag_options", {}, "", [dict])
    app.connect("config-inited", _config_inited)
    app.connect("html-page-context", _page_context)
    app.connect("build-finished", _build_finished)
    return {"version": _plugin.version(), "parallel_read_safe": True, "parallel_write_safe": True}
