//! Seed linking (HippoRAG §3.2): query entities → query nodes, weighted by node specificity.
//!
//! Each query entity's embedding (from the same encoder as the index; in the browser, the
//! JS-called encoder) is linked to the phrase node with the highest cosine — the reference
//! implementation's top-1 nearest neighbour over phrase embeddings. An entity whose normalised
//! form ([`crate::text::normalize_phrase`], which the reference also applies to query
//! entities before encoding them) *is* a phrase node links to that node without a scan: under
//! the index's encoder the two strings embed identically, so that node is the nearest neighbour
//! (cosine 1); a scan of the int8 codes could only prefer another node through quantisation
//! error. The reported cosine is still the one computed from the codes. This skips the scan,
//! most of a `hipporag1` query's work, for most built-in entities. The seed's reset weight is
//! the node specificity `s_i = 1/|P_i|` of that phrase (§3.2: rarer phrases are more specific
//! and get more restart mass). Two entities linking to one node give it one weight, not two
//! (the reference writes the weight into the reset vector, it does not add).

use serde::Serialize;

use crate::graph::{MinMax, PhraseLookup, top_k};
use crate::index::Index;
use crate::text::normalize_phrase;
use crate::{Error, Result};

/// A query node (seed): a phrase node the query linked to.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Seed {
    /// What linked to the phrase: the query entity as given (HippoRAG 1), or the best linked
    /// fact containing the phrase, as `(subject, relation, object)` (HippoRAG 2).
    pub linked_from: String,
    /// Linked phrase node id.
    pub phrase_id: u32,
    /// Linked phrase (normalised).
    pub phrase: String,
    /// Cosine between the query entity (or fact) and phrase embeddings.
    pub cosine: f32,
    /// Node specificity `1/|P_i|` of the phrase.
    pub specificity: f32,
    /// Reset weight in PPR (HippoRAG 1: the specificity; HippoRAG 2: see [`fact_seeds`]).
    pub weight: f64,
}

/// Checks that `values` holds `rows × dim` floats for the index's encoder.
pub fn check_dims(index: &Index, what: &'static str, values: usize, rows: usize) -> Result<()> {
    let dim = index.dim();
    if values != rows * dim {
        return Err(Error::DimensionMismatch {
            what,
            expected: rows * dim,
            found: values,
            rows,
            dim,
            encoder: index.header.encoder.id.clone(),
        });
    }
    Ok(())
}

/// Links every entity (row `k` of the row-major `embeddings`, `entities.len() × dim`) to its
/// nearest phrase node.
///
/// # Errors
/// [`Error::DimensionMismatch`] if `embeddings.len() != entities.len() × dim`;
/// [`Error::InvalidRequest`] if the index has no phrase node.
///
/// `candidates` > 0 links through the binary-code prefilter
/// ([`crate::embeddings::VectorIndex::nearest_many_prefiltered`]): only that many rows per entity,
/// closest in Hamming distance of sign bits, are rescored exactly; 0 scans every phrase.
pub fn link_entities(
    index: &Index,
    entities: &[String],
    embeddings: &[f32],
    candidates: usize,
) -> Result<Vec<Seed>> {
    check_dims(index, "embeddings", embeddings.len(), entities.len())?;
    if index.phrases.is_empty() && !entities.is_empty() {
        return Err(Error::InvalidRequest(
            "the index has no phrase node to link to".into(),
        ));
    }
    let dim = index.dim();
    // Exact phrase-node matches first; only the other entities' embeddings are scanned.
    let exact: Vec<Option<u32>> = entities
        .iter()
        .map(|e| index.phrase_id(&crate::text::normalize_phrase(e)))
        .collect();
    let rest: Vec<f32> = embeddings
        .chunks_exact(dim.max(1))
        .zip(&exact)
        .filter(|(_, m)| m.is_none())
        .flat_map(|(row, _)| row.iter().copied())
        .collect();
    let mut scanned = if rest.is_empty() {
        Vec::new()
    } else if candidates == 0 {
        index.phrase_vectors.nearest_many(&rest)
    } else {
        index
            .phrase_vectors
            .nearest_many_prefiltered(&rest, candidates)
    }
    .into_iter();
    let nearest = exact
        .iter()
        .zip(embeddings.chunks_exact(dim.max(1)))
        .map(|(m, row)| match m {
            Some(i) => (*i as usize, index.phrase_vectors.cosine(row, *i as usize)),
            None => scanned
                .next()
                .expect("one scan result per unmatched entity"),
        });
    Ok(entities
        .iter()
        .zip(nearest)
        .map(|(entity, (i, cosine))| Seed {
            linked_from: entity.clone(),
            phrase_id: i as u32,
            phrase: index.phrases[i].clone(),
            cosine,
            specificity: index.specificity[i],
            weight: f64::from(index.specificity[i]),
        })
        .collect())
}

/// The PPR reset vector over `nodes` nodes (phrase nodes first): `reset[i] = weight` of the seed
/// on phrase `i`, 0 elsewhere (a second seed on the same phrase overwrites, as in the reference).
pub fn reset_vector(nodes: usize, seeds: &[Seed]) -> Vec<f64> {
    let mut r = vec![0.0; nodes];
    for s in seeds {
        r[s.phrase_id as usize] = s.weight;
    }
    r
}

/// A fact (triple) linked to the query by HippoRAG 2's query-to-triple linking.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LinkedFact {
    /// Fact id (position in the index's fact list).
    pub fact_id: u32,
    /// Subject phrase.
    pub subject: String,
    /// Relation.
    pub relation: String,
    /// Object phrase.
    pub object: String,
    /// Cosine between the query and fact embeddings.
    pub cosine: f32,
    /// Cosine min-max normalised over all facts of the index (the reference's fact score).
    pub score: f32,
}

/// Query-to-triple linking (HippoRAG 2, `get_fact_scores` + top `linking_top_k`): the `k` facts
/// whose embeddings have the highest cosine with `query_embedding` (`dim` values), with scores
/// min-max normalised over every fact (all 1 when every cosine is equal). Ties → lower fact id.
///
/// # Errors
/// [`Error::DimensionMismatch`] for a wrong-sized query; [`Error::InvalidRequest`] when the index
/// was built without fact embeddings (`hipporag index --fact-vectors`).
pub fn link_facts(index: &Index, query_embedding: &[f32], k: usize) -> Result<Vec<LinkedFact>> {
    check_dims(index, "queryEmbedding", query_embedding.len(), 1)?;
    let fv = index.fact_vectors.as_ref().ok_or_else(|| {
        Error::InvalidRequest("this index has no fact embeddings (HippoRAG 2 mode): rebuild it with `hipporag index --fact-vectors`".into())
    })?;
    let mut cos = Vec::with_capacity(fv.rows());
    fv.cosine_all(query_embedding, &mut cos);
    let scores: Vec<f64> = cos.iter().map(|&c| f64::from(c)).collect();
    let range = MinMax::of(scores.iter().copied());
    Ok(top_k(&scores, k)
        .into_iter()
        .map(|(f, _)| {
            let fact = &index.facts[f];
            let c = cos[f];
            LinkedFact {
                fact_id: f as u32,
                subject: index.phrases[fact.subject as usize].clone(),
                relation: fact.relation.clone(),
                object: index.phrases[fact.object as usize].clone(),
                cosine: c,
                score: range.scale(f64::from(c)) as f32,
            }
        })
        .collect())
}

/// Seed phrases from linked facts (HippoRAG 2, `graph_search_with_fact_entities`, current
/// reference): each fact's subject and object receive `score / |P_i|` (the fact score scaled by
/// node specificity); a phrase's weight is the mean over the linked facts that contain it; only
/// the `keep` highest-weighted phrases stay (reference: `linking_top_k` = 5). Seed fields:
/// `linked_from` is the best linked fact containing the phrase, `cosine` that fact's query cosine,
/// `specificity` the phrase's `1/|P_i|`, `weight` its reset weight.
pub fn fact_seeds(index: &Index, facts: &[LinkedFact], keep: usize) -> Vec<Seed> {
    // phrase id → (sum of contributions, number of facts, best fact index)
    let mut acc: std::collections::BTreeMap<u32, (f64, u32, usize)> =
        std::collections::BTreeMap::new();
    for (k, lf) in facts.iter().enumerate() {
        let fact = &index.facts[lf.fact_id as usize];
        let mut ends = vec![fact.subject];
        if fact.object != fact.subject {
            ends.push(fact.object);
        }
        for p in ends {
            let e = acc.entry(p).or_insert((0.0, 0, k));
            e.0 += f64::from(lf.score) * f64::from(index.specificity[p as usize]);
            e.1 += 1;
            if facts[e.2].score < lf.score {
                e.2 = k;
            }
        }
    }
    let mut seeds: Vec<Seed> = acc
        .into_iter()
        .map(|(p, (sum, count, best))| {
            let f = &facts[best];
            Seed {
                linked_from: format!("({}, {}, {})", f.subject, f.relation, f.object),
                phrase_id: p,
                phrase: index.phrases[p as usize].clone(),
                cosine: f.cosine,
                specificity: index.specificity[p as usize],
                weight: sum / f64::from(count),
            }
        })
        .collect();
    seeds.sort_unstable_by(|a, b| {
        b.weight
            .total_cmp(&a.weight)
            .then(a.phrase_id.cmp(&b.phrase_id))
    });
    seeds.truncate(keep);
    seeds
}

/// The hybrid ranking's seeds: each query entity that is a phrase node (its normalised text,
/// or in Russian another inflected form of it: [`PhraseLookup::phrase`]), once per node, in
/// the entities' order, with reset weight = node specificity `1/|Pᵢ|` (HippoRAG §3.2). An
/// entity that is no node seeds nothing: the index in pieces cannot search every phrase
/// embedding for the nearest node, so neither does the single file.
pub fn entity_seeds(entities: &[String], index: &dyn PhraseLookup) -> Vec<Seed> {
    let mut out: Vec<Seed> = Vec::new();
    for e in entities {
        let Some(node) = index.phrase(&normalize_phrase(e)) else {
            continue;
        };
        if out.iter().any(|s| s.phrase_id == node.id) {
            continue;
        }
        out.push(Seed {
            linked_from: e.clone(),
            phrase_id: node.id,
            phrase: node.text,
            cosine: 1.0,
            specificity: node.specificity,
            weight: f64::from(node.specificity),
        });
    }
    out
}
