//! The activated subgraph: the phrase-graph edges among a chosen set of phrase nodes.
//!
//! A front end that explains a ranking draws the seeds, the phrases with the highest PPR
//! probability and the phrases that fed the top passages; [`subgraph`] gives it the edges among
//! exactly those nodes, so a reader sees the multi-hop path PPR walked (HippoRAG §3.2, Fig. 2).
//!
//! An edge's kind follows how the graph was built ([`crate::index`]): a pair of phrases joined by
//! at least one fact (a triple, in either direction) holds a **triple edge** weighted by the
//! number of triples; any other stored pair is a **synonymy edge** weighted by the cosine of the
//! two phrase embeddings. The facts are looked up in `Index::facts` (sorted by subject, so one
//! binary search per node).

use std::collections::BTreeSet;

use serde::Serialize;

use crate::index::{Fact, Index};
use crate::{Error, Result};

/// The kind of a phrase-graph edge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum EdgeKind {
    /// At least one triple joins the two phrases; weight = number of triples.
    Triple,
    /// No triple joins them; weight = cosine of their embeddings (≥ the synonymy threshold τ).
    Synonymy,
}

/// One undirected edge of the phrase graph, `source < target`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SubgraphEdge {
    /// The smaller phrase id.
    pub source: u32,
    /// The larger phrase id.
    pub target: u32,
    /// The stored edge weight (triple count or synonymy cosine), as PPR uses it.
    pub weight: f32,
    /// Triple or synonymy edge.
    pub kind: EdgeKind,
    /// The facts joining the pair, in either direction (`subject`, `relation`, `object` with
    /// phrase ids), sorted as in the index; empty for a synonymy edge.
    pub facts: Vec<Fact>,
}

/// The edges of the phrase graph whose two ends are both in `phrase_ids` (duplicates ignored),
/// sorted by `(source, target)`.
///
/// # Errors
/// [`Error::InvalidRequest`] when an id is not a phrase node of the index.
pub fn subgraph(index: &Index, phrase_ids: &[u32]) -> Result<Vec<SubgraphEdge>> {
    let n = index.phrases.len();
    if let Some(bad) = phrase_ids.iter().find(|&&i| i as usize >= n) {
        return Err(Error::InvalidRequest(format!(
            "phraseIds: {bad} is not a phrase id (the index has {n} phrases)"
        )));
    }
    let set: BTreeSet<u32> = phrase_ids.iter().copied().collect();
    let mut edges = Vec::new();
    for &a in &set {
        let Some(row) = index.graph.outer_view(a as usize) else {
            continue;
        };
        for (b, &weight) in row.iter() {
            let b = b as u32;
            if b <= a || !set.contains(&b) {
                continue;
            }
            let facts: Vec<Fact> = facts_from(index, a, b)
                .chain(facts_from(index, b, a))
                .cloned()
                .collect();
            let kind = if facts.is_empty() {
                EdgeKind::Synonymy
            } else {
                EdgeKind::Triple
            };
            edges.push(SubgraphEdge {
                source: a,
                target: b,
                weight,
                kind,
                facts,
            });
        }
    }
    Ok(edges)
}

/// The facts with subject `s` and object `o`.
fn facts_from(index: &Index, s: u32, o: u32) -> impl Iterator<Item = &Fact> {
    let start = index.facts.partition_point(|f| f.subject < s);
    index.facts[start..]
        .iter()
        .take_while(move |f| f.subject == s)
        .filter(move |f| f.object == o)
}
