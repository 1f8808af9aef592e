"""HippoRAG search for static sites, from Python.

The ``hipporag`` wheel installs the ``hipporag`` binary (``hipporag site DIR`` writes
``DIR/_hipporag/``) and this package, whose :mod:`hipporag.index` drives that binary the way
Pagefind's Python API drives Pagefind's::

    from hipporag.index import IndexAsync

    async with IndexAsync({"output_path": "public/_hipporag"}) as index:
        await index.add_directory("public")

``python -m hipporag …`` runs the binary as the ``hipporag`` command does.
"""

from ._binary import HipporagError, find_binary

__all__ = ["HipporagError", "find_binary"]
