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

#[cfg(all(test, feature = "indexer"))]
mod tests {
    use super::*;
    use crate::retriever::tests::tiny_index;

    #[test]
    fn edges_among_the_chosen_phrases_with_their_facts() {
        let index = tiny_index();
        let id = |p: &str| index.phrase_id(p).unwrap();
        let (sudhof, stanford, california, paris) = (
            id("thomas sudhof"),
            id("stanford university"),
            id("california"),
            id("paris"),
        );
        let edges = subgraph(&index, &[california, stanford, sudhof, paris, stanford]).unwrap();
        let pairs: Vec<(u32, u32)> = edges.iter().map(|e| (e.source, e.target)).collect();
        let mut want = vec![
            (sudhof.min(stanford), sudhof.max(stanford)),
            (stanford.min(california), stanford.max(california)),
        ];
        want.sort();
        assert_eq!(pairs, want);
        let e = edges
            .iter()
            .find(|e| e.source.min(e.target) == sudhof.min(stanford))
            .unwrap();
        assert_eq!(e.kind, EdgeKind::Triple);
        assert_eq!(e.weight, 1.0);
        assert_eq!(
            e.facts,
            vec![Fact {
                subject: sudhof,
                relation: "professor at".into(),
                object: stanford
            }]
        );
        assert!(subgraph(&index, &[paris]).unwrap().is_empty());
    }

    #[test]
    fn all_phrases_give_every_edge_with_the_header_kinds() {
        use crate::encoder::HashedNgramEncoder;
        use crate::graph::{BuildOptions, build_index};
        use crate::index::Passage;
        use crate::openie::OpenIeDoc;
        // A low synonymy threshold so that both kinds of edge occur.
        let docs: Vec<OpenIeDoc> = [
            ["Stanford University", "located in", "California"],
            ["Leland Stanford", "founded", "Stanford University"],
            ["University of California", "located in", "California"],
            ["Stanford", "rival of", "University of California"],
        ]
        .iter()
        .map(|t| OpenIeDoc {
            extracted_triples: vec![t.map(String::from)],
            ..Default::default()
        })
        .collect();
        let passages = (0..docs.len())
            .map(|i| Passage {
                title: format!("P{i}"),
                text: String::new(),
                url: None,
            })
            .collect();
        let opts = BuildOptions {
            synonymy_threshold: 0.3,
            ..Default::default()
        };
        let (data, _) =
            build_index(passages, &docs, &HashedNgramEncoder::default(), &opts, &()).unwrap();
        let index = Index::from_bytes(&data.to_bytes()).unwrap();
        let all: Vec<u32> = (0..index.phrases.len() as u32).collect();
        let edges = subgraph(&index, &all).unwrap();
        let c = &index.header.counts;
        assert!(c.triple_edges > 0 && c.synonymy_edges > 0, "{c:?}");
        assert_eq!(edges.len(), c.edges as usize);
        let triple: Vec<&SubgraphEdge> = edges
            .iter()
            .filter(|e| e.kind == EdgeKind::Triple)
            .collect();
        assert_eq!(triple.len(), c.triple_edges as usize);
        assert_eq!(edges.len() - triple.len(), c.synonymy_edges as usize);
        assert!(triple.iter().all(|e| e.weight == e.facts.len() as f32));
        assert!(
            edges
                .iter()
                .filter(|e| e.kind == EdgeKind::Synonymy)
                .all(|e| e.facts.is_empty() && (0.3..=1.0).contains(&e.weight))
        );
    }

    #[test]
    fn an_unknown_phrase_id_is_an_error() {
        let index = tiny_index();
        let n = index.phrases.len() as u32;
        let e = subgraph(&index, &[0, n]).unwrap_err();
        assert!(
            e.to_string().contains(&format!("{n} is not a phrase id")),
            "{e}"
        );
    }
}
