//! Cluster pieces: the IVF clusters of the static passage codes in ascending size, each piece
//! as many as fit in [`PieceOptions::cluster_piece_bytes`] (a large cluster a piece of its
//! own, small ones sharing).

use hipporag_wasm::embeddings::{NO_CLUSTER, StaticEmbeddingsData};
use hipporag_wasm::pieces::{ClusterPiece, ClusterRef, encode_piece, tag};

use super::cut::cut;
use super::{Piece, PieceOptions, gaps, gzip};

/// The cluster pieces of `s` (gzipped, unnamed, in the order of their clusters' ids) and the
/// clusters each holds.
pub(super) fn pieces(
    s: &StaticEmbeddingsData,
    opts: &PieceOptions,
) -> (Vec<ClusterRef>, Vec<Piece>) {
    let dim_bytes = s.dim as usize / 8;
    let mut members: Vec<Vec<u32>> = vec![Vec::new(); s.centroids.len() / dim_bytes];
    for (j, &k) in s.clusters.iter().enumerate() {
        if k != NO_CLUSTER {
            members[k as usize].push(j as u32);
        }
    }
    let sizes: Vec<usize> = members.iter().map(|m| m.len() * (dim_bytes + 1)).collect();
    let groups = groups(&sizes, opts.cluster_piece_bytes);
    let pieces = crate::parallel::map(&groups, |g| {
        let mut piece = ClusterPiece::default();
        for &k in g {
            piece.counts.push(members[k].len() as u32);
            piece.gaps.extend(gaps(&members[k]));
            for &j in &members[k] {
                let codes = j as usize * dim_bytes..(j as usize + 1) * dim_bytes;
                piece.codes.extend_from_slice(&s.codes[codes]);
            }
        }
        gzip(&encode_piece(tag::CLUSTER, &piece))
    });
    let refs = groups
        .iter()
        .map(|g| ClusterRef {
            clusters: g.iter().map(|&k| k as u32).collect(),
        })
        .collect();
    (refs, pieces)
}

/// The clusters of `sizes` (bytes each) grouped into pieces: taken in ascending size, a piece
/// takes the next cluster while it stays within `piece_bytes`. Each group and the groups sorted.
fn groups(sizes: &[usize], piece_bytes: usize) -> Vec<Vec<usize>> {
    let mut by_size: Vec<usize> = (0..sizes.len()).collect();
    by_size.sort_by_key(|&k| (sizes[k], k));
    let runs = cut(
        by_size.len(),
        |i| sizes[by_size[i]],
        |run, i| run + sizes[by_size[i]] > piece_bytes,
    );
    let mut groups: Vec<Vec<usize>> = runs
        .into_iter()
        .map(|r| {
            let mut g = by_size[r].to_vec();
            g.sort_unstable();
            g
        })
        .collect();
    groups.sort_unstable();
    groups
}
