//! Recall@k on retrieval datasets' question files (HippoRAG §4's retrieval metric), and page-level
//! recall@k and hit@k on docs-search question files ([`load_page_questions`]).
//!
//! Question files are MuSiQue's, SQuAD's, HotpotQA's or 2WikiMultihopQA's ([`crate::datasets`]).
//! Gold passages are matched to index passages by exact `(title, text)` — titles repeat in
//! MuSiQue, so never by title alone — or, for HippoRAG's case studies, by `gold_docs`, positions
//! in the corpus the index was built from.
//! Recall@k is the fraction of a question's gold passages found among its top k, averaged over
//! questions (the reference implementation's definition). Passages that occur several times in
//! the corpus with the same title and text count as one gold passage, found if any copy is.

use std::collections::HashMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::datasets::{self, Gold};
use crate::json::read_json_lenient;
use crate::{Error, Result};
use hipporag_wasm::embeddings::Encoder;
use hipporag_wasm::index::Index;
use hipporag_wasm::search::{Mode, RetrieveOptions, Retriever};

/// A question with its gold passages resolved to index passage ids.
#[derive(Debug, Clone, Serialize)]
pub struct EvalQuestion {
    /// Question id (or its position).
    pub id: String,
    /// The question text.
    pub question: String,
    /// One entry per distinct gold passage: every passage id holding that `(title, text)`.
    pub gold: Vec<Vec<u32>>,
}

/// Reads a question file of any format [`crate::datasets`] knows (MuSiQue, HippoRAG's case
/// studies, SQuAD/XQuAD, HotpotQA, 2WikiMultihopQA) and resolves its gold passages against
/// `index`.
///
/// # Errors
/// [`Error::Json`] if the file has none of those shapes (naming the question and field);
/// [`Error::InvalidRequest`] naming the question and title when a gold passage is not in the
/// index (the index was built from another corpus), or when a `gold_docs` position is out of
/// range.
pub fn load_questions(path: &Path, index: &Index) -> Result<Vec<EvalQuestion>> {
    let value: serde_json::Value = read_json_lenient(path)?;
    let set = datasets::from_value(path, value)?;
    let mut by_key: HashMap<(&str, &str), Vec<u32>> = HashMap::new();
    for (j, p) in index.passages.iter().enumerate() {
        by_key
            .entry((p.title.as_str(), p.text.as_str()))
            .or_default()
            .push(j as u32);
    }
    set.questions
        .into_iter()
        .map(|q| {
            let id = q.id;
            let mut gold: Vec<Vec<u32>> = Vec::new();
            for g in &q.gold {
                let ids = match g {
                    Gold::Passage { title, text } => {
                        by_key.get(&(title.as_str(), text.as_str())).ok_or_else(|| {
                            Error::InvalidRequest(format!(
                                "{}: question {id}: gold passage {title:?} is not in the index (built from another corpus?)",
                                path.display(),
                            ))
                        })?
                    }
                    &Gold::CorpusPosition(d) => {
                        // Every copy of that passage counts, as for supporting paragraphs.
                        let p = index.passages.get(d).ok_or_else(|| {
                            Error::InvalidRequest(format!(
                                "{}: question {id}: gold_docs entry {d} is past the index's {} passages",
                                path.display(),
                                index.passages.len()
                            ))
                        })?;
                        &by_key[&(p.title.as_str(), p.text.as_str())]
                    }
                };
                if !gold.contains(ids) {
                    gold.push(ids.clone());
                }
            }
            Ok(EvalQuestion {
                id,
                question: q.question,
                gold,
            })
        })
        .collect()
}

#[derive(Deserialize)]
struct RawPageQuestion {
    q: String,
    gold_pages: Vec<String>,
    #[serde(default)]
    split: Option<String>,
    #[serde(default)]
    source_id: Option<String>,
}

/// A passage's page: its URL without the `#anchor` and the leading `/`.
fn page_of(url: &str) -> &str {
    url.split('#').next().unwrap_or("").trim_start_matches('/')
}

/// Reads a docs-search question file (`[{q, gold_pages, split?}]`, as
/// `../shared/data/pydocs/conala_pydocs.json`: `gold_pages` are page paths relative to the
/// site root) for an index built by `hipporag site` (passages carry `url`s), keeping only the
/// questions of `split` when given. Each gold page becomes one gold entry holding every passage
/// of that page, so with [`EvalSet::pages`] recall@k is page recall over the top k distinct
/// pages. A gold page the index does not hold stays a gold entry that is never found.
///
/// # Errors
/// [`Error::Json`] if the file is not such a list; [`Error::InvalidRequest`] if the index's
/// passages carry no URLs (not a site index).
pub fn load_page_questions(
    path: &Path,
    index: &Index,
    split: Option<&str>,
) -> Result<Vec<EvalQuestion>> {
    let raw: Vec<RawPageQuestion> = read_json_lenient(path)?;
    if index.passages.iter().all(|p| p.url.is_none()) {
        return Err(Error::InvalidRequest(format!(
            "{}: page-level questions need a site index (passages with URLs, `hipporag site`)",
            path.display()
        )));
    }
    let mut by_page: HashMap<&str, Vec<u32>> = HashMap::new();
    for (j, p) in index.passages.iter().enumerate() {
        if let Some(u) = &p.url {
            by_page.entry(page_of(u)).or_default().push(j as u32);
        }
    }
    Ok(raw
        .into_iter()
        .enumerate()
        .filter(|(_, q)| split.is_none() || q.split.as_deref() == split)
        .map(|(qi, q)| EvalQuestion {
            id: q.source_id.unwrap_or_else(|| qi.to_string()),
            question: q.q,
            gold: q
                .gold_pages
                .iter()
                .map(|g| by_page.get(g.as_str()).cloned().unwrap_or_default())
                .collect(),
        })
        .collect())
}

/// Keeps the first (best-ranked) passage of each page of `ranking`.
pub fn first_per_page(ranking: &[u32], pages: &[u32]) -> Vec<u32> {
    let mut seen = std::collections::HashSet::new();
    ranking
        .iter()
        .copied()
        .filter(|&p| seen.insert(pages[p as usize]))
        .collect()
}

/// Hit of one ranking: 1 if any `gold` entry has an id among `ranked[..k]`, else 0.
pub fn hit_at(ranked: &[u32], gold: &[Vec<u32>], k: usize) -> f64 {
    let top = &ranked[..k.min(ranked.len())];
    f64::from(u8::from(
        gold.iter().any(|g| g.iter().any(|id| top.contains(id))),
    ))
}

/// Recall of one ranking: fraction of `gold` entries with an id among `ranked[..k]`.
pub fn recall_at(ranked: &[u32], gold: &[Vec<u32>], k: usize) -> f64 {
    if gold.is_empty() {
        return 0.0;
    }
    let top = &ranked[..k.min(ranked.len())];
    gold.iter()
        .filter(|g| g.iter().any(|id| top.contains(id)))
        .count() as f64
        / gold.len() as f64
}

/// The 1-based rank of each gold entry (its best-ranked copy) in `ranked`, `None` if absent.
pub fn gold_ranks(ranked: &[u32], gold: &[Vec<u32>]) -> Vec<Option<usize>> {
    gold.iter()
        .map(|g| ranked.iter().position(|id| g.contains(id)).map(|r| r + 1))
        .collect()
}

/// Mean recall@k of one mode over a question set.
#[derive(Debug, Clone, Serialize)]
pub struct ModeRecall {
    /// The mode evaluated.
    pub mode: Mode,
    /// `ks[i]` ↔ `recall[i]` (fractions in `[0, 1]`).
    pub ks: Vec<usize>,
    /// Mean recall at each k.
    pub recall: Vec<f64>,
    /// Fraction of questions with at least one gold entry in the top k, at each k.
    pub hit: Vec<f64>,
    /// Questions answered by a fallback (e.g. no query entity → dense).
    pub fallbacks: usize,
}

/// Per-question rankings for one mode.
#[derive(Debug, Clone, Serialize)]
pub struct QuestionRun {
    /// Question id.
    pub id: String,
    /// Query entities used.
    pub entities: Vec<String>,
    /// Ranked passage ids (top `max(ks)`).
    pub ranking: Vec<u32>,
    /// Their scores, as the retriever gave them.
    pub scores: Vec<f64>,
}

/// What [`evaluate`] measures, beside the questions.
#[derive(Debug, Clone, Default)]
pub struct EvalSet<'a> {
    /// The ks of recall@k and hit@k (default `[5]` when empty).
    pub ks: &'a [usize],
    /// Options of every retrieval; `mode` and `top_k` are replaced per run.
    pub options: RetrieveOptions,
    /// Page-level evaluation ([`Index::pages`]): rankings keep the first passage of each page,
    /// drawn from the top `8 × max(ks)` passages (as the site's `search` does).
    pub pages: Option<&'a [u32]>,
}

/// How many of each signal's best passages [`hybrid_features`] keeps as a question's
/// candidates (the union of the passage share's, the graph share's and the mix's best).
pub const FEATURE_CANDIDATES: usize = 100;

/// The hybrid ranking's inputs of every question, one JSON object per line, for learning a
/// ranking function at tuning time (bench/learn_ranking.py): `{id, question, language,
/// terms, gold, passages, graph_weight, name_factor, seed_specificity, graph_total,
/// candidates: [{id, page, bm25, b, g, mix}]}`, with `terms` the question's counted terms
/// ([`hipporag_wasm::search::counted_terms`]), `gold` as [`EvalQuestion::gold`], `b` and `g`
/// the passage and graph shares ([`hipporag_wasm::search::HybridScores`]), `mix` today's
/// hybrid score, `page` the passage's page (its id without `pages`), `graph_total` the graph
/// share's whole mass; candidates are the union of each signal's best
/// [`FEATURE_CANDIDATES`] passages, by id. A question the hybrid mode cannot rank (no term,
/// no seed) has no candidates.
///
/// # Errors
/// The retriever's errors ([`Retriever::hybrid_ranking`]).
pub fn hybrid_features(
    retriever: &Retriever,
    encoder: &dyn Encoder,
    questions: &[EvalQuestion],
    options: &RetrieveOptions,
    pages: Option<&[u32]>,
) -> Result<String> {
    use hipporag_wasm::graph::top_k_positive;
    use hipporag_wasm::search::{IndexReader, counted_terms, searched_part};
    let opts = RetrieveOptions {
        mode: Mode::Hybrid,
        ..options.clone()
    };
    let language = retriever.language();
    let mut out = String::new();
    for q in questions {
        let query = retriever.prepare_query(&q.question, None, encoder)?;
        let h = retriever.hybrid_ranking(&query.input(), &opts)?;
        let part = searched_part(&q.question, language);
        let mut line = serde_json::json!({
            "id": q.id,
            "question": q.question,
            "language": language,
            "terms": counted_terms(part, language),
            "gold": q.gold,
            "passages": retriever.passages(),
        });
        if let Some(h) = h {
            let mut ids: Vec<usize> = [&h.passage_share, &h.graph_share, &h.scores]
                .iter()
                .flat_map(|v| top_k_positive(v, FEATURE_CANDIDATES))
                .map(|x| x.0)
                .collect();
            ids.sort_unstable();
            ids.dedup();
            let candidates: Vec<serde_json::Value> = ids
                .iter()
                .map(|&j| {
                    serde_json::json!({
                        "id": j,
                        "page": pages.map_or(j as u32, |p| p[j]),
                        "bm25": h.bm25[j],
                        "b": h.passage_share[j],
                        "g": h.graph_share[j],
                        "mix": h.scores[j],
                    })
                })
                .collect();
            line["graph_weight"] = h.graph_weight.into();
            line["name_factor"] = h.name_factor.into();
            line["seed_specificity"] = h.seed_specificity.into();
            line["graph_total"] = h.graph_share.iter().sum::<f64>().into();
            line["candidates"] = candidates.into();
        }
        out.push_str(&line.to_string());
        out.push('\n');
    }
    Ok(out)
}

/// Runs every question through every mode with the given encoder and built-in entity extractor.
///
/// Returns the recall table (one row per mode) and the per-question rankings (per mode).
pub fn evaluate(
    retriever: &Retriever,
    encoder: &dyn Encoder,
    questions: &[EvalQuestion],
    modes: &[Mode],
    set: &EvalSet<'_>,
) -> Result<(Vec<ModeRecall>, Vec<Vec<QuestionRun>>)> {
    let ks = if set.ks.is_empty() { &[5][..] } else { set.ks };
    let kmax = ks.iter().copied().max().unwrap_or(5);
    let depth = if set.pages.is_some() { 8 * kmax } else { kmax };
    let mut prepared = Vec::with_capacity(questions.len());
    for q in questions {
        prepared.push(retriever.prepare_query(&q.question, None, encoder)?);
    }
    let mut table = Vec::new();
    let mut runs = Vec::new();
    for &mode in modes {
        let opts = RetrieveOptions {
            top_k: depth,
            mode,
            ..set.options.clone()
        };
        let mut sums = vec![0.0; ks.len()];
        let mut hits = vec![0.0; ks.len()];
        let mut fallbacks = 0;
        let mut mode_runs = Vec::with_capacity(questions.len());
        for (q, query) in questions.iter().zip(&prepared) {
            let res = retriever.retrieve(&query.input(), &opts)?;
            if res.fallback.is_some() {
                fallbacks += 1;
            }
            let mut ranking: Vec<u32> = res.passages.iter().map(|p| p.id).collect();
            if let Some(pages) = set.pages {
                ranking = first_per_page(&ranking, pages);
                ranking.truncate(kmax);
            }
            let scores = ranking
                .iter()
                .map(|id| {
                    res.passages
                        .iter()
                        .find(|p| p.id == *id)
                        .map_or(0.0, |p| p.score)
                })
                .collect();
            for ((s, h), &k) in sums.iter_mut().zip(&mut hits).zip(ks) {
                *s += recall_at(&ranking, &q.gold, k);
                *h += hit_at(&ranking, &q.gold, k);
            }
            mode_runs.push(QuestionRun {
                id: q.id.clone(),
                entities: query.entities.clone(),
                ranking,
                scores,
            });
        }
        let n = questions.len().max(1) as f64;
        table.push(ModeRecall {
            mode,
            ks: ks.to_vec(),
            recall: sums.iter().map(|s| s / n).collect(),
            hit: hits.iter().map(|h| h / n).collect(),
            fallbacks,
        });
        runs.push(mode_runs);
    }
    Ok((table, runs))
}

/// A question on which the index in pieces and the single file rank differently.
#[derive(Debug, Clone, Serialize)]
pub struct PiecesDisagreement {
    /// Question id.
    pub id: String,
    /// The mode.
    pub mode: Mode,
    /// The single file's top-k (passage, score).
    pub single: Vec<(u32, f64)>,
    /// The pieces' top-k (passage, score).
    pub pieces: Vec<(u32, f64)>,
}

/// Ranks every question in `bm25` and `hybrid` (with `options`) through the single file and
/// through `index`, the index in pieces read from `dir`, top `top_k`, and returns where they differ
/// (passage ids or score bits): the check that pieces and single file give the same answers.
///
/// # Errors
/// A retrieval's or a piece's error (options the pieces do not serve among them: another
/// damping than the phrase pieces were built at).
pub fn pieces_disagreements(
    retriever: &Retriever,
    dir: &crate::pieces::PieceDir,
    index: &mut hipporag_wasm::pieces::Pieces,
    questions: &[EvalQuestion],
    options: &RetrieveOptions,
    top_k: usize,
) -> Result<Vec<PiecesDisagreement>> {
    let mut out = Vec::new();
    for q in questions {
        for mode in [Mode::Bm25, Mode::Hybrid] {
            let opts = RetrieveOptions {
                mode,
                top_k,
                exact_seeds: true,
                ..options.clone()
            };
            // The single file with the built-in extractor's entities, as the page finds them.
            let entities = retriever.extract_entities(&q.question);
            let input = hipporag_wasm::search::QueryInput {
                question: Some(&q.question),
                entities: &entities,
                ..Default::default()
            };
            // A question with no term in the index: the single file falls back to dense
            // ranking (no query embedding here: an error), the pieces rank nothing.
            let single: Vec<(u32, f64)> = match retriever.retrieve(&input, &opts) {
                Ok(r) => r.passages.iter().map(|p| (p.id, p.score)).collect(),
                Err(_) => Vec::new(),
            };
            let pieces: Vec<(u32, f64)> = dir
                .search(index, &q.question, &opts)?
                .into_iter()
                .map(|(j, s)| (j as u32, s))
                .collect();
            let bits =
                |v: &[(u32, f64)]| v.iter().map(|&(j, s)| (j, s.to_bits())).collect::<Vec<_>>();
            if bits(&single) != bits(&pieces) {
                out.push(PiecesDisagreement {
                    id: q.id.clone(),
                    mode,
                    single,
                    pieces,
                });
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recall_counts_each_gold_once_and_any_copy() {
        let gold = vec![vec![3], vec![7, 9]];
        assert_eq!(recall_at(&[1, 9, 3], &gold, 2), 0.5);
        assert_eq!(recall_at(&[1, 9, 3], &gold, 5), 1.0);
        assert_eq!(recall_at(&[], &gold, 5), 0.0);
        assert_eq!(gold_ranks(&[1, 9, 3], &gold), vec![Some(3), Some(2)]);
        assert_eq!(gold_ranks(&[1], &gold), vec![None, None]);
    }
}
