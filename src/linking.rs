//! Seed linking (HippoRAG §3.2): query entities → query nodes, weighted by node specificity.
//!
//! Each query entity's embedding (from the same encoder as the index; in the browser, the
//! JS-called encoder) is linked to the phrase node with the highest cosine — the reference
//! implementation's top-1 nearest neighbour over phrase embeddings. The seed's reset weight is
//! the node specificity `s_i = 1/|P_i|` of that phrase (§3.2: rarer phrases are more specific
//! and get more restart mass). Two entities linking to one node give it one weight, not two
//! (the reference writes the weight into the reset vector, it does not add).

use serde::Serialize;

use crate::index::Index;
use crate::{Error, Result};

/// A query node chosen for one query entity.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Seed {
    /// The query entity as given.
    pub entity: String,
    /// Linked phrase node id.
    pub phrase_id: u32,
    /// Linked phrase (normalised).
    pub phrase: String,
    /// Cosine between the entity and phrase embeddings.
    pub cosine: f32,
    /// Node specificity `1/|P_i|` of the phrase: its reset weight.
    pub specificity: f32,
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
pub fn link_entities(index: &Index, entities: &[String], embeddings: &[f32]) -> Result<Vec<Seed>> {
    check_dims(index, "embeddings", embeddings.len(), entities.len())?;
    if index.phrases.is_empty() && !entities.is_empty() {
        return Err(Error::InvalidRequest(
            "the index has no phrase node to link to".into(),
        ));
    }
    let mut scratch = Vec::with_capacity(index.phrases.len());
    let dim = index.dim();
    Ok(entities
        .iter()
        .zip(embeddings.chunks_exact(dim.max(1)))
        .filter_map(|(entity, q)| {
            let (i, cosine) = index.phrase_vectors.nearest(q, &mut scratch)?;
            Some(Seed {
                entity: entity.clone(),
                phrase_id: i as u32,
                phrase: index.phrases[i].clone(),
                cosine,
                specificity: index.specificity[i],
            })
        })
        .collect())
}

/// The PPR reset vector over phrase nodes: `reset[i] = s_i` for every seed `i`, 0 elsewhere.
pub fn reset_vector(index: &Index, seeds: &[Seed]) -> Vec<f64> {
    let mut r = vec![0.0; index.phrases.len()];
    for s in seeds {
        r[s.phrase_id as usize] = f64::from(s.specificity);
    }
    r
}
