"""The Python API of the wheel (cli/python/hipporag/index.py), from the source tree: run by
tests/js/node_api.test.mjs with PYTHONPATH=cli/python and HIPPORAG_BINARY set, which then
compares what it wrote with `hipporag site`'s bytes and reads the custom records back.

    python_api.py PAGES_DIR OUT_SITE OUT_RECORDS ROOT_SELECTOR_SUPPORTED PAGE...

PAGE: paths below PAGES_DIR, added one by one through add_html_file (by URL and by
source_path, alternately), the bundle written to OUT_SITE as the context closes. Custom
records (the ones node_api.test.mjs adds through Node) are written to OUT_RECORDS. Prints one
JSON object: what the test checks beside the bytes.
"""

import asyncio
import json
import os
import sys
import tempfile

from hipporag.index import HipporagError, IndexAsync

# The same records as node_api.test.mjs's RECORDS (passed as JSON in $HIPPORAG_TEST_RECORDS).
RECORDS = json.loads(os.environ["HIPPORAG_TEST_RECORDS"])


def expect_error(what, fn, *needles):
    try:
        fn()
    except HipporagError as e:
        for n in needles:
            assert n in str(e), f"{what}: {n!r} not in {e}"
        return str(e)
    raise AssertionError(f"{what}: no HipporagError")


async def expect_error_async(what, coro, *needles):
    try:
        await coro
    except HipporagError as e:
        for n in needles:
            assert n in str(e), f"{what}: {n!r} not in {e}"
        return str(e)
    raise AssertionError(f"{what}: no HipporagError")


async def main():
    pages_dir, out_site, out_records, root_selector, *pages = sys.argv[1:]
    report = {}

    # Page by page, as a generator renders them; the bundle is written as the context closes.
    async with IndexAsync({"output_path": out_site}) as index:
        for i, rel in enumerate(pages):
            with open(os.path.join(pages_dir, rel), encoding="utf-8", newline="") as f:
                content = f.read()
            if rel.endswith("/index.html"):
                r = await index.add_html_file(url="/" + rel[: -len("index.html")], content=content)
            elif i % 2:
                r = await index.add_html_file(source_path=rel, content=content)
            else:
                r = await index.add_html_file(url="/" + rel, content=content)
            assert r == {"url": "/" + rel, "source_path": rel}, r
        files = await index.get_files()
        report["pages"] = index.report["pages"]
    # get_files gave the bytes the context then wrote.
    written = {}
    for d, _, names in os.walk(out_site):
        for n in names:
            with open(os.path.join(d, n), "rb") as f:
                written[os.path.relpath(os.path.join(d, n), out_site).replace(os.sep, "/")] = f.read()
    assert {f["path"]: f["content"] for f in files} == written, "get_files differs from the written bundle"
    report["files"] = len(files)

    # Custom records with meta, filters and sort, and a page beside them.
    async with IndexAsync({"no_static_embeddings": True}) as index:
        for rec in RECORDS:
            r = await index.add_custom_record(**rec)
            assert r["meta"] == rec.get("meta", {}), r
        await index.add_html_file(
            url="/plain.html", content="<html><body><main><h1>Plain</h1><p>No attributes here.</p></main></body></html>"
        )
        await index.write_files(out_records)
        # A key the inline capture cannot read back, and URLs no page path has.
        for key in ("a:b", "a,b", "a[b]"):
            await expect_error_async(
                f"meta key {key}",
                index.add_custom_record(url="/x/", content="x", language="en", meta={key: "v"}),
                "add_custom_record",
                key,
            )
        await expect_error_async("filters key any", index.add_custom_record(url="/x/", content="x", language="en", filters={"any": ["v"]}), "any")
        await expect_error_async("url with origin", index.add_html_file(url="https://example.com/a/", content="<p>x</p>"), "url")
        await expect_error_async("url /resume.pdf", index.add_html_file(url="/resume.pdf", content="<p>x</p>"), "/resume.pdf")
        await expect_error_async("sort 20", index.add_custom_record(url="/x/", content="x", language="en", sort={"w": 20}), "sort w")
        # Deleted: later calls fail, and closing the context writes nothing.
        await index.delete_index()
        await expect_error_async("after delete_index", index.add_html_file(url="/y/", content="<p>y</p>"), "deleted")

    # Options: Pagefind's that hipporag cannot honour, an unknown one, a malformed one.
    report["errors"] = {
        "write_playground": expect_error("write_playground", lambda: IndexAsync({"write_playground": True}), "write_playground"),
        "keep_index_url": expect_error("keep_index_url", lambda: IndexAsync({"keep_index_url": False}), "keep_index_url"),
        "unknown": expect_error("unknown", lambda: IndexAsync({"bogus_option": 1}), "bogus_option", "unknown option"),
        "malformed": expect_error("malformed", lambda: IndexAsync({"verbose": "yes"}), "verbose"),
    }
    if root_selector == "false":
        report["errors"]["root_selector"] = expect_error(
            "root_selector", lambda: IndexAsync({"root_selector": "main"}), "root_selector", "not supported"
        )
    IndexAsync({"keep_index_url": True, "write_playground": False, "verbose": False})

    # write_files leaves a directory that is not a bundle as it is.
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "keep.txt"), "w") as f:
            f.write("mine")
        async with IndexAsync({"no_static_embeddings": True}) as index:
            await index.add_html_file(url="/", content="<html><body><main><p>One page.</p></main></body></html>")
            await expect_error_async("write over a directory", index.write_files(tmp), "hipporag-entry.json")
            await index.delete_index()
        assert os.listdir(tmp) == ["keep.txt"]

    print(json.dumps(report))


asyncio.run(main())
