//! Languages end to end on real data: XQuAD's Russian, Chinese, German, Arabic and Thai sets
//! (`multilingual/xquad_{ru,zh,de,ar,th}*.json`, 1,190 questions over 240 Wikipedia
//! paragraphs each) and JSQuAD's Japanese one
//! indexed with the rule extractor and the lexical encoder in their language, and the
//! rule extractor's phrases on the HippoRAG explainers (`multilingual/hipporag_explainer_*`);
//! and RGB's Chinese news (`zh_news/`), where the graph's entities are incidental.

mod common;

use common::data;
use hipporag_indexer::eval::{EvalSet, evaluate, load_questions};
use hipporag_indexer::openie::rules::{RuleOptions, extract_corpus};
use hipporag_wasm::embeddings::HashedNgramEncoder;
use hipporag_wasm::index::Passage;
use hipporag_wasm::search::MAX_GRAPH_WEIGHT;
use hipporag_wasm::search::{Mode, RetrieveOptions, Retriever};
use hipporag_wasm::text::Language;

/// XQuAD's paragraphs in `language`, indexed with the rule extractor and the lexical encoder.
fn xquad_retriever(language: Language) -> Retriever {
    let code = language.code();
    retriever(&format!("multilingual/xquad_{code}_corpus.json"), language)
}

/// The corpus at `path` (under the data directory) in `language`, indexed with the rule
/// extractor and the lexical encoder.
fn retriever(path: &str, language: Language) -> Retriever {
    Retriever::from_bytes(&common::rule_index(path, language).to_bytes()).unwrap()
}

/// R@2 and R@5 of bm25, hipporag1 and hybrid (in that order; hybrid with `phrase_weight`, `None`
/// for the graph weight decided per query) and hipporag1's fallbacks (questions with no query
/// entity).
struct Xquad {
    bm25: [f64; 2],
    hipporag1: [f64; 2],
    hybrid: [f64; 2],
    fallbacks: usize,
}

fn xquad(r: &Retriever, language: Language, phrase_weight: Option<f64>) -> Xquad {
    let code = language.code();
    recall(
        r,
        &format!("multilingual/xquad_{code}.json"),
        1190,
        phrase_weight,
    )
}

/// [`Xquad`]'s figures on the `count` questions at `path` (under the data directory).
fn recall(r: &Retriever, path: &str, count: usize, phrase_weight: Option<f64>) -> Xquad {
    let enc = HashedNgramEncoder::default();
    let questions = load_questions(&data(path), r.index()).unwrap();
    assert_eq!(questions.len(), count);
    let (table, _) = evaluate(
        r,
        &enc,
        &questions,
        &[Mode::Bm25, Mode::HippoRag1, Mode::Hybrid],
        &EvalSet {
            ks: &[2, 5],
            options: RetrieveOptions {
                phrase_weight,
                ..Default::default()
            },
            ..Default::default()
        },
    )
    .unwrap();
    let at = |i: usize| [table[i].recall[0], table[i].recall[1]];
    Xquad {
        bm25: at(0),
        hipporag1: at(1),
        hybrid: at(2),
        fallbacks: table[1].fallbacks,
    }
}

/// One question of XQuAD's 1,190, as a share of recall.
const ONE_QUESTION: f64 = 1.0 / 1190.0 + 1e-9;

/// Hybrid's floor on single-hop questions: R@5 at most 0.3 points under BM25's.
fn at_bm25s_level(x: &Xquad) {
    assert!(
        x.hybrid[1] >= x.bm25[1] - 0.003 - ONE_QUESTION,
        "hybrid {:?} under bm25 {:?}",
        x.hybrid,
        x.bm25
    );
}

#[test]
fn russian_stems_and_phrase_nodes_reach_the_gold_paragraph() {
    let r = xquad_retriever(Language::Russian);
    let x = xquad(&r, Language::Russian, None);
    // R@5 floors: BM25 0.97, hipporag1 0.85, hybrid at BM25's level (docs/tuning.md,
    // "Measurements behind the code", has the recalls).
    assert!(x.bm25[1] >= 0.97, "bm25 R@5 {:?}", x.bm25);
    assert!(x.hipporag1[1] >= 0.85, "hipporag1 R@5 {:?}", x.hipporag1);
    at_bm25s_level(&x);
}

#[test]
fn a_russian_name_in_another_case_is_one_query_entity() {
    let r = xquad_retriever(Language::Russian);
    // XQuAD ru: the phrase node is "атлантике"; the question names it in the accusative, which
    // the name rule finds again. One entity, so the hybrid reset does not count it twice.
    let e = r.extract_entities("Кто первым послал радиоволны через Атлантику?");
    assert_eq!(e, ["атлантике"]);
}

#[test]
fn chinese_questions_find_their_entities_and_paragraphs() {
    let r = xquad_retriever(Language::Chinese);
    let x = xquad(&r, Language::Chinese, None);
    // At most 5% of the questions without a query entity (jieba phrases and character
    // matching give the others one); R@5 floors as in Russian (docs/tuning.md,
    // "Measurements behind the code", has the recalls).
    assert!(
        x.fallbacks * 100 <= 1190 * 5,
        "{} questions without an entity",
        x.fallbacks
    );
    assert!(x.bm25[1] >= 0.97, "bm25 R@5 {:?}", x.bm25);
    assert!(x.hipporag1[1] >= 0.85, "hipporag1 R@5 {:?}", x.hipporag1);
    at_bm25s_level(&x);
}

/// German, Arabic and Thai read as themselves (Snowball's German and Arabic stemmers, Thai cut
/// into grapheme clusters and their pairs): BM25's R@5 above what the English reading of the
/// same passages gave (0.971, 0.940, 0.902; issue #50), and the default hybrid at BM25's level
/// in German and Arabic. In Thai the graph (numbers and Latin names only) still costs hybrid
/// about half a point of R@5 under BM25: its floor is what the English reading's BM25 missed.
#[test]
fn german_arabic_and_thai_are_read_as_themselves() {
    for (language, floor) in [
        (Language::German, 0.975),
        (Language::Arabic, 0.96),
        (Language::Thai, 0.98),
    ] {
        let r = xquad_retriever(language);
        let x = xquad(&r, language, None);
        assert!(x.bm25[1] >= floor, "{language:?} bm25 R@5 {:?}", x.bm25);
        if language == Language::Thai {
            assert!(x.hybrid[1] >= 0.975, "Thai hybrid R@5 {:?}", x.hybrid);
        } else {
            at_bm25s_level(&x);
        }
    }
}

/// Japanese read as itself (JSQuAD valid, `multilingual/jsquad_valid*.json`: 4,442 questions
/// over 1,145 Wikipedia paragraphs): runs of kana and Han in characters and their pairs, a
/// Katakana word whole too. BM25's R@5 is above what the English reading of the same passages
/// gave (0.967, issue #50) and what Katakana words read only whole gave (0.965), and hybrid
/// keeps within half a point of it (docs/tuning.md, "Katakana words in characters and pairs").
#[test]
fn japanese_is_read_in_characters_and_pairs() {
    let r = retriever("multilingual/jsquad_valid_corpus.json", Language::Japanese);
    let x = recall(&r, "multilingual/jsquad_valid.json", 4442, None);
    assert!(x.bm25[1] >= 0.969, "bm25 R@5 {:?}", x.bm25);
    assert!(x.hybrid[1] >= 0.964, "hybrid R@5 {:?}", x.hybrid);
}

/// RGB's Chinese news (`zh_news/rgb_zh_refine*.json`: 300 questions over 7,337 passages,
/// each answered by 3 to 29 of them): single-hop questions whose phrase-graph entities are
/// incidental. `hybrid` finds a supporting passage in the first five (hit@5) at most half a
/// point less often than BM25 (issue #50's goal), which it owes to the passage share's best
/// two kept in the first five (`search::keep_passage_share_best`; docs/testing.md has the
/// figures without it). The graph share of these questions is flat, so the first five are in
/// BM25's order (`search::order_first_five_where_graph_flat`), and hit@2 is within 5 points of
/// BM25's (83.7; 70.3 without that order). MuSiQue's gain is asserted in
/// `cli/tests/rules_e2e.rs`.
#[test]
fn chinese_news_hybrid_finds_a_supporting_passage_as_often_as_bm25() {
    let r = retriever("zh_news/rgb_zh_refine_corpus.json", Language::Chinese);
    let questions = load_questions(&data("zh_news/rgb_zh_refine.json"), r.index()).unwrap();
    assert_eq!(questions.len(), 300);
    let (table, _) = evaluate(
        &r,
        &HashedNgramEncoder::default(),
        &questions,
        &[Mode::Bm25, Mode::Hybrid],
        &EvalSet {
            ks: &[2, 5],
            ..Default::default()
        },
    )
    .unwrap();
    let (bm25, hybrid) = (table[0].hit[1], table[1].hit[1]);
    assert!(bm25 >= 0.93, "bm25 hit@5 {bm25}");
    assert!(
        hybrid >= bm25 - 0.005,
        "hybrid hit@5 {hybrid} under bm25's {bm25}"
    );
    let (bm25, hybrid) = (table[0].hit[0], table[1].hit[0]);
    assert!(
        hybrid >= bm25 - 0.05,
        "hybrid hit@2 {hybrid}, bm25's {bm25}"
    );
}

#[test]
fn the_graph_weight_decided_per_query_costs_single_hop_questions_less_than_a_constant() {
    // At the multi-hop weight (0.9) on every query hybrid's R@2 falls well under BM25's on
    // XQuAD; deciding it per query from the graph's agreement keeps more of the first ranks
    // (docs/tuning.md, "Measurements behind the code").
    let r = xquad_retriever(Language::Russian);
    let constant = xquad(&r, Language::Russian, Some(MAX_GRAPH_WEIGHT));
    let own = xquad(&r, Language::Russian, None);
    assert!(
        constant.hybrid[0] < own.hybrid[0],
        "0.9: {:?}, per query: {:?}",
        constant.hybrid,
        own.hybrid
    );
}

/// The rule extractor's phrases on one explainer, split into paragraphs.
fn explainer_phrases(code: &str, language: Language) -> Vec<String> {
    let text =
        std::fs::read_to_string(data(&format!("multilingual/hipporag_explainer_{code}.txt")))
            .unwrap();
    let passages: Vec<Passage> = text
        .split("\n\n")
        .filter(|p| p.trim().chars().count() > 40)
        .map(|p| Passage::new("", p.trim()))
        .collect();
    let rules = RuleOptions {
        language,
        ..Default::default()
    };
    let (docs, _) = extract_corpus(&passages, &rules);
    let mut phrases: Vec<String> = docs
        .into_iter()
        .flat_map(|d| d.extracted_entities)
        .collect();
    phrases.sort();
    phrases.dedup();
    phrases
}

#[test]
fn explainer_phrases_are_words_and_names() {
    let ru = explainer_phrases("ru", Language::Russian);
    assert!(ru.len() > 50, "{ru:?}");
    // Names and adjective + noun phrases, not a verb with an adverb or a gerund.
    for want in ["ColBERTv2", "PageRank", "детерминированным алгоритмом"]
    {
        assert!(ru.iter().any(|p| p == want), "{want} not in {ru:?}");
    }
    for fragment in [
        "имеет больше",
        "помощью алгоритма",
        "расширяя граф",
        "Имитируя",
    ] {
        assert!(!ru.iter().any(|p| p == fragment), "{fragment} in {ru:?}");
    }
    let zh = explainer_phrases("zh", Language::Chinese);
    assert!(zh.len() > 100, "{zh:?}");
    // jieba words of two characters or more; no stopword and no single character.
    let stop = hipporag_indexer::bm25::stopwords(Language::Chinese);
    assert!(
        zh.iter()
            .all(|p| p.chars().count() >= 2 && !stop.contains(p)),
        "{zh:?}"
    );
    // Words of the Traditional text as written, segmented through its Simplified form and
    // without the pinyin readings the scraped text carries ("關(guān)鍵" → "關鍵信息").
    for want in [
        "HippoRAG",
        "PageRank",
        "關鍵信息",
        "信息檢索",
        "命名實體",
        "斯坦福大學",
    ] {
        assert!(zh.iter().any(|p| p == want), "{want} not in {zh:?}");
    }
    // What segmenting the Traditional text as written, readings included, gave.
    for fragment in ["檢索和問", "中的關", "雜關", "檢索結", "算文檔"] {
        assert!(
            !zh.iter().any(|p| p.contains(fragment)),
            "{fragment} in {zh:?}"
        );
    }
}
