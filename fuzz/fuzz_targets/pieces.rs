//! Term, cluster and phrase pieces (decompressed) against a small valid meta piece: any bytes
//! give a piece or a format error; once accepted, searching with it never panics.
#![no_main]

use hipporag_wasm::lexical::Bm25Params;
use hipporag_wasm::pieces::{
    ClusterRef, FragmentRange, MetaPiece, PhraseRange, PieceId, PieceKind, Pieces, StaticMeta,
    TermRange, encode_piece, tag,
};
use hipporag_wasm::search::{Mode, RetrieveOptions};
use hipporag_wasm::text::Language;

/// Piece `number` of `kind`.
fn id(kind: PieceKind, number: usize) -> PieceId {
    PieceId { kind, number }
}

fn meta() -> Pieces {
    let m = MetaPiece {
        passages: 4,
        pages: vec![0, 0, 1, 2],
        bm25_params: Bm25Params::default(),
        language: Language::English,
        stopwords: vec!["the".into()],
        statics: Some(StaticMeta {
            model: "fuzz".into(),
            dim: 16,
            centroids: vec![0xff, 0x00, 0x0f, 0xf0, 0x3c, 0xc3],
            nprobe: 1,
        }),
        terms: vec![
            TermRange {
                first: String::new(),
            },
            TermRange { first: "m".into() },
        ],
        // Piece 0 holds two of the three IVF clusters, piece 1 the third.
        clusters: vec![
            ClusterRef {
                clusters: vec![0, 2],
            },
            ClusterRef { clusters: vec![1] },
        ],
        fragments: vec![FragmentRange { first: 0 }],
        phrases: 5,
        phrase_pieces: vec![
            PhraseRange {
                first: String::new(),
            },
            PhraseRange { first: "s".into() },
        ],
        query_stopwords: Vec::new(),
        damping: 0.5,
        build: [7; 8],
    };
    Pieces::from_meta(&encode_piece(tag::META, &m)).expect("a valid meta piece")
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Some((&which, bytes)) = data.split_first() else {
        return;
    };
    let mut s = meta();
    let q = "list sort zebra";
    let ok = match which % 6 {
        0 => s.add(id(PieceKind::Term, 0), bytes),
        1 => s.add(id(PieceKind::Term, 1), bytes),
        2 => s.add(id(PieceKind::Cluster, 0), bytes),
        3 => s.add(id(PieceKind::Cluster, 1), bytes),
        4 => s.add(id(PieceKind::Phrase, 0), bytes),
        _ => s.add(id(PieceKind::Phrase, 1), bytes),
    };
    if ok.is_ok() {
        let _ = s.missing(q);
        for mode in [Mode::Hybrid, Mode::Bm25] {
            let opts = RetrieveOptions {
                mode,
                top_k: 10,
                ..RetrieveOptions::default()
            };
            let _ = s.search(q, &opts);
        }
    }
});
