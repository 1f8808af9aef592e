//! The `bm25` and `hybrid` rankings of a question over any [`IndexReader`]: the one path the
//! single file and the index in pieces both rank through, so a site's page and `hipporag eval`
//! give the same top-k.

use super::fusion::{HybridWeights, PassageSignals, hybrid_scores, is_allowed, name_factor};
use super::options::RetrieveOptions;
use super::reader::IndexReader;
use crate::embeddings::{CodeScorer, query_vector};
use crate::graph::{PprVector, Seed, entity_seeds, is_stopword_of, top_k};
use crate::lexical::{Bm25Params, Misspelt, QueryTerms, idf, misspelt_words, query_terms};
use crate::text::terms;
use crate::{Error, Result};
use std::collections::HashSet;

/// Whether `t` (normalised, lowercase) is a stopword of a question for `index`
/// ([`is_stopword_of`]).
pub fn is_question_stopword(index: &dyn IndexReader, t: &str) -> bool {
    is_stopword_of(index.phrases(), t)
}

/// `question`'s BM25 query over `index`'s dictionary ([`query_terms`], a misspelt word's
/// neighbours read in the static vocabulary too); `None` for an index without BM25.
pub fn bm25_query(index: &dyn IndexReader, question: &str) -> Option<QueryTerms> {
    let stop = |t: &str| is_question_stopword(index, t);
    let dict = index.dictionary()?;
    let words = index.static_vocabulary();
    Some(query_terms(question, index.language(), dict, words, &stop))
}

/// The words of `question` that BM25 and the static query vector match to their neighbours
/// ([`misspelt_words`]); none for an index without BM25.
pub fn misspelt(index: &dyn IndexReader, question: &str) -> Vec<Misspelt> {
    let stop = |t: &str| is_question_stopword(index, t);
    index.dictionary().map_or_else(Vec::new, |dict| {
        misspelt_words(question, index.language(), dict, &stop)
    })
}

/// BM25's score of every passage for `question` (`|P|` values), its word being typed and its
/// misspelt words expanded ([`crate::lexical`]). Under a filter, [`super::mask_disallowed`]
/// sets the passages it leaves out to 0 and [`top_k_within`] ranks the rest.
///
/// # Errors
/// [`Error::InvalidRequest`] for an index without BM25; the reader's errors.
pub fn bm25_scores(index: &dyn IndexReader, question: &str) -> Result<Vec<f64>> {
    let query = bm25_query(index, question).ok_or_else(|| {
        Error::InvalidRequest(
            "the index has no BM25 index: rebuild it with this version of hipporag".into(),
        )
    })?;
    index.bm25_scores(&query)
}

/// `question`'s BM25 upper bound over `index` (BM25 parameters `params`): the score a passage
/// would get whose term frequencies saturated every query term (tf → ∞, where BM25's
/// term-frequency factor tends to 1; the bound of MaxScore and WAND, summed over the query):
///
/// ```text
/// bound(q) = Σ_{t ∈ terms(q), distinct} idf(t) · (k1+1)  +  Σ_{expanded words} max_t w_t · idf(t) · (k1+1)
/// ```
///
/// A word term the dictionary lacks counts at `df` 0, the largest IDF the index has: an index
/// without the query's rare word is bounded by it all the same, so its best passage scores a
/// small share of the bound. Stopwords and lexicon candidates the dictionary lacks (windows of
/// the question that are no lexicon word) count nothing. `bm25_scores(index, question)` never
/// exceeds it, up to the impacts' rounding. Its use: a best score over this bound is the
/// query's match on an index's own scale, which `mergeIndex` compares across sites whose BM25
/// scales differ (www/site/hipporag-filters.js). 0 for an index without BM25 or a question
/// without terms.
pub fn bm25_upper_bound(index: &dyn IndexReader, question: &str, params: Bm25Params) -> f64 {
    let (Some(dict), Some(query)) = (index.dictionary(), bm25_query(index, question)) else {
        return 0.0;
    };
    let n = index.passages();
    let words: HashSet<String> = terms(question, index.language()).into_iter().collect();
    let saturated = |t: &str| f64::from(idf(dict.document_frequency(t), n) * (params.k1 + 1.0));
    let mut exact: Vec<&String> = query.exact.iter().collect();
    exact.sort_unstable();
    exact.dedup();
    let mut bound = 0.0;
    for t in exact {
        let counts = dict.has_term(t)
            || (words.contains(t) && !dict.is_stopword(t) && !is_question_stopword(index, t));
        if counts {
            bound += saturated(t);
        }
    }
    for alternatives in &query.expanded {
        bound += alternatives
            .iter()
            .map(|(t, w)| w * saturated(t))
            .fold(0.0, f64::max);
    }
    bound
}

/// The static score of every passage for `question` (`|P|` values,
/// [`crate::embeddings::StaticEmbeddings::scores`]); `None` without static word embeddings or
/// when no word of `question` is in their vocabulary. Its misspelt words stand for their
/// neighbours ([`query_vector`]).
pub fn static_scores(index: &dyn IndexReader, question: &str) -> Option<Vec<f64>> {
    let vector = static_query_vector(index, question)?;
    Some(index.static_scores(&CodeScorer::new(&vector)))
}

/// `question`'s static query vector over `index`'s vocabulary ([`query_vector`], its misspelt
/// words standing for their neighbours); `None` without static word embeddings or when no word
/// of `question` is in their vocabulary.
pub fn static_query_vector(index: &dyn IndexReader, question: &str) -> Option<Vec<f32>> {
    let vocabulary = index.static_vocabulary()?;
    let misspelt: Vec<String> = misspelt(index, question)
        .into_iter()
        .map(|m| m.word)
        .collect();
    query_vector(question, vocabulary, &misspelt)
}

/// One question of the hybrid ranking, as the caller has it.
#[derive(Debug, Clone, Copy)]
pub struct HybridQuery<'a> {
    /// The question: its BM25 terms, static words and names.
    pub question: &'a str,
    /// Its query entities ([`crate::graph::extract_query_entities`], or the caller's NER).
    pub entities: &'a [String],
    /// Seeds the caller linked by embedding (the single file's nearest phrase nodes,
    /// [`crate::graph::link_entities`]); `None` seeds the query entities that are phrase nodes
    /// ([`entity_seeds`]).
    pub linked: Option<&'a [Seed]>,
    /// Dense passage scores from a neural encoder's query embedding, when given.
    pub dense: Option<&'a [f64]>,
    /// Which passages a filter lets through (`|P|` values, [`IndexReader::passages`]), or
    /// `None` for every passage. A passage left out scores 0 in every signal and in the graph
    /// share ([`super::PassageSignals::allowed`]), so the ranking is made among the allowed
    /// passages; `None` ranks as before filters existed, bit for bit.
    pub allowed: Option<&'a [bool]>,
}

/// One question's hybrid ranking ([`super::hybrid_scores`]) with the seeds it was mixed from.
#[derive(Debug, Clone, PartialEq)]
pub struct Hybrid {
    /// The score of every passage (`|P|` values; 0 for those [`HybridQuery::allowed`] leaves
    /// out).
    pub scores: Vec<f64>,
    /// The graph weight `w` the shares were mixed with.
    pub graph_weight: f64,
    /// The seeds, each weight its share of the score (summing to `graph_weight`); none when
    /// the graph has no share.
    pub seeds: Vec<Seed>,
    /// The weight of every seed the query linked, before that scaling and also when the
    /// graph has no share: each its phrase node's node specificity (HippoRAG §3.2).
    pub seed_specificity: Vec<f64>,
    /// The BM25 scores (`|P|` values) the passage share was made from.
    pub bm25: Vec<f64>,
    /// The passage share `b` (`|P|` values summing to 1, or all 0).
    pub passage_share: Vec<f64>,
    /// The graph share `g` (`|P|` values summing to at most 1).
    pub graph_share: Vec<f64>,
    /// What the question's names leave of the static weight ([`super::name_factor`], in
    /// [0, 1]).
    pub name_factor: f64,
}

/// Checks a filter's passage mask ([`HybridQuery::allowed`]) against an index of `passages`
/// passages.
///
/// # Errors
/// [`Error::InvalidRequest`] when the mask does not hold one value per passage.
pub fn check_allowed(allowed: Option<&[bool]>, passages: usize) -> Result<()> {
    match allowed {
        Some(a) if a.len() != passages => Err(Error::InvalidRequest(format!(
            "the filter's mask has {} values for {passages} passages",
            a.len()
        ))),
        _ => Ok(()),
    }
}

/// The `k` best `(passage, score)` pairs of `scores` (one per passage) among the passages
/// `allowed` lets through ([`super::is_allowed`]), best first, ties by passage id: exactly
/// [`top_k`] without a mask. As `top_k`, it lists passages scoring 0 after the positive ones
/// when fewer than `k` score above 0 (allowed passages only), so a filter never leaves fewer
/// results than the allowed passages could fill.
pub fn top_k_within(scores: &[f64], k: usize, allowed: Option<&[bool]>) -> Vec<(usize, f64)> {
    if allowed.is_none() {
        return top_k(scores, k);
    }
    let ids: Vec<usize> = (0..scores.len())
        .filter(|&j| is_allowed(allowed, j))
        .collect();
    let kept: Vec<f64> = ids.iter().map(|&j| scores[j]).collect();
    // `ids` ascends, so ties keep their order by passage id.
    top_k(&kept, k)
        .into_iter()
        .map(|(i, x)| (ids[i], x))
        .collect()
}

/// Checks the options both index forms read alike.
///
/// # Errors
/// [`Error::InvalidRequest`] for `top_k` 0 or a phrase weight outside [0, 1].
pub fn check_options(opts: &RetrieveOptions) -> Result<()> {
    if opts.top_k == 0 {
        return Err(Error::InvalidRequest("topK must be at least 1".into()));
    }
    if opts
        .phrase_weight
        .is_some_and(|w| !(0.0..=1.0).contains(&w))
    {
        return Err(Error::InvalidRequest(
            "phraseWeight must be in [0, 1]".into(),
        ));
    }
    Ok(())
}

/// Whether `opts` give the graph a share of the hybrid ranking: a phrase weight other than 0
/// and a walk (a damping factor other than 0).
pub fn has_graph_share(opts: &RetrieveOptions) -> bool {
    opts.phrase_weight != Some(0.0) && opts.damping != 0.0
}

/// The hybrid ranking of `q` over `index` with `opts`' weights ([`super::hybrid_scores`]):
/// BM25 fused with the static scores by page, mixed with the graph share of the seeds' PPR
/// vectors, among the passages [`HybridQuery::allowed`] lets through (the others score 0:
/// rank with [`top_k_within`]). `None` when neither share scores any allowed passage.
///
/// # Errors
/// [`Error::InvalidRequest`] for an index without BM25 or a mask without one value per
/// passage ([`check_allowed`]); the reader's errors (a damping factor it cannot serve).
pub fn hybrid(
    index: &dyn IndexReader,
    q: &HybridQuery<'_>,
    opts: &RetrieveOptions,
) -> Result<Option<Hybrid>> {
    check_allowed(q.allowed, index.passages())?;
    let lexical = bm25_scores(index, q.question)?;
    let statics = (opts.static_weight > 0.0)
        .then(|| static_scores(index, q.question))
        .flatten();
    let mut seeds = match q.linked {
        _ if !has_graph_share(opts) => Vec::new(),
        Some(linked) => linked.to_vec(),
        None => entity_seeds(q.entities, index.phrases()),
    };
    let vectors = seeds
        .iter()
        .map(|s| index.ppr_vector(s.phrase_id, opts.damping))
        .collect::<Result<Vec<_>>>()?;
    let weighted: Vec<(f64, &PprVector)> = seeds
        .iter()
        .zip(&vectors)
        .filter_map(|(s, v)| Some((s.weight, v.as_deref()?)))
        .collect();
    let signals = PassageSignals {
        bm25: &lexical,
        statics: statics.as_deref(),
        dense: q.dense,
        pages: index.pages(),
        allowed: q.allowed,
    };
    let dict = index
        .dictionary()
        .expect("bm25_scores checked the dictionary");
    let names = name_factor(q.question, index.language(), dict);
    let weights = HybridWeights {
        static_weight: opts.static_weight,
        dense_weight: opts.dense_weight,
        phrase_weight: opts.phrase_weight,
        name_factor: names,
    };
    let Some(h) = hybrid_scores(&signals, &weighted, &weights) else {
        return Ok(None);
    };
    let seed_specificity = seeds.iter().map(|s| s.weight).collect();
    if h.graph_weight == 0.0 {
        seeds.clear();
    }
    // Each seed's weight becomes its share of the score, as an explanation shows it.
    let mass: f64 = seeds.iter().map(|s| s.weight).sum();
    for s in &mut seeds {
        s.weight *= h.graph_weight / mass;
    }
    Ok(Some(Hybrid {
        scores: h.scores,
        graph_weight: h.graph_weight,
        seeds,
        seed_specificity,
        bm25: lexical,
        passage_share: h.passage_share,
        graph_share: h.graph_share,
        name_factor: names,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn top_k_within_ranks_the_allowed_passages_only_and_fills_k_from_them() {
        let scores = [0.5, 0.9, 0.0, 0.7, 0.5, 0.0];
        for k in [1, 3, 6, 10] {
            assert_eq!(top_k_within(&scores, k, None), top_k(&scores, k), "k = {k}");
            assert_eq!(
                top_k_within(&scores, k, Some(&[true; 6])),
                top_k(&scores, k),
                "k = {k}"
            );
        }
        // Passages 1 and 3 out: 0 and 4 (tied, by id), then the allowed ones scoring 0.
        let allowed = [true, false, true, false, true, true];
        assert_eq!(
            top_k_within(&scores, 4, Some(&allowed)),
            [(0, 0.5), (4, 0.5), (2, 0.0), (5, 0.0)]
        );
        assert_eq!(top_k_within(&scores, 10, Some(&allowed)).len(), 4);
        assert!(top_k_within(&scores, 3, Some(&[false; 6])).is_empty());
    }

    #[test]
    fn a_mask_must_have_one_value_per_passage() {
        assert!(check_allowed(None, 3).is_ok());
        assert!(check_allowed(Some(&[true, false, true]), 3).is_ok());
        let e = check_allowed(Some(&[true, false]), 3).unwrap_err();
        assert_eq!(e.kind(), "request");
        assert!(e.to_string().contains("2 values for 3 passages"), "{e}");
    }
}
