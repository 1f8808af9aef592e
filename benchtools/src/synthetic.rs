//! A seeded generator of synthetic indexes at HippoRAG 2's MuSiQue scale, for benchmarks.
//!
//! HippoRAG 2's MuSiQue graph has ≈ 97k nodes (≈ 85k phrase nodes + 11,656 passage nodes) and
//! ≈ 1.4M edges, mostly synonymy edges. [`generate`] builds an [`IndexData`] of any such size
//! that goes through the normal file format and [`hipporag_wasm::Retriever::from_bytes`]:
//!
//! 1. **Phrases**: `phrases` distinct random pronounceable names ("kadu rimesa"), sorted (node
//!    ids follow sorted order, as in [`hipporag_indexer::graph`]). Each gets a popularity weight
//!    `w = rank^(−1/(γ−1))` for a random rank: the Chung–Lu model of a power-law degree
//!    distribution with exponent γ (`degree_exponent`), so a few hubs and a long tail.
//! 2. **Passages**: a random partition gives every phrase to one passage (so every phrase is in
//!    some triple, as in a real index), then each passage draws more phrases by popularity up to
//!    `phrases_per_passage` on average. Triples: the passage's first phrase (its topic, also its
//!    title) is the subject of one triple with each other phrase, plus one triple per three
//!    phrases between two of its other phrases; relations come from a small fixed list.
//!    Passage text = the triples as sentences.
//! 3. **Edges** as [`hipporag_indexer::graph`] makes them: triple edges (weight = triples between the pair),
//!    `Pᵀ` (occurrence counts); then synonymy edges (weight uniform in `[0.8, 1)`) between pairs
//!    drawn with probability ∝ `w_a · w_b` (Chung–Lu) until the HippoRAG 2 graph — phrase–phrase
//!    edges plus one passage–phrase edge per non-zero of `Pᵀ` ([`hipporag_wasm::graph`]) — has
//!    exactly `edges` undirected edges.
//! 4. **Embeddings** (int8): the built-in [`HashedNgramEncoder`] of the phrase names, passage texts
//!    and fact texts (`"s r o"`). The names are random, so these are in effect random unit
//!    vectors; because they really are that encoder's vectors, the index is queryable as any
//!    `hashed-ngram-v1` index (the built-in extractor finds the names in a question).
//! 5. **Questions** (MuSiQue format): "What connects A and C?" where A is a passage's topic, C the
//!    topic of another passage sharing a phrase with it; both passages are gold (`is_supporting`).
//!
//! Everything draws from one ChaCha8 stream seeded by `seed`: the same options give the same
//! bytes on every platform.

use std::collections::HashSet;

use rand::distr::Distribution;
use rand::distr::weighted::WeightedIndex;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;

use hipporag_indexer::graph::{BuildOptions, GraphBuilder, Synonymy, TripleGraph};
use hipporag_indexer::{Error, Result};
use hipporag_wasm::embeddings::HashedNgramEncoder;
use hipporag_wasm::index::{IndexData, Passage};
use serde::Serialize;

/// Parameters of [`generate`]; the defaults are HippoRAG 2's MuSiQue graph size.
#[derive(Debug, Clone, PartialEq)]
pub struct SyntheticOptions {
    /// Phrase nodes `|N|`.
    pub phrases: usize,
    /// Passages `|P|` (passage nodes in HippoRAG 2's graph).
    pub passages: usize,
    /// Undirected edges of the HippoRAG 2 graph: phrase–phrase (triple + synonymy) plus
    /// passage–phrase (non-zeros of `Pᵀ`).
    pub edges: usize,
    /// Seed of the random stream.
    pub seed: u64,
    /// Mean distinct phrases per passage (at least `phrases / passages`).
    pub phrases_per_passage: f64,
    /// Power-law exponent γ of the expected degrees (> 2).
    pub degree_exponent: f64,
    /// Embedding dimension of the hashed n-gram encoder.
    pub dim: usize,
    /// Questions to generate.
    pub questions: usize,
}

impl Default for SyntheticOptions {
    fn default() -> Self {
        Self {
            phrases: 85_000,
            passages: 11_656,
            edges: 1_400_000,
            seed: 1,
            phrases_per_passage: 10.0,
            degree_exponent: 2.5,
            dim: HashedNgramEncoder::DEFAULT_DIM,
            questions: 100,
        }
    }
}

/// A question in MuSiQue's format (what [`hipporag_indexer::eval::load_questions`] reads).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SyntheticQuestion {
    /// `synthetic-<n>`.
    pub id: String,
    /// The question text.
    pub question: String,
    /// The two gold passages.
    pub paragraphs: Vec<SyntheticParagraph>,
}

/// A gold passage of a [`SyntheticQuestion`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SyntheticParagraph {
    /// Passage title.
    pub title: String,
    /// Passage text.
    pub paragraph_text: String,
    /// Always true.
    pub is_supporting: bool,
}

/// Sizes of what was generated.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SyntheticStats {
    /// Phrase pairs joined by a triple.
    pub triple_edges: usize,
    /// Synonymy edges added to reach `edges`.
    pub synonymy_edges: usize,
    /// Passage–phrase edges (non-zeros of `Pᵀ`).
    pub passage_edges: usize,
    /// Distinct facts.
    pub facts: usize,
    /// Highest node degree in the HippoRAG 2 graph.
    pub max_degree: usize,
    /// Median node degree.
    pub median_degree: usize,
    /// 99th-percentile node degree.
    pub p99_degree: usize,
}

/// A generated index with its questions.
#[derive(Debug, Clone)]
pub struct Synthetic {
    /// The index payload (`to_bytes()` gives the file).
    pub data: IndexData,
    /// Questions in MuSiQue format.
    pub questions: Vec<SyntheticQuestion>,
    /// What was generated.
    pub stats: SyntheticStats,
}

const RELATIONS: &[&str] = &[
    "is part of",
    "is located in",
    "was founded by",
    "is a member of",
    "was born in",
    "works for",
    "created",
    "is married to",
    "is the capital of",
    "is a child of",
    "plays for",
    "released",
    "was directed by",
    "was written by",
    "is owned by",
    "is named after",
    "succeeded",
    "borders",
    "is headquartered in",
    "studied at",
];

/// Generates the index described in the module docs.
///
/// # Errors
/// [`Error::InvalidRequest`] when the sizes are inconsistent: fewer than 2 phrases or 1
/// passage, fewer phrases than passages, γ ≤ 2, or `edges` below the passage–phrase and triple
/// edges the other parameters imply, or above what the phrase pairs can hold.
pub fn generate(opts: &SyntheticOptions) -> Result<Synthetic> {
    check_sizes(opts)?;
    let mut rng = ChaCha8Rng::seed_from_u64(opts.seed);

    // 1. Phrases and popularity.
    let phrases = random_names(&mut rng, opts.phrases);
    let popular = popularity(&mut rng, opts.phrases, opts.degree_exponent);

    // 2. Passages: phrase lists and triples.
    let (lists, triples) = passages(&mut rng, &popular, opts);

    // 3. Passages and their triples → phrase nodes, triple edges, facts and Pᵀ (the indexer's
    // own graph construction, so the synthetic index is built as a real one is).
    let tg = triple_graph(&phrases, &lists, &triples);
    let passage_edges = tg.passage_phrases.nnz();
    let triple_edges = tg.triple_edges.len();
    let synonymy = synonymy_count(opts, passage_edges, triple_edges)?;

    // 4. Synonymy edges by Chung–Lu draws.
    let syn = synonymy_edges(&mut rng, &popular, &tg, synonymy)?;
    let build = BuildOptions {
        fact_vectors: true,
        generator: format!(
            "hipporag-wasm {} generate (synthetic, seed {})",
            env!("CARGO_PKG_VERSION"),
            opts.seed
        ),
        ..Default::default()
    };
    let encoder = HashedNgramEncoder::new(opts.dim);
    let (data, _) = tg.finish(&encoder, &build, Synonymy::Given(syn), &())?;

    // 5. Questions.
    let questions = questions(&mut rng, opts.questions, &phrases, &lists, &data.passages);
    let degree = degrees(&data);
    let stats = SyntheticStats {
        triple_edges,
        synonymy_edges: synonymy,
        passage_edges,
        facts: data.facts.len(),
        max_degree: *degree.last().expect("nodes"),
        median_degree: degree[degree.len() / 2],
        p99_degree: degree[degree.len() * 99 / 100],
    };
    Ok(Synthetic {
        data,
        questions,
        stats,
    })
}

/// A passage's triple: subject phrase, position in [`RELATIONS`], object phrase.
type Triple = (u32, usize, u32);

/// `Err` naming `generate` and `msg`.
fn invalid<T>(msg: String) -> Result<T> {
    Err(Error::InvalidRequest(format!("generate: {msg}")))
}

/// The checks on `opts` that need nothing generated (see [`generate`]'s errors).
fn check_sizes(opts: &SyntheticOptions) -> Result<()> {
    let (n, m) = (opts.phrases, opts.passages);
    if n < 2 || m < 1 || n < m {
        return invalid(format!(
            "{n} phrases and {m} passages: need at least 2 phrases, 1 passage and no more passages than phrases"
        ));
    }
    if n > u32::MAX as usize / 2 || m > u32::MAX as usize / 2 {
        return invalid("sizes exceed the index's 32-bit node ids".into());
    }
    if !(opts.degree_exponent > 2.0 && opts.degree_exponent.is_finite()) {
        return invalid(format!(
            "degree exponent {} must be > 2",
            opts.degree_exponent
        ));
    }
    if opts.dim == 0 {
        return invalid("dim must be positive".into());
    }
    Ok(())
}

/// Draws phrase ids by the Chung–Lu weight `rank^(−1/(γ−1))` of a random rank per phrase.
fn popularity(rng: &mut ChaCha8Rng, n: usize, degree_exponent: f64) -> WeightedIndex<f64> {
    let mut ranks: Vec<u32> = (0..n as u32).collect();
    ranks.shuffle(rng);
    let beta = 1.0 / (degree_exponent - 1.0);
    let weights: Vec<f64> = ranks
        .iter()
        .map(|&r| (f64::from(r) + 1.0).powf(-beta))
        .collect();
    WeightedIndex::new(&weights).expect("positive finite weights")
}

/// Each passage's distinct phrases (its topic first) and its triples.
fn passages(
    rng: &mut ChaCha8Rng,
    popular: &WeightedIndex<f64>,
    opts: &SyntheticOptions,
) -> (Vec<Vec<u32>>, Vec<Vec<Triple>>) {
    let (n, m) = (opts.phrases, opts.passages);
    let mut order: Vec<u32> = (0..n as u32).collect();
    order.shuffle(rng);
    let extra_mean = (opts.phrases_per_passage - n as f64 / m as f64).max(0.0);
    let extra_max = (2.0 * extra_mean).round() as usize;
    let mut lists: Vec<Vec<u32>> = Vec::with_capacity(m);
    let mut triples: Vec<Vec<Triple>> = Vec::with_capacity(m);
    for j in 0..m {
        let own = &order[j * n / m..(j + 1) * n / m];
        let list = passage_phrases(rng, popular, own, extra_max, n);
        triples.push(passage_triples(rng, &list));
        lists.push(list);
    }
    (lists, triples)
}

/// A passage's phrases: `own` (its share of the partition), then popular ones, up to
/// `0..=extra_max` draws and at least two phrases.
fn passage_phrases(
    rng: &mut ChaCha8Rng,
    popular: &WeightedIndex<f64>,
    own: &[u32],
    extra_max: usize,
    n: usize,
) -> Vec<u32> {
    let mut list = own.to_vec();
    let extras = rng.random_range(0..=extra_max);
    let mut draws = 0;
    while (list.len() < 2 || draws < extras) && draws < extras + 64 {
        let x = popular.sample(rng) as u32;
        if !list.contains(&x) {
            list.push(x);
        }
        draws += 1;
    }
    if list.len() < 2 {
        // Only when a passage's phrase keeps being drawn (tiny inputs): take any other one.
        let x = (list[0] + 1) % n as u32;
        list.push(x);
    }
    list
}

/// A passage's distinct triples: its topic `list[0]` with each other phrase, then one per
/// three phrases between two of the others; relations at random.
fn passage_triples(rng: &mut ChaCha8Rng, list: &[u32]) -> Vec<Triple> {
    let mut t: Vec<Triple> = list[1..]
        .iter()
        .map(|&x| (list[0], rng.random_range(0..RELATIONS.len()), x))
        .collect();
    if list.len() >= 3 {
        for _ in 0..list.len() / 3 {
            let a = rng.random_range(1..list.len());
            let mut b = rng.random_range(1..list.len() - 1);
            if b >= a {
                b += 1;
            }
            t.push((list[a], rng.random_range(0..RELATIONS.len()), list[b]));
        }
    }
    let mut seen = HashSet::new();
    t.retain(|x| seen.insert(*x));
    t
}

/// The indexer's triple graph of the passages (titled by their topic, their text the triples
/// as sentences).
fn triple_graph(phrases: &[String], lists: &[Vec<u32>], triples: &[Vec<Triple>]) -> TripleGraph {
    let mut builder = GraphBuilder::new();
    for (t, list) in triples.iter().zip(lists) {
        let title = title_case(&phrases[list[0] as usize]);
        let text = t
            .iter()
            .map(|&(s, r, o)| {
                format!(
                    "{} {} {}.",
                    title_case(&phrases[s as usize]),
                    RELATIONS[r],
                    phrases[o as usize]
                )
            })
            .collect::<Vec<_>>()
            .join(" ");
        let named: Vec<[String; 3]> = t
            .iter()
            .map(|&(s, r, o)| {
                [
                    phrases[s as usize].clone(),
                    RELATIONS[r].to_string(),
                    phrases[o as usize].clone(),
                ]
            })
            .collect();
        builder.add_passage(
            Passage {
                title,
                text,
                url: None,
            },
            &named,
        );
    }
    let tg = builder.triple_graph();
    debug_assert_eq!(
        tg.phrases, phrases,
        "random names are normalised and all used"
    );
    tg
}

/// The synonymy edges that bring the graph to `opts.edges`, or an error when the passages
/// already give more edges or the phrase pairs cannot hold them.
fn synonymy_count(
    opts: &SyntheticOptions,
    passage_edges: usize,
    triple_edges: usize,
) -> Result<usize> {
    let n = opts.phrases;
    let Some(synonymy) = opts.edges.checked_sub(passage_edges + triple_edges) else {
        return invalid(format!(
            "{} edges requested, but the passages already give {passage_edges} passage–phrase and {triple_edges} triple edges",
            opts.edges
        ));
    };
    let free_pairs = n * (n - 1) / 2 - triple_edges;
    if synonymy > free_pairs / 2 {
        return invalid(format!(
            "{synonymy} synonymy edges do not fit among {n} phrases (at most {} free pairs, half of them usable)",
            free_pairs
        ));
    }
    Ok(synonymy)
}

/// `count` synonymy edges between pairs drawn by popularity (Chung–Lu) that no triple joins,
/// weighted uniformly in `[0.8, 1)`.
fn synonymy_edges(
    rng: &mut ChaCha8Rng,
    popular: &WeightedIndex<f64>,
    tg: &TripleGraph,
    count: usize,
) -> Result<BTreeMap<(u32, u32), f32>> {
    let mut taken: HashSet<u64> = tg
        .triple_edges
        .keys()
        .map(|&(a, b)| u64::from(a) << 32 | u64::from(b))
        .collect();
    let mut syn: BTreeMap<(u32, u32), f32> = BTreeMap::new();
    let mut attempts = 0usize;
    while syn.len() < count {
        attempts += 1;
        if attempts > 100 * count + 1000 {
            return invalid(format!(
                "placed only {} of {count} synonymy edges: the degree distribution is too concentrated (raise the degree exponent)",
                syn.len()
            ));
        }
        let (a, b) = (popular.sample(rng) as u32, popular.sample(rng) as u32);
        if a == b || !taken.insert(u64::from(a.min(b)) << 32 | u64::from(a.max(b))) {
            continue;
        }
        let w = 0.8 + 0.2 * rng.random::<f32>();
        syn.insert((a.min(b), a.max(b)), w.min(0.999_999));
    }
    Ok(syn)
}

/// Up to `count` questions "What connects A and C?": A a passage's topic, C the topic of
/// another passage sharing a phrase with it, both passages gold.
fn questions(
    rng: &mut ChaCha8Rng,
    count: usize,
    phrases: &[String],
    lists: &[Vec<u32>],
    passages: &[Passage],
) -> Vec<SyntheticQuestion> {
    let mut holders: Vec<Vec<u32>> = vec![Vec::new(); phrases.len()];
    for (j, list) in lists.iter().enumerate() {
        for &x in list {
            holders[x as usize].push(j as u32);
        }
    }
    let mut questions = Vec::with_capacity(count);
    let mut tries = 0;
    while questions.len() < count && tries < 100 * count + 100 {
        tries += 1;
        let j1 = rng.random_range(0..lists.len());
        let list = &lists[j1];
        let bridge = list[rng.random_range(1..list.len())] as usize;
        let others: Vec<u32> = holders[bridge]
            .iter()
            .copied()
            .filter(|&j| j as usize != j1)
            .collect();
        if others.is_empty() {
            continue;
        }
        let j2 = others[rng.random_range(0..others.len())] as usize;
        let (a, c) = (list[0], lists[j2][0]);
        if a == c {
            continue;
        }
        let para = |j: usize| SyntheticParagraph {
            title: passages[j].title.clone(),
            paragraph_text: passages[j].text.clone(),
            is_supporting: true,
        };
        questions.push(SyntheticQuestion {
            id: format!("synthetic-{}", questions.len()),
            question: format!(
                "What connects {} and {}?",
                title_case(&phrases[a as usize]),
                title_case(&phrases[c as usize])
            ),
            paragraphs: vec![para(j1), para(j2)],
        });
    }
    questions
}

/// Every node's degree in the HippoRAG 2 graph (phrase–phrase edges plus passage–phrase
/// edges), ascending.
fn degrees(data: &IndexData) -> Vec<usize> {
    let (n, m) = (data.phrases.len(), data.passages.len());
    let degree_of = |indptr: &[u32], i: usize| (indptr[i + 1] - indptr[i]) as usize;
    let mut holders_count = vec![0usize; n];
    for &i in &data.passage_phrases.indices {
        holders_count[i as usize] += 1;
    }
    let mut degree: Vec<usize> = (0..n)
        .map(|i| degree_of(&data.graph.indptr, i) + holders_count[i])
        .collect();
    degree.extend((0..m).map(|j| degree_of(&data.passage_phrases.indptr, j)));
    degree.sort_unstable();
    degree
}

/// `count` distinct random names of 1–3 words of 2–3 consonant–vowel syllables, sorted.
fn random_names(rng: &mut ChaCha8Rng, count: usize) -> Vec<String> {
    const C: &[u8] = b"bdfghjklmnprstvz";
    const V: &[u8] = b"aeiou";
    let mut seen = HashSet::with_capacity(count);
    let mut names = Vec::with_capacity(count);
    while names.len() < count {
        let words = [1, 2, 2, 2, 3][rng.random_range(0..5)];
        let mut name = String::new();
        for w in 0..words {
            if w > 0 {
                name.push(' ');
            }
            for _ in 0..rng.random_range(2..=3) {
                name.push(C[rng.random_range(0..C.len())] as char);
                name.push(V[rng.random_range(0..V.len())] as char);
            }
        }
        if seen.insert(name.clone()) {
            names.push(name);
        }
    }
    names.sort_unstable();
    names
}

fn title_case(s: &str) -> String {
    s.split(' ')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_uppercase().chain(c).collect::<String>())
                .unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inconsistent_sizes_are_clear_errors() {
        let small = SyntheticOptions {
            phrases: 300,
            passages: 40,
            edges: 10,
            questions: 3,
            ..Default::default()
        };
        let e = generate(&small).unwrap_err().to_string();
        assert!(e.contains("10 edges requested"), "{e}");
        let e = generate(&SyntheticOptions {
            passages: 400,
            ..small.clone()
        })
        .unwrap_err()
        .to_string();
        assert!(e.contains("no more passages than phrases"), "{e}");
        let e = generate(&SyntheticOptions {
            edges: 1_000_000,
            ..small
        })
        .unwrap_err()
        .to_string();
        assert!(e.contains("do not fit"), "{e}");
    }
}
