//! BM25 over passage terms: the lexical passage score of the `hybrid` mode and the `bm25`
//! baseline.
//!
//! Okapi BM25 as Robertson & Zaragoza give it ("The Probabilistic Relevance Framework: BM25 and
//! Beyond", 2009, eq. 3.15), with Lucene's non-negative IDF:
//!
//! ```text
//! score(q, p) = Σ_{t ∈ terms(q), distinct} idf(t) · (k1+1) · Q(tf(t,p) / (tf(t,p) + k1·(1 − b + b·|p|/avgdl)))
//! idf(t)      = ln(1 + (|P| − df(t) + 0.5) / (df(t) + 0.5))
//! ```
//!
//! `terms` is [`crate::text::terms`] of the passage (`title + "\n" + text`) or of the query,
//! in the index's [`Language`]; `|p|` counts a passage's indexed terms, read through Lucene's
//! one-byte length norm ([`crate::lexical`]) as Lucene's BM25 reads it: within an eighth of
//! the length, exact below 32. `avgdl` is the mean of those lengths (Lucene divides the exact
//! total of the terms instead).
//! The indexer drops stopwords from passages, so a query stopword finds no posting list and adds
//! nothing: the browser needs no stopword list.
//!
//! `Q` quantises each posting's term-frequency factor, which lies in (0, 1), to one of
//! [`IMPACT_LEVELS`] levels ([`impact`]): the posting's **impact**, as impact-ordered indexes
//! store a quantised score per posting instead of its term frequency and the passage's length
//! (Anh, de Kretser & Moffat, "Vector-space ranking with effective early termination", SIGIR
//! 2001; linear quantisation as in PISA's and Anserini's impact indexes). The IDF stays exact:
//! it needs only the posting list's length. So a site's term pieces hold each posting's impact
//! and a page needs no passage length at all (#32: the lengths were the part of the meta piece
//! that grew with the site); the single file keeps term frequencies and lengths and computes
//! the same impacts when it loads ([`Bm25Data::impacts`]), so the two rank the same.
//!
//! Stored ([`Bm25Data`]): the sorted term dictionary, one posting list per term (passage ids as
//! gaps, which postcard's varints store in a byte each for most, and term frequencies), and
//! each passage's length. Everything else (`df`, `avgdl`, the IDFs, the impacts) is derived at
//! load.

use serde::{Deserialize, Serialize};

use super::length_norm::quantised;
use crate::error::FormatProblem;
use crate::lexical::{QueryTerms, TermDictionary};
use crate::text::Language;
use crate::{Error, Result};

/// BM25's free parameters.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Bm25Params {
    /// Term-frequency saturation `k1` (≥ 0).
    pub k1: f32,
    /// Length normalisation `b` (0 = none, 1 = full).
    pub b: f32,
}

impl Default for Bm25Params {
    /// `k1` = 1.2, `b` = 0.75 (Lucene's and Pagefind's defaults; docs/tuning.md, "Hybrid ranking", has
    /// the dev-split figures that kept them).
    fn default() -> Self {
        Self { k1: 1.2, b: 0.75 }
    }
}

/// The inverted index as serialised in an index file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Bm25Data {
    /// `k1` and `b`.
    pub params: Bm25Params,
    /// How terms were made ([`crate::text::terms`]); queries are analysed the same way.
    pub language: Language,
    /// Distinct terms, sorted by bytes; a term's position is its id.
    pub terms: Vec<String>,
    /// Posting-list bounds: term `t`'s postings are `gaps[ptr[t]..ptr[t+1]]`, `terms + 1` entries.
    pub ptr: Vec<u32>,
    /// Passage ids of each posting list, ascending, stored as the difference to the previous id
    /// in the list (the first as the id itself).
    pub gaps: Vec<u32>,
    /// Term frequency of each posting (≥ 1).
    pub tf: Vec<u32>,
    /// Each passage's length for BM25's normalisation, `|P|` entries: its indexed terms but
    /// the lexicon words (`hipporag_indexer::bm25::build_with_lexicon`).
    pub doc_len: Vec<u32>,
    /// The terms the indexer left out of every passage as stopwords (the terms of its
    /// language's stopword list, `hipporag_indexer::bm25::stopword_terms`), sorted and
    /// distinct: a question's term found here is a stopword, never a misspelt word
    /// ([`TermDictionary::is_stopword`]). The index in pieces keeps them in its meta piece.
    pub stopwords: Vec<String>,
}

/// A loaded BM25 index: [`Bm25Data`] with absolute passage ids and the IDFs.
#[derive(Debug, Clone)]
pub struct Bm25 {
    params: Bm25Params,
    language: Language,
    terms: Vec<String>,
    ptr: Vec<u32>,
    passages: Vec<u32>,
    /// Each posting's [`impact`].
    impacts: Vec<u8>,
    idf: Vec<f32>,
    /// [`Bm25Data::stopwords`].
    stopwords: Vec<String>,
}

/// Levels of a posting's quantised term-frequency factor ([`impact`]): 32, five bits. The
/// sweep that chose it (16, 32, 64 and 256 levels, linear and logit scales, on the `dev`
/// halves and every corpus) is in docs/tuning.md, "BM25 impacts".
pub const IMPACT_LEVELS: u32 = 32;

/// A posting's impact: its term-frequency factor `x = tf / (tf + k1·(1 − b + b·|p|/avgdl))`,
/// which lies in (0, 1), quantised linearly to `⌊x·L⌋` of [`IMPACT_LEVELS`] `L` levels
/// (`0..L`). `norm` is `k1·(1 − b + b·|p|/avgdl)` ([`Bm25Data::impacts`]); `tf` ≥ 1.
pub fn impact(tf: u32, norm: f32) -> u8 {
    let tf = tf as f32;
    let x = tf / (tf + norm);
    let levels = IMPACT_LEVELS as f32;
    (x * levels).floor().clamp(0.0, levels - 1.0) as u8
}

/// The term-frequency factor an [`impact`] `q` stands for: the middle of its level,
/// `(q + 0.5) / L`.
pub fn impact_factor(q: u8) -> f32 {
    (f32::from(q) + 0.5) / IMPACT_LEVELS as f32
}

/// BM25's posting lists with an [`impact`] per posting instead of term frequencies and passage
/// lengths: what the query's term pieces of a site give a page ([`Bm25::from_impacts`]).
#[derive(Debug, Clone, PartialEq)]
pub struct ImpactPostings {
    /// `k1` and `b` (`k1` scales every score; `b` is already in the impacts).
    pub params: Bm25Params,
    /// How terms were made.
    pub language: Language,
    /// Distinct terms, sorted by bytes.
    pub terms: Vec<String>,
    /// Posting-list bounds, as [`Bm25Data::ptr`].
    pub ptr: Vec<u32>,
    /// Passage ids as gaps, as [`Bm25Data::gaps`].
    pub gaps: Vec<u32>,
    /// Each posting's [`impact`] (< [`IMPACT_LEVELS`]).
    pub impacts: Vec<u8>,
}

impl Bm25Data {
    /// Each posting's [`impact`], in posting order (`gaps.len()` bytes): `norm` from the
    /// passage's length as Lucene's one-byte length norm reads it
    /// (the one-byte length norms of `length_norm.rs`) and `avgdl` the mean of those `|P|` lengths. Expects
    /// data that [`Bm25::from_data`] accepts.
    pub fn impacts(&self) -> Vec<u8> {
        let n = self.doc_len.len();
        // Every length as Lucene's one-byte norm reads it (crate::lexical).
        let doc_len: Vec<u32> = self.doc_len.iter().map(|&l| quantised(l)).collect();
        let total: f64 = doc_len.iter().map(|&l| f64::from(l)).sum();
        let avgdl = if n == 0 {
            1.0
        } else {
            (total / n as f64).max(1e-9)
        };
        let (k1, b) = (f64::from(self.params.k1), f64::from(self.params.b));
        let norm: Vec<f32> = doc_len
            .iter()
            .map(|&l| (k1 * (1.0 - b + b * f64::from(l) / avgdl)) as f32)
            .collect();
        let mut out = Vec::with_capacity(self.gaps.len());
        for w in self.ptr.windows(2) {
            let mut p = 0usize;
            for k in w[0] as usize..w[1] as usize {
                p += self.gaps[k] as usize;
                out.push(impact(self.tf[k], norm[p]));
            }
        }
        out
    }

    /// Builds the inverted index of `docs`, one term list per passage (already analysed and
    /// stopword-free). Deterministic: [`Bm25Builder`] fed each passage in order.
    pub fn build(docs: &[Vec<String>], language: Language, params: Bm25Params) -> Self {
        let mut b = Bm25Builder::default();
        for doc in docs {
            b.add(doc);
        }
        b.finish(language, params)
    }
}

/// Builds a [`Bm25Data`] one passage at a time, so that a corpus' term lists need not all be
/// held at once (a large site's are gigabytes as strings): each term gets an id when first
/// seen, each passage adds its postings, and [`Bm25Builder::finish`] sorts the dictionary.
/// The same passages in the same order give the same [`Bm25Data`] as [`Bm25Data::build`].
#[derive(Debug, Default)]
pub struct Bm25Builder {
    ids: std::collections::HashMap<String, u32>,
    /// Terms by id (first-seen order).
    terms: Vec<String>,
    /// Postings `(passage, tf)` by term id, in passage order.
    postings: Vec<Vec<(u32, u32)>>,
    doc_len: Vec<u32>,
    scratch: Vec<u32>,
}

impl Bm25Builder {
    /// Adds the next passage (id = the passages added before it), given its terms (analysed
    /// and stopword-free, in any order; repeats count towards the term frequency).
    pub fn add<S: AsRef<str>>(&mut self, terms: &[S]) {
        self.add_with_length(terms, terms.len());
    }

    /// [`Bm25Builder::add`] with the passage's length for BM25's normalisation (`|d|`, in
    /// terms) given, where some of `terms` read the same text a second time (the indexer's
    /// lexicon words, `hipporag_indexer::bm25::build_with_lexicon`).
    pub fn add_with_length<S: AsRef<str>>(&mut self, terms: &[S], length: usize) {
        let p = self.doc_len.len() as u32;
        self.doc_len.push(length as u32);
        self.scratch.clear();
        for t in terms {
            let t = t.as_ref();
            let id = match self.ids.get(t) {
                Some(&id) => id,
                None => {
                    let id = self.terms.len() as u32;
                    self.ids.insert(t.to_string(), id);
                    self.terms.push(t.to_string());
                    self.postings.push(Vec::new());
                    id
                }
            };
            self.scratch.push(id);
        }
        self.scratch.sort_unstable();
        for run in self.scratch.chunk_by(|a, b| a == b) {
            self.postings[run[0] as usize].push((p, run.len() as u32));
        }
    }

    /// The index of the passages added, its dictionary sorted.
    pub fn finish(self, language: Language, params: Bm25Params) -> Bm25Data {
        drop(self.ids);
        let mut order: Vec<u32> = (0..self.terms.len() as u32).collect();
        order.sort_unstable_by(|&a, &b| self.terms[a as usize].cmp(&self.terms[b as usize]));
        let mut ptr = Vec::with_capacity(order.len() + 1);
        let total: usize = self.postings.iter().map(Vec::len).sum();
        let (mut gaps, mut tf) = (Vec::with_capacity(total), Vec::with_capacity(total));
        ptr.push(0);
        for &id in &order {
            let mut prev = 0;
            for &(p, f) in &self.postings[id as usize] {
                gaps.push(p - prev);
                tf.push(f);
                prev = p;
            }
            ptr.push(gaps.len() as u32);
        }
        drop(self.postings);
        let mut terms: Vec<Option<String>> = self.terms.into_iter().map(Some).collect();
        let terms = order
            .iter()
            .map(|&id| terms[id as usize].take().expect("each id once"))
            .collect();
        Bm25Data {
            params,
            language,
            terms,
            ptr,
            gaps,
            tf,
            doc_len: self.doc_len,
            stopwords: Vec::new(),
        }
    }
}

fn invalid(message: String) -> Error {
    FormatProblem::Invalid {
        field: "bm25",
        message,
    }
    .into()
}

/// Checks posting lists laid out as [`Bm25Data`]'s (`terms`, `ptr`, `gaps`, and `values`
/// term frequencies or impacts) for an index of `passages` passages, and pushes each posting's
/// passage id, list by list, onto `ids` when given. The single file's BM25 section
/// ([`Bm25::from_data`]) and a term piece of the index in pieces are checked by it alike.
///
/// # Errors
/// [`FormatProblem::Invalid`] (field `bm25`) naming the broken invariant: unsorted or repeated
/// terms, posting bounds that do not fit, or a passage id out of range or not ascending.
pub(crate) fn check_postings(
    terms: &[String],
    ptr: &[u32],
    gaps: &[u32],
    values: usize,
    passages: usize,
    mut ids: Option<&mut Vec<u32>>,
) -> Result<()> {
    if let Some(i) = terms.windows(2).position(|w| w[0] >= w[1]) {
        return Err(invalid(format!(
            "terms are not sorted and distinct at {}",
            i + 1
        )));
    }
    if ptr.len() != terms.len() + 1
        || ptr.first() != Some(&0)
        || ptr.windows(2).any(|w| w[0] > w[1])
        || *ptr.last().unwrap_or(&0) as usize != gaps.len()
        || gaps.len() != values
    {
        return Err(invalid(format!(
            "posting bounds: {} for {} terms, {} postings, {values} frequencies or impacts",
            ptr.len(),
            terms.len(),
            gaps.len(),
        )));
    }
    for (t, w) in ptr.windows(2).enumerate() {
        let mut prev: u64 = 0;
        for (k, &g) in gaps[w[0] as usize..w[1] as usize].iter().enumerate() {
            let p = prev + u64::from(g);
            if (k > 0 && g == 0) || p >= passages as u64 {
                return Err(invalid(format!(
                    "term \"{}\": posting {k} is passage {p}, not ascending below {passages}",
                    terms[t]
                )));
            }
            if let Some(ids) = ids.as_deref_mut() {
                ids.push(p as u32);
            }
            prev = p;
        }
    }
    Ok(())
}

/// The IDF of a term held by `df` of `passages` passages, the module's `idf(t)` (Lucene's
/// non-negative form, `ln(1 + (|P| − df + 0.5) / (df + 0.5))`, ≥ 0, in nats): `df` 0 gives
/// the largest IDF an index of `passages` passages has.
pub fn idf(df: u32, passages: usize) -> f32 {
    let (n, df) = (passages as f64, f64::from(df));
    (1.0 + (n - df + 0.5) / (df + 0.5)).ln() as f32
}

/// Checks BM25's parameters (`k1` finite and ≥ 0, `b` in [0, 1]).
fn check_params(params: Bm25Params) -> Result<()> {
    let (k1, b) = (params.k1, params.b);
    if k1.is_finite() && k1 >= 0.0 && (0.0..=1.0).contains(&b) {
        Ok(())
    } else {
        // (The values are not printed: float formatting would grow the site's
        // search module.)
        Err(invalid(
            "params: k1 must be finite and ≥ 0, and b in [0, 1]".into(),
        ))
    }
}

impl Bm25 {
    /// Validates stored data for an index of `passages` passages, derives the IDFs and computes
    /// each posting's impact ([`Bm25Data::impacts`]).
    ///
    /// # Errors
    /// [`FormatProblem::Invalid`] (field `bm25`) naming the broken invariant: unsorted or
    /// repeated terms, posting bounds that do not fit, a passage id out of range or not
    /// ascending, a zero term frequency, `doc_len` of the wrong length, stopwords not sorted
    /// and distinct, or parameters out of range.
    pub fn from_data(mut d: Bm25Data, passages: usize) -> Result<Self> {
        check_params(d.params)?;
        if d.doc_len.len() != passages {
            return Err(invalid(format!(
                "doc_len has {} entries for {passages} passages",
                d.doc_len.len()
            )));
        }
        let mut ids = Vec::with_capacity(d.gaps.len());
        check_postings(
            &d.terms,
            &d.ptr,
            &d.gaps,
            d.tf.len(),
            passages,
            Some(&mut ids),
        )?;
        if let Some(k) = d.tf.iter().position(|&f| f == 0) {
            return Err(invalid(format!("posting {k} has term frequency 0")));
        }
        if let Some(k) = d.stopwords.windows(2).position(|w| w[0] >= w[1]) {
            return Err(invalid(format!(
                "stopwords {k} and {} are not sorted and distinct",
                k + 1
            )));
        }
        let impacts = d.impacts();
        let stopwords = std::mem::take(&mut d.stopwords);
        Ok(Self::checked(
            ImpactPostings {
                params: d.params,
                language: d.language,
                terms: d.terms,
                ptr: d.ptr,
                gaps: d.gaps,
                impacts,
            },
            ids,
            passages,
        )
        .with_stopwords(stopwords))
    }

    /// Validates posting lists with impacts for an index of `passages` passages and derives the
    /// IDFs (`df` is a list's length): a site's term pieces hold these.
    ///
    /// # Errors
    /// As [`Bm25::from_data`], and an impact of [`IMPACT_LEVELS`] or more.
    pub fn from_impacts(d: ImpactPostings, passages: usize) -> Result<Self> {
        check_params(d.params)?;
        let mut ids = Vec::with_capacity(d.gaps.len());
        check_postings(
            &d.terms,
            &d.ptr,
            &d.gaps,
            d.impacts.len(),
            passages,
            Some(&mut ids),
        )?;
        if let Some(k) = d
            .impacts
            .iter()
            .position(|&q| u32::from(q) >= IMPACT_LEVELS)
        {
            return Err(invalid(format!(
                "posting {k} has impact {}, not below {IMPACT_LEVELS}",
                d.impacts[k]
            )));
        }
        Ok(Self::checked(d, ids, passages))
    }

    /// Postings already checked, with each posting's passage id `ids`: the IDFs derived.
    fn checked(d: ImpactPostings, ids: Vec<u32>, passages: usize) -> Self {
        let idf = d
            .ptr
            .windows(2)
            .map(|w| idf(w[1] - w[0], passages))
            .collect();
        Self {
            params: d.params,
            language: d.language,
            terms: d.terms,
            ptr: d.ptr,
            passages: ids,
            impacts: d.impacts,
            idf,
            stopwords: Vec::new(),
        }
    }

    /// This index with the indexer's stopword terms ([`Bm25Data::stopwords`]).
    fn with_stopwords(mut self, stopwords: Vec<String>) -> Self {
        self.stopwords = stopwords;
        self
    }

    /// The language terms are analysed in.
    pub fn language(&self) -> Language {
        self.language
    }

    /// `k1` and `b`.
    pub fn params(&self) -> Bm25Params {
        self.params
    }

    /// A term's id, if the index has it.
    pub fn term_id(&self, term: &str) -> Option<usize> {
        self.terms.binary_search_by(|t| t.as_str().cmp(term)).ok()
    }

    /// BM25 scores of every passage (`|P|` values) for a query with expanded words
    /// ([`crate::lexical::query_terms`]): [`Bm25::scores`] of `query.exact`, plus for each
    /// expanded word its best weighted alternative in the passage, `max_t w_t · bm25_t(p)`.
    pub fn expanded_scores(&self, query: &QueryTerms, passages: usize) -> Vec<f64> {
        let mut out = self.scores(&query.exact, passages);
        let mut best = vec![0.0f64; passages];
        for alternatives in &query.expanded {
            best.iter_mut().for_each(|b| *b = 0.0);
            for (term, w) in alternatives {
                if let Some(t) = self.term_id(term) {
                    self.for_each_posting(t, |p, s| best[p] = best[p].max(w * s));
                }
            }
            out.iter_mut().zip(&best).for_each(|(o, b)| *o += b);
        }
        out
    }

    /// Calls `f(passage, bm25_t(passage))` for each posting of term `t`.
    fn for_each_posting(&self, t: usize, mut f: impl FnMut(usize, f64)) {
        let (a, b) = (self.ptr[t] as usize, self.ptr[t + 1] as usize);
        let scale = self.idf[t] * (self.params.k1 + 1.0);
        for (&p, &q) in self.passages[a..b].iter().zip(&self.impacts[a..b]) {
            f(p as usize, f64::from(scale * impact_factor(q)));
        }
    }

    /// BM25 scores of every passage (`|P|` values, 0 for passages without a query term) for the
    /// analysed query terms `query`; repeated terms count once.
    pub fn scores(&self, query: &[String], passages: usize) -> Vec<f64> {
        let mut ids: Vec<usize> = query.iter().filter_map(|t| self.term_id(t)).collect();
        ids.sort_unstable();
        ids.dedup();
        let mut out = vec![0.0f64; passages];
        for t in ids {
            self.for_each_posting(t, |p, s| out[p] += s);
        }
        out
    }
}

/// The single file's whole dictionary, for [`crate::lexical`].
impl TermDictionary for Bm25 {
    fn has_term(&self, term: &str) -> bool {
        self.term_id(term).is_some()
    }

    fn is_stopword(&self, term: &str) -> bool {
        self.stopwords
            .binary_search_by(|s| s.as_str().cmp(term))
            .is_ok()
    }

    fn terms_with_prefix(&self, prefix: &str, f: &mut dyn FnMut(&str, u32)) {
        let from = self.terms.partition_point(|t| t.as_str() < prefix);
        for (t, term) in self.terms.iter().enumerate().skip(from) {
            if !term.starts_with(prefix) {
                break;
            }
            f(term, self.ptr[t + 1] - self.ptr[t]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn docs() -> Vec<Vec<String>> {
        let d = |s: &str| s.split(' ').map(str::to_string).collect::<Vec<_>>();
        vec![d("pickl modul pickl"), d("json modul"), d("venv")]
    }

    #[test]
    fn scores_match_a_hand_computed_case() {
        let params = Bm25Params { k1: 1.5, b: 0.75 };
        let data = Bm25Data::build(&docs(), Language::English, params);
        assert_eq!(data.terms, ["json", "modul", "pickl", "venv"]);
        // Postings: json → [1]; modul → [0, 1] (gaps 0, 1); pickl → [0]; venv → [2].
        assert_eq!(data.gaps, [1, 0, 1, 0, 2]);
        assert_eq!(data.tf, [1, 1, 1, 2, 1]);
        let bm = Bm25::from_data(data, 3).unwrap();
        let q = [
            "pickl".to_string(),
            "modul".to_string(),
            "absent".to_string(),
        ];
        let s = bm.scores(&q, 3);
        // N = 3, avgdl = (3 + 2 + 1) / 3 = 2.
        // idf(pickl) = ln(1 + (3 − 1 + 0.5)/(1 + 0.5)) = ln(8/3); idf(modul) = ln(1 + 1.5/2.5) = ln(1.6).
        // Passage 0 (|p| = 3): norm = 1.5·(0.25 + 0.75·3/2) = 2.0625.
        //   pickl: tf 2 → x = 2/4.0625 = 0.492 → level ⌊15.75⌋ = 15 → 15.5/32;
        //   modul: tf 1 → x = 1/3.0625 = 0.327 → level 10 → 10.5/32.
        // Passage 1 (|p| = 2): norm = 1.5; modul: x = 1/2.5 = 0.4 → level 12 → 12.5/32.
        let p0 = (8.0f64 / 3.0).ln() * 2.5 * 15.5 / 32.0 + 1.6f64.ln() * 2.5 * 10.5 / 32.0;
        let p1 = 1.6f64.ln() * 2.5 * 12.5 / 32.0;
        assert!((s[0] - p0).abs() < 1e-5, "{} vs {p0}", s[0]);
        assert!((s[1] - p1).abs() < 1e-5, "{} vs {p1}", s[1]);
        assert_eq!(s[2], 0.0);
        // Repeated query terms count once.
        let twice = ["modul".to_string(), "modul".to_string()];
        assert_eq!(bm.scores(&twice, 3)[1], bm.scores(&twice[..1], 3)[1]);
    }

    #[test]
    fn impacts_cover_every_level_and_keep_the_order_of_their_factors() {
        // A longer passage or a lower term frequency never gets a higher impact, and every
        // level stands for the middle of the factors it holds.
        let mut last = 0u8;
        for tf in 1..200 {
            let q = impact(tf, 1.2);
            assert!(q >= last, "tf {tf}");
            last = q;
            let x = tf as f32 / (tf as f32 + 1.2);
            assert!((impact_factor(q) - x).abs() <= 0.5 / IMPACT_LEVELS as f32 + 1e-6);
        }
        assert_eq!(u32::from(impact(u32::MAX, 0.0)), IMPACT_LEVELS - 1);
        assert_eq!(impact(1, f32::MAX), 0);
        let longer: Vec<u8> = (1..100).map(|l| impact(1, l as f32 / 10.0)).collect();
        assert!(longer.windows(2).all(|w| w[0] >= w[1]));
    }

    #[test]
    fn the_single_file_and_impact_postings_rank_the_same() {
        let data = Bm25Data::build(&docs(), Language::English, Bm25Params::default());
        let single = Bm25::from_data(data.clone(), 3).unwrap();
        let pieces = Bm25::from_impacts(
            ImpactPostings {
                params: data.params,
                language: data.language,
                terms: data.terms.clone(),
                ptr: data.ptr.clone(),
                gaps: data.gaps.clone(),
                impacts: data.impacts(),
            },
            3,
        )
        .unwrap();
        let q = ["pickl".to_string(), "modul".to_string()];
        assert_eq!(single.scores(&q, 3), pieces.scores(&q, 3));
        let mut bad = data.impacts();
        bad[0] = IMPACT_LEVELS as u8;
        let e = Bm25::from_impacts(
            ImpactPostings {
                params: data.params,
                language: data.language,
                terms: data.terms,
                ptr: data.ptr,
                gaps: data.gaps,
                impacts: bad,
            },
            3,
        )
        .unwrap_err();
        assert!(e.to_string().contains("impact 32"), "{e}");
    }

    #[test]
    fn bad_postings_are_format_errors() {
        let good = Bm25Data::build(&docs(), Language::English, Bm25Params::default());
        let mut d = good.clone();
        d.gaps[3] = 7; // "pickl" → passage 7 of 3
        let e = Bm25::from_data(d, 3).unwrap_err();
        assert_eq!(e.kind(), "format.invalid");
        assert!(e.to_string().contains("pickl"), "{e}");
        let mut d = good.clone();
        d.terms.swap(0, 1);
        assert!(Bm25::from_data(d, 3).is_err());
        let mut d = good.clone();
        d.ptr.pop();
        assert!(Bm25::from_data(d, 3).is_err());
        assert!(
            Bm25::from_data(good, 4).is_err(),
            "doc_len of the wrong length"
        );
    }
}
