//! Graph construction (HippoRAG §3.1, "offline indexing"): [`GraphBuilder`].
//!
//! Passages are added with their triples ([`GraphBuilder::add_passage`], or
//! [`GraphBuilder::from_openie`] for whole OpenIE files); [`GraphBuilder::triple_graph`] then
//! makes steps 1–2 below, and [`TripleGraph::finish`] steps 3–5 into the index payload
//! ([`IndexData`]). `hipporag index`, `hipporag site`, the in-browser indexer and the synthetic
//! generator all build through it. From the OpenIE output of every passage:
//! 1. **Phrase nodes**: the subjects and objects of the triples, normalised with
//!    [`normalize_phrase`]; node ids follow the sorted order of the normalised strings, so the
//!    same input always yields the same ids.
//! 2. **Triple edges**: one undirected edge per pair of distinct phrases that share at least one
//!    triple, weighted by the number of such triples in the whole corpus (a triple whose subject
//!    and object normalise to the same phrase gives no edge, and is counted in the report).
//! 3. **Synonymy edges**: every phrase is encoded; a phrase links to at most `synonymy_k` other
//!    phrases whose cosine is ≥ τ (`synonymy_threshold`, 0.8 in the paper), weight = cosine.
//!    As in the reference, a phrase with at most 2 letters or digits seeks no synonyms (it can
//!    still be chosen by a longer phrase). A pair already joined by a triple edge keeps its
//!    triple edge (the reference overwrites the count with the cosine; we keep the stronger
//!    evidence that an extracted relation is). Exact neighbours: [`synonymy::synonymy_pairs`].
//!    Note: HippoRAG's igraph graph holds each triple edge twice (h→t and t→h in an undirected
//!    graph), doubling triple weights relative to synonymy weights; we store one undirected
//!    edge weighted by the count, as the paper describes. The neighbour search is exact:
//!    blocked matrix products (`matrixmultiply::sgemm`) over row blocks in parallel (rayon).
//! 4. **Passage-node matrix** `P` (`|N| × |P|`): entry `(i, j)` counts the distinct triples of
//!    passage `j` that have phrase `i` as subject or object; it is stored transposed (`Pᵀ`, CSR by
//!    passage). With it `Pᵀ·ppr` equals the reference's passage score, the sum over a passage's
//!    unique triples of `ppr[subject] + ppr[object]` (before its min-max scaling, which does not
//!    change the ranking). Node specificity counts the passages with a non-zero entry.
//! 5. **Facts** (distinct `(subject, relation, object)`), passage embeddings of
//!    `title + "\n" + text`, and — for HippoRAG 2 mode — fact embeddings of [`Fact::text`].

use std::collections::{BTreeMap, BTreeSet, HashMap};

use hipporag_wasm::embeddings::Encoder;
use hipporag_wasm::embeddings::{Quantization, Vectors};
use hipporag_wasm::index::SparseMatrix;
use hipporag_wasm::index::{BuildInfo, Counts, Csr, Fact, Header, IndexData, Passage};
use hipporag_wasm::lexical::Bm25Params;
use hipporag_wasm::text::normalize_phrase;
use hipporag_wasm::text::{Language, phrase_stem_key};
use sprs::TriMatI;

use crate::openie::OpenIeDoc;
use crate::progress::Progress;
use crate::{Error, Result};

pub mod synonymy;

/// Options of [`TripleGraph::finish`].
#[derive(Debug, Clone)]
pub struct BuildOptions {
    /// Synonymy threshold τ (cosine); paper default 0.8.
    pub synonymy_threshold: f32,
    /// Most synonymy neighbours per phrase; default 100.
    pub synonymy_k: usize,
    /// Storage of every embedding matrix.
    pub quantization: Quantization,
    /// Also encode and store fact embeddings (needed by HippoRAG 2 mode); default off.
    pub fact_vectors: bool,
    /// Texts per encoder call.
    pub batch_size: usize,
    /// The header's `build.generator`: what wrote the file (default `hipporag-wasm <version>`).
    pub generator: String,
    /// Also build the BM25 index of the passages ([`crate::bm25`]; the `bm25` and `hybrid`
    /// modes need it); default on, `None` leaves it out.
    pub bm25: Option<Bm25Params>,
    /// The passages' language ([`Language`]; default English): BM25's terms, and recorded in
    /// the header for the query side.
    pub language: Language,
    /// The words of BM25's lexicon of Thai, Lao, Khmer and Burmese, when they come from
    /// another segmenter ([`crate::lexicon::lexicon_of_words`]: the in-browser indexer is given
    /// the browser's `Intl.Segmenter` words); `None` (the default): ICU4X's, with the `lexicon`
    /// feature ([`crate::lexicon::lexicon`]), or none.
    pub lexicon_words: Option<Vec<String>>,
    /// Per passage, in the builder's order, its text's lines' weights for BM25
    /// ([`crate::bm25::build_weighted`]: `hipporag site` reads them from
    /// `data-pagefind-weight`); a passage with none (or past the end) weighs every line 1.
    /// Empty (the default): the index of unweighted passages, byte for byte.
    pub bm25_line_weights: Vec<Vec<f32>>,
    /// Per passage, in the builder's order, its title's headings' weights for BM25
    /// ([`crate::bm25::Weights::title`]: `hipporag site` gives Pagefind's heading weights,
    /// `h1` 7 … `h6` 2); a passage with none (or past the end) counts its title
    /// [`crate::bm25::TITLE_WEIGHT`] times. Empty (the default): every title so.
    pub bm25_title_weights: Vec<Vec<f32>>,
}

impl Default for BuildOptions {
    fn default() -> Self {
        Self {
            synonymy_threshold: 0.8,
            synonymy_k: 100,
            quantization: Quantization::Int8,
            fact_vectors: false,
            batch_size: 256,
            generator: format!("hipporag-wasm {}", env!("CARGO_PKG_VERSION")),
            bm25: Some(Bm25Params::default()),
            language: Language::English,
            lexicon_words: None,
            bm25_line_weights: Vec::new(),
            bm25_title_weights: Vec::new(),
        }
    }
}

/// What the build did, for the CLI summary.
#[derive(Debug, Clone, Default)]
pub struct BuildReport {
    /// Triples whose subject and object normalise to the same phrase (no edge).
    pub self_loop_triples: usize,
    /// Passages with no phrase node.
    pub passages_without_phrases: usize,
    /// Counts as written to the header.
    pub counts: Counts,
    /// Each encoding stage: (stage, texts encoded, wall-clock seconds) — phrases, passages and,
    /// when built, facts. The CLI prints texts/s from these.
    pub encoding: Vec<(&'static str, usize, f64)>,
}

/// Where the synonymy edges of [`TripleGraph::finish`] come from.
#[derive(Debug, Clone)]
pub enum Synonymy {
    /// The paper's: phrase embeddings with cosine ≥ τ, at most k per phrase
    /// ([`BuildOptions::synonymy_threshold`], [`BuildOptions::synonymy_k`]). As in the
    /// reference, a phrase with at most 2 letters or digits seeks no synonyms (it can still be
    /// chosen by a longer phrase), except a two-character CJK word ("北京"), which is a whole
    /// word where two Latin letters are an abbreviation.
    FromEmbeddings,
    /// Given pairs `(a, b) → weight` with `a < b` (the synthetic generator draws them).
    Given(BTreeMap<(u32, u32), f32>),
}

/// Collects passages and their triples; see the module docs.
#[derive(Debug, Clone, Default)]
pub struct GraphBuilder {
    passages: Vec<Passage>,
    /// Per passage: normalised (subject, trimmed relation, normalised object), empty ends dropped.
    triples: Vec<Vec<(String, String, String)>>,
}

impl GraphBuilder {
    /// An empty builder.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds one passage with its triples `[subject, relation, object]` as extracted: subjects
    /// and objects are normalised ([`normalize_phrase`]), relations trimmed, and a triple with
    /// an end that normalises to nothing is dropped. Passage ids follow the order of calls.
    pub fn add_passage(&mut self, passage: Passage, triples: &[[String; 3]]) {
        self.passages.push(passage);
        self.triples.push(
            triples
                .iter()
                .map(|[s, r, o]| {
                    (
                        normalize_phrase(s),
                        r.trim().to_string(),
                        normalize_phrase(o),
                    )
                })
                .filter(|(s, _, o)| !s.is_empty() && !o.is_empty())
                .collect(),
        );
    }

    /// A builder holding `passages` with their aligned OpenIE documents (`docs[j]` for
    /// `passages[j]`, see [`crate::openie::import_openie`]).
    ///
    /// # Errors
    /// [`Error::InvalidRequest`] if `docs` and `passages` differ in length.
    pub fn from_openie(passages: Vec<Passage>, docs: &[OpenIeDoc]) -> Result<Self> {
        if docs.len() != passages.len() {
            return Err(Error::InvalidRequest(format!(
                "{} OpenIE docs for {} passages",
                docs.len(),
                passages.len()
            )));
        }
        let mut b = Self::new();
        for (p, d) in passages.into_iter().zip(docs) {
            b.add_passage(p, &d.extracted_triples);
        }
        Ok(b)
    }

    /// Passages added so far.
    pub fn len(&self) -> usize {
        self.passages.len()
    }

    /// Whether no passage was added.
    pub fn is_empty(&self) -> bool {
        self.passages.is_empty()
    }

    /// Merges the inflected forms of a phrase into one node (Russian: the phrases with one
    /// [`phrase_stem_key`]), named by its most frequent form among the triples' subjects and
    /// objects (the smallest on ties). A no-op for languages without an inflection key
    /// (English, Chinese). [`GraphBuilder::build`] calls it with the options' language.
    pub fn merge_inflections(&mut self, language: Language) {
        let mut forms: BTreeMap<String, BTreeMap<String, usize>> = BTreeMap::new();
        for (s, _, o) in self.triples.iter().flatten() {
            for p in [s, o] {
                let Some(key) = phrase_stem_key(p, language) else {
                    return;
                };
                *forms.entry(key).or_default().entry(p.clone()).or_default() += 1;
            }
        }
        let mut name: HashMap<String, String> = HashMap::new();
        for f in forms.values() {
            let best = f
                .iter()
                .max_by_key(|&(form, n)| (*n, std::cmp::Reverse(form)))
                .map(|(form, _)| form.clone())
                .expect("a key has a form");
            for form in f.keys().filter(|&form| *form != best) {
                name.insert(form.clone(), best.clone());
            }
        }
        for (s, _, o) in self.triples.iter_mut().flatten() {
            for p in [s, o] {
                if let Some(n) = name.get(p.as_str()) {
                    *p = n.clone();
                }
            }
        }
    }

    /// Steps 1–2: phrase nodes (sorted), triple edges, facts and `Pᵀ`.
    pub fn triple_graph(self) -> TripleGraph {
        let phrase_set: BTreeSet<&str> = self
            .triples
            .iter()
            .flatten()
            .flat_map(|(s, _, o)| [s.as_str(), o.as_str()])
            .collect();
        let phrases: Vec<String> = phrase_set.iter().map(|s| s.to_string()).collect();
        let id = |p: &str| {
            phrases
                .binary_search_by(|x| x.as_str().cmp(p))
                .expect("phrase is in the table") as u32
        };
        let n = phrases.len();
        let mut triple_edges: BTreeMap<(u32, u32), f32> = BTreeMap::new();
        let mut facts: BTreeSet<Fact> = BTreeSet::new();
        let mut p_t = TriMatI::<f32, u32>::new((self.passages.len(), n));
        let (mut self_loop_triples, mut passages_without_phrases) = (0, 0);
        for (j, triples) in self.triples.iter().enumerate() {
            let mut counts: BTreeMap<u32, f32> = BTreeMap::new();
            let distinct: BTreeSet<&(String, String, String)> = triples.iter().collect();
            for (s, r, o) in distinct {
                let (a, b) = (id(s), id(o));
                *counts.entry(a).or_default() += 1.0;
                *counts.entry(b).or_default() += 1.0;
                facts.insert(Fact {
                    subject: a,
                    relation: r.clone(),
                    object: b,
                });
                if a == b {
                    self_loop_triples += 1;
                    continue;
                }
                *triple_edges.entry((a.min(b), a.max(b))).or_default() += 1.0;
            }
            if counts.is_empty() {
                passages_without_phrases += 1;
            }
            for (i, c) in counts {
                p_t.add_triplet(j, i as usize, c);
            }
        }
        TripleGraph {
            phrases,
            triple_edges,
            facts: facts.into_iter().collect(),
            passage_phrases: p_t.to_csr(),
            passages: self.passages,
            self_loop_triples,
            passages_without_phrases,
        }
    }

    /// Every step: [`GraphBuilder::triple_graph`], then [`TripleGraph::finish`] with synonymy
    /// edges from the phrase embeddings.
    ///
    /// # Errors
    /// As [`TripleGraph::finish`].
    pub fn build(
        self,
        encoder: &dyn Encoder,
        opts: &BuildOptions,
        progress: &dyn Progress,
    ) -> Result<(IndexData, BuildReport)> {
        let mut b = self;
        progress.start("phrase graph", b.passages.len() as u64);
        b.merge_inflections(opts.language);
        let graph = b.triple_graph();
        progress.advance(graph.passages.len() as u64);
        progress.finish();
        graph.finish(encoder, opts, Synonymy::FromEmbeddings, progress)
    }
}

/// Phrase nodes, triple edges, facts and `Pᵀ` of a corpus, before any encoding.
#[derive(Debug, Clone)]
pub struct TripleGraph {
    /// Normalised phrases, sorted; a phrase's position is its node id.
    pub phrases: Vec<String>,
    /// Undirected triple edges `(a, b)`, `a < b`, weighted by the number of triples joining them.
    pub triple_edges: BTreeMap<(u32, u32), f32>,
    /// Distinct facts, sorted.
    pub facts: Vec<Fact>,
    /// `Pᵀ`, `|P| × |N|`: occurrences of each phrase in each passage's distinct triples.
    pub passage_phrases: SparseMatrix,
    /// Passages, in the order they were added.
    pub passages: Vec<Passage>,
    /// Triples whose subject and object are the same phrase (no edge).
    pub self_loop_triples: usize,
    /// Passages with no phrase node.
    pub passages_without_phrases: usize,
}

impl TripleGraph {
    /// Steps 3–5: phrase embeddings and synonymy edges, the symmetric phrase graph, passage
    /// and (optionally) fact embeddings, and the header, as the index payload.
    ///
    /// # Errors
    /// [`Error::InvalidRequest`] if the synonymy threshold is not a cosine; the encoder's
    /// errors.
    pub fn finish(
        self,
        encoder: &dyn Encoder,
        opts: &BuildOptions,
        synonymy: Synonymy,
        progress: &dyn Progress,
    ) -> Result<(IndexData, BuildReport)> {
        if !(opts.synonymy_threshold.is_finite() && (-1.0..=1.0).contains(&opts.synonymy_threshold))
        {
            return Err(Error::InvalidRequest(format!(
                "synonymy threshold {} is not a cosine in [-1, 1]",
                opts.synonymy_threshold
            )));
        }
        let mut report = BuildReport {
            self_loop_triples: self.self_loop_triples,
            passages_without_phrases: self.passages_without_phrases,
            ..Default::default()
        };
        let info = encoder.info();
        let dim = info.dim as usize;
        let n = self.phrases.len();

        // 3. Embeddings and synonymy edges.
        let phrase_refs: Vec<&str> = self.phrases.iter().map(String::as_str).collect();
        let t = Timer::start();
        let phrase_emb = encode_all(
            encoder,
            &phrase_refs,
            "encoding phrases",
            opts.batch_size,
            progress,
        )?;
        report.encoding.push(("phrases", n, t.seconds()));
        // Each f32 matrix is quantised as soon as it is done with, and freed (their sizes on a
        // large site: docs/benchmarks.md, "Figures moved out of code comments"); the phrases'
        // before synonymy, which then normalises the f32 rows in place rather than copying them.
        let phrase_vectors = Vectors::from_f32(dim, &phrase_emb, opts.quantization);
        let synonyms = match synonymy {
            Synonymy::Given(pairs) => {
                drop(phrase_emb);
                pairs
            }
            Synonymy::FromEmbeddings => self.synonymy_from(phrase_emb, dim, opts, progress),
        };
        let (graph, edges, synonymy_edges) = symmetric_graph(n, &self.triple_edges, synonyms);

        // 5. Passage and fact embeddings.
        let (passage_vectors, fact_vectors) =
            self.passage_and_fact_vectors(encoder, opts, progress, &mut report)?;
        let bm25 = opts.bm25.map(|params| {
            progress.start("BM25 index", self.passages.len() as u64);
            let lexicon = match &opts.lexicon_words {
                Some(words) => crate::lexicon::lexicon_of_words(words),
                None => crate::lexicon::lexicon(&self.passages),
            };
            let b = crate::bm25::build_weighted(
                &self.passages,
                (&opts.bm25_line_weights, &opts.bm25_title_weights),
                opts.language,
                params,
                &lexicon,
            );
            progress.advance(self.passages.len() as u64);
            progress.finish();
            b
        });

        let counts = Counts {
            phrases: n as u32,
            passages: self.passages.len() as u32,
            edges: edges as u32,
            triple_edges: self.triple_edges.len() as u32,
            synonymy_edges,
            facts: self.facts.len() as u32,
        };
        report.counts = counts.clone();
        let data = IndexData {
            header: Header {
                encoder: info,
                counts,
                build: build_info(opts),
            },
            phrase_vectors,
            phrases: self.phrases,
            graph: Csr::from_sprs(&graph),
            passage_phrases: Csr::from_sprs(&self.passage_phrases),
            passages: self.passages,
            passage_vectors,
            facts: self.facts,
            fact_vectors,
            bm25,
            // Built by the caller with its own encoder (crate::static_embeddings::build).
            static_embeddings: None,
        };
        Ok((data, report))
    }
}

/// Encodes `texts` (the `what` of the report: "passages", "facts") and quantises them.
fn encode_vectors(
    encoder: &dyn Encoder,
    texts: &[String],
    what: &'static str,
    opts: &BuildOptions,
    progress: &dyn Progress,
    report: &mut BuildReport,
) -> Result<Vectors> {
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    let t = Timer::start();
    let emb = encode_all(
        encoder,
        &refs,
        &format!("encoding {what}"),
        opts.batch_size,
        progress,
    )?;
    report.encoding.push((what, refs.len(), t.seconds()));
    let dim = encoder.info().dim as usize;
    Ok(Vectors::from_f32(dim, &emb, opts.quantization))
}

/// The header's record of how the index was built.
fn build_info(opts: &BuildOptions) -> BuildInfo {
    BuildInfo {
        synonymy_threshold: opts.synonymy_threshold,
        synonymy_k: opts.synonymy_k as u32,
        quantization: opts.quantization,
        generator: opts.generator.clone(),
        language: opts.language,
        query_stopwords: match opts.language {
            Language::English => Vec::new(),
            l => {
                // Normalised as the query's words are compared.
                let mut w: Vec<String> = crate::bm25::stopwords(l)
                    .iter()
                    .map(|w| normalize_phrase(w))
                    .collect();
                w.sort();
                w.dedup();
                w
            }
        },
    }
}

impl TripleGraph {
    /// Step 5: the passages' vectors, and the facts' when `opts.fact_vectors`.
    fn passage_and_fact_vectors(
        &self,
        encoder: &dyn Encoder,
        opts: &BuildOptions,
        progress: &dyn Progress,
        report: &mut BuildReport,
    ) -> Result<(Vectors, Option<Vectors>)> {
        let passage_texts: Vec<String> = self.passages.iter().map(Passage::indexed_text).collect();
        let passage_vectors =
            encode_vectors(encoder, &passage_texts, "passages", opts, progress, report)?;
        drop(passage_texts);
        if !opts.fact_vectors {
            return Ok((passage_vectors, None));
        }
        let texts: Vec<String> = self.facts.iter().map(|f| f.text(&self.phrases)).collect();
        let fact_vectors = encode_vectors(encoder, &texts, "facts", opts, progress, report)?;
        Ok((passage_vectors, Some(fact_vectors)))
    }

    /// Step 3's synonymy edges from the phrase embeddings (`n × dim`, row-major, consumed).
    fn synonymy_from(
        &self,
        phrase_emb: Vec<f32>,
        dim: usize,
        opts: &BuildOptions,
        progress: &dyn Progress,
    ) -> BTreeMap<(u32, u32), f32> {
        progress.start("synonymy edges", self.phrases.len() as u64);
        let seeks: Vec<bool> = self
            .phrases
            .iter()
            .map(|p| {
                let n = p.chars().filter(|c| c.is_alphanumeric()).count();
                n > 2 || (n == 2 && p.chars().any(hipporag_wasm::text::is_cjk))
            })
            .collect();
        let pairs = synonymy::synonymy_pairs(
            phrase_emb,
            &seeks,
            dim,
            opts.synonymy_threshold,
            opts.synonymy_k,
            progress,
        );
        progress.finish();
        pairs
    }
}

/// The phrase graph (`n × n`, CSR, both directions stored): every triple edge, and every
/// synonymy pair not already joined by a triple. Returns the graph, the undirected edges and how
/// many of them are synonymy edges.
fn symmetric_graph(
    n: usize,
    triple_edges: &BTreeMap<(u32, u32), f32>,
    synonyms: BTreeMap<(u32, u32), f32>,
) -> (SparseMatrix, usize, u32) {
    let mut edges: BTreeMap<(u32, u32), f32> = triple_edges.clone();
    let mut synonymy_edges = 0u32;
    for ((a, b), w) in synonyms {
        if let std::collections::btree_map::Entry::Vacant(e) = edges.entry((a, b)) {
            e.insert(w);
            synonymy_edges += 1;
        }
    }
    let mut g = TriMatI::<f32, u32>::with_capacity((n, n), edges.len() * 2);
    for (&(a, b), &w) in &edges {
        g.add_triplet(a as usize, b as usize, w);
        g.add_triplet(b as usize, a as usize, w);
    }
    (g.to_csr(), edges.len(), synonymy_edges)
}

/// Encodes `texts` in batches of `batch`, reporting progress as stage `stage`; returns
/// `texts.len() × dim` f32, row-major.
///
/// # Errors
/// The encoder's.
pub fn encode_all(
    encoder: &dyn Encoder,
    texts: &[&str],
    stage: &str,
    batch: usize,
    progress: &dyn Progress,
) -> Result<Vec<f32>> {
    progress.start(stage, texts.len() as u64);
    let mut out = Vec::with_capacity(texts.len() * encoder.info().dim as usize);
    for chunk in texts.chunks(batch.max(1)) {
        out.extend(encoder.encode(chunk)?);
        progress.advance(chunk.len() as u64);
    }
    progress.finish();
    Ok(out)
}

/// Wall-clock time of an encoding stage, for the report (zero where the platform has no clock:
/// wasm32 without a host).
struct Timer(#[cfg(not(target_arch = "wasm32"))] std::time::Instant);

impl Timer {
    fn start() -> Self {
        Timer(
            #[cfg(not(target_arch = "wasm32"))]
            std::time::Instant::now(),
        )
    }

    fn seconds(&self) -> f64 {
        #[cfg(not(target_arch = "wasm32"))]
        return self.0.elapsed().as_secs_f64();
        #[cfg(target_arch = "wasm32")]
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hipporag_wasm::embeddings::HashedNgramEncoder;
    use hipporag_wasm::index::Index;

    fn doc(triples: &[[&str; 3]]) -> OpenIeDoc {
        OpenIeDoc {
            extracted_triples: triples.iter().map(|t| t.map(String::from)).collect(),
            ..Default::default()
        }
    }

    fn passage(t: &str) -> Passage {
        Passage {
            title: t.into(),
            text: format!("text of {t}"),
            url: None,
        }
    }

    #[test]
    fn builds_nodes_edges_p_and_specificity() {
        let docs = vec![
            doc(&[
                ["Alice", "works at", "Stanford"],
                ["Alice", "studies", "Alzheimer's"],
            ]),
            doc(&[
                ["Stanford", "is in", "California"],
                ["stanford", "located in", "California"],
            ]),
            doc(&[["Bob", "is", "bob"]]),
        ];
        let passages = vec![passage("a"), passage("b"), passage("c")];
        let opts = BuildOptions {
            synonymy_threshold: 0.99,
            ..Default::default()
        };
        let (data, report) = GraphBuilder::from_openie(passages, &docs)
            .unwrap()
            .build(&HashedNgramEncoder::default(), &opts, &())
            .unwrap();
        assert_eq!(
            data.phrases,
            vec!["alice", "alzheimer s", "bob", "california", "stanford"]
        );
        assert_eq!(report.self_loop_triples, 1);
        assert_eq!(data.header.counts.triple_edges, 3);
        let idx = Index::from_data(data).unwrap();
        // Two triples join stanford and california: weight 2.
        assert_eq!(idx.graph.get(4, 3), Some(&2.0));
        assert_eq!(idx.graph.get(3, 4), Some(&2.0));
        // Stanford occurs in passages 0 and 1: specificity 1/2; its count in passage 1 is 2.
        assert_eq!(idx.specificity[4], 0.5);
        assert_eq!(idx.passage_phrases.get(1, 4), Some(&2.0));
        assert_eq!(idx.facts.len(), 5);
    }
}
