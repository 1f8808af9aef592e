#!/usr/bin/env python3
"""An XQuAD language (google-deepmind/xquad, `xquad.LANG.json`, SQuAD v1.1's format) as a question
set in ../shared/data/multilingual/'s format, which `../shared/tools/corpus_site.py` and `hipporag
index` / `eval` read: QUESTIONS.json, one entry per question with its one paragraph as the
supporting one, and CORPUS.json, the 240 paragraphs as {title, text}, in XQuAD's order.

    python3 bench/xquad_set.py xquad.vi.json OUT/xquad_vi.json OUT/xquad_vi_corpus.json
"""
import json
import sys

src, qpath, cpath = sys.argv[1:4]
lang = src.rsplit(".", 2)[-2]
corpus, questions = [], []
for article in json.load(open(src, encoding="utf-8"))["data"]:
    for para in article["paragraphs"]:
        idx = len(corpus)
        corpus.append({"title": article["title"], "text": para["context"]})
        for qa in para["qas"]:
            questions.append({
                "id": f"xquad_{lang}/{qa['id']}",
                "question": qa["question"],
                "answer": [a["text"] for a in qa["answers"]],
                "paragraphs": [{"idx": idx, "title": article["title"], "paragraph_text": para["context"], "is_supporting": True}],
            })
json.dump(questions, open(qpath, "w", encoding="utf-8"), ensure_ascii=False)
json.dump(corpus, open(cpath, "w", encoding="utf-8"), ensure_ascii=False)
print(f"{len(questions)} questions, {len(corpus)} paragraphs", file=sys.stderr)
