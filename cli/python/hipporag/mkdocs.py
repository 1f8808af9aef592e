"""hipporag's search for an MkDocs site, in place of MkDocs' (or mkdocs-material's) own: in
mkdocs.yml,

.. code-block:: yaml

    plugins:
      - hipporag          # and no `search`: hipporag replaces it
      # - hipporag:
      #     exclude: ["changelog/**"]   # the config file's keys

Every page gets the UI's script and a search button (``<div data-hipporag-search="modal">``)
where the theme shows its search: mkdocs-material's header, the navigation bar of MkDocs'
``mkdocs`` theme, the sidebar of its ``readthedocs`` theme, else the top of the page; a page
that already holds a ``data-hipporag-search`` or ``#hipporag-search`` element (a template of
the site's own) keeps it and gets no other. After the build, ``hipporag site <site_dir>`` (the
binary :func:`hipporag.find_binary` finds) indexes the site with the plugin's options: the keys
of ``hipporag.toml`` (docs/site.md, "Configuration"), relative paths taken from mkdocs.yml's
directory. With ``search`` still in ``plugins`` the build warns: the theme would show both.
"""

import logging
import os
import posixpath
import re
from typing import Any, Dict, Optional

from mkdocs.config import config_options as c
from mkdocs.config.base import Config
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin

from . import _plugin
from ._binary import HipporagError

__all__ = ["HipporagPlugin"]

log = logging.getLogger("mkdocs.plugins.hipporag")

ELEMENT = '<div class="hipporag-search" data-hipporag-search="modal"></div>'
# Not documentation: MkDocs' 404 page (material renders it with no page of its own).
DEFAULT_EXCLUDE = ["404.html"]

_KINDS = {"string": str, "path": str, "boolean": bool, "number": (int, float), "strings": list}


def _scheme():
    def option(kind: str):
        return c.Optional(c.Type(_KINDS[kind]))

    return tuple((name, option(kind)) for name, kind in _plugin.OPTIONS.items())


class HipporagPlugin(BasePlugin):
    """``plugins: [hipporag]``: the options are the config file's keys (``exclude``,
    ``root_selector``, ``exclude_selectors``, ``glob``, ``lang``, …); an unknown one is an error
    naming it."""

    config_scheme = _scheme()

    def _options(self) -> Dict[str, Any]:
        options = {k: v for k, v in self.config.items() if v is not None}
        options.setdefault("exclude", DEFAULT_EXCLUDE)
        return options

    def on_config(self, config: Config) -> Optional[Config]:
        self._base_dir = os.path.dirname(os.path.abspath(config.config_file_path or "mkdocs.yml"))
        try:
            self._args = _plugin.site_args(self._options(), self._base_dir)
            self._out_dir = _plugin.output_dir(self._options(), os.path.abspath(config.site_dir), self._base_dir)
        except HipporagError as e:
            raise PluginError(str(e)) from None
        self._theme = config.theme.name or ""
        searches = [name for name in ("search", "material/search") if name in config.plugins]
        if searches:
            log.warning(
                "hipporag replaces the theme's search: remove %r from plugins in mkdocs.yml "
                "(with it the pages show both searches, and MkDocs builds its index for nothing)",
                searches[0],
            )
        return config

    def on_post_page(self, output: str, page: Any, config: Config) -> Optional[str]:
        url = page.url or ""
        page_dir = url if url.endswith("/") or url == "" else posixpath.dirname(url)
        rel_dir = posixpath.relpath(self._out_dir, page_dir.rstrip("/") or ".")
        tags = _plugin.ui_tags(rel_dir, self._out_dir)
        if "data-hipporag-search" not in output and 'id="hipporag-search"' not in output:
            output = _insert_element(output, self._theme)
        return _insert_before(output, "</head>", tags) or _insert_before(output, "</body>", tags) or output + tags

    def on_post_build(self, config: Config) -> None:
        try:
            _plugin.run_site(config.site_dir, self._args, log.info)
        except HipporagError as e:
            raise PluginError(str(e)) from None


def _insert_before(html: str, marker: str, text: str) -> Optional[str]:
    i = html.rfind(marker) if marker.startswith("</") else html.find(marker)
    return None if i < 0 else html[:i] + text + html[i:]


def _insert_element(html: str, theme: str) -> str:
    """``html`` with the search button where ``theme`` shows its search."""
    if theme == "material":
        # The header's right-hand side: before the repository link, else at the end of its
        # bar (where material's own search button is).
        m = re.search(r'<div class="md-header__source">', html)
        if m:
            return html[: m.start()] + f'<div class="md-header__option">{ELEMENT}</div>' + html[m.start() :]
        m = re.search(r'<nav class="md-header__inner[^"]*"[^>]*>', html)
        if m:
            end = html.find("</nav>", m.end())
            if end >= 0:
                return html[:end] + f'<div class="md-header__option">{ELEMENT}</div>' + html[end:]
    if theme == "mkdocs":
        m = re.search(r'<ul class="nav navbar-nav ms-md-auto">', html)
        if m:
            return html[: m.end()] + f'<li class="nav-item">{ELEMENT}</li>' + html[m.end() :]
    if theme == "readthedocs":
        m = re.search(r'<div class="wy-side-nav-search">', html)
        if m:
            end = html.find("</div>", m.end())
            if end >= 0:
                return html[:end] + ELEMENT + html[end:]
    m = re.search(r"<body[^>]*>", html)
    if m:
        return html[: m.end()] + ELEMENT + html[m.end() :]
    return ELEMENT + html
