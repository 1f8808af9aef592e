//! Bad index bytes: each failure mode gets its own clear error, never a panic; and atomic writes
//! never leave a half-written index in place of a good one.

use hipporag_indexer::files::write_atomic;
use hipporag_indexer::graph::{BuildOptions, GraphBuilder};
use hipporag_indexer::openie::OpenIeDoc;
use hipporag_wasm::embeddings::HashedNgramEncoder;
use hipporag_wasm::embeddings::Vectors;
use hipporag_wasm::index::{FORMAT_VERSION, IndexData, PREFIX_LEN};
use hipporag_wasm::{Error, FormatError, FormatProblem, Index};

/// The format problem of a load that must fail; panics on success or another error kind.
fn problem(r: Result<Index, Error>) -> FormatProblem {
    match r {
        Err(Error::Format(FormatError { problem, origin })) => {
            assert_eq!(origin, None, "bytes have no file name");
            problem
        }
        Err(e) => panic!("expected a format error, got {e}"),
        Ok(_) => panic!("expected a format error, the bytes loaded"),
    }
}

fn small() -> IndexData {
    let doc = |t: &[[&str; 3]]| OpenIeDoc {
        extracted_triples: t.iter().map(|x| x.map(String::from)).collect(),
        ..Default::default()
    };
    let docs = vec![
        doc(&[["Ada Lovelace", "wrote notes on", "Analytical Engine"]]),
        doc(&[["Charles Babbage", "designed", "Analytical Engine"]]),
    ];
    let passages = vec![
        hipporag_wasm::index::Passage {
            title: "Ada".into(),
            text: "Ada wrote.".into(),
            url: None,
        },
        hipporag_wasm::index::Passage {
            title: "Babbage".into(),
            text: "He designed.".into(),
            url: Some("/b.html#x".into()),
        },
    ];
    GraphBuilder::from_openie(passages, &docs)
        .and_then(|g| g.build(&HashedNgramEncoder::new(32), &BuildOptions::default(), &()))
        .unwrap()
        .0
}

/// Re-seals a payload with a correct checksum, to reach the structural checks behind the checksum.
fn reseal(payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(b"HIPPORAG");
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&hipporag_wasm::index::checksum(payload).to_le_bytes());
    out.extend_from_slice(payload);
    out
}

#[test]
fn round_trip_keeps_everything() {
    let d = small();
    let bytes = d.to_bytes();
    assert_eq!(IndexData::from_bytes(&bytes).unwrap(), d);
    let idx = Index::from_bytes(&bytes).unwrap();
    assert_eq!(idx.passages[1].url.as_deref(), Some("/b.html#x"));
    // A loaded index reads its int8 embeddings in place: views of the bytes, not copies.
    let Vectors::Int8 { codes, .. } = idx.phrase_vectors.vectors() else {
        panic!("the small index is int8");
    };
    assert!(codes.is_shared() && !codes.is_empty());
    let Vectors::Int8 { codes: built, .. } = &d.phrase_vectors else {
        unreachable!()
    };
    assert!(!built.is_shared());
    assert_eq!(codes, built);
}

#[test]
fn each_corruption_has_its_own_error() {
    let good = small().to_bytes();
    let mut magic = good.clone();
    magic[0] = b'X';
    assert!(matches!(
        problem(Index::from_bytes(&magic)),
        FormatProblem::BadMagic { .. }
    ));
    assert!(matches!(
        problem(Index::from_bytes(b"PK\x03\x04")),
        FormatProblem::BadMagic { .. }
    ));
    assert!(matches!(
        problem(Index::from_bytes(&[])),
        FormatProblem::BadMagic { .. }
    ));

    let mut version = good.clone();
    version[8..12].copy_from_slice(&99u32.to_le_bytes());
    let e = problem(Index::from_bytes(&version));
    assert!(
        matches!(e, FormatProblem::UnsupportedVersion { found: 99, .. }),
        "{e}"
    );

    for cut in [10, PREFIX_LEN, good.len() / 2, good.len() - 1] {
        let e = problem(Index::from_bytes(&good[..cut]));
        assert!(
            matches!(e, FormatProblem::Truncated { .. }),
            "cut at {cut}: {e}"
        );
    }

    let mut flipped = good.clone();
    let mid = PREFIX_LEN + (good.len() - PREFIX_LEN) / 2;
    flipped[mid] ^= 0x40;
    assert!(matches!(
        problem(Index::from_bytes(&flipped)),
        FormatProblem::Checksum { .. }
    ));

    let mut trailing = good.clone();
    trailing.push(0);
    assert!(matches!(
        problem(Index::from_bytes(&trailing)),
        FormatProblem::Invalid {
            field: "payload",
            ..
        }
    ));
}

#[test]
fn structural_damage_behind_a_valid_checksum_is_named() {
    // Garbage payload with a valid checksum: a decoding error, not a panic.
    let e = problem(Index::from_bytes(&reseal(&[0xff; 64])));
    assert!(
        matches!(
            e,
            FormatProblem::Invalid {
                field: "payload",
                ..
            }
        ),
        "{e}"
    );

    let mut d = small();
    d.header.counts.phrases += 1;
    let e = problem(Index::from_bytes(&d.to_bytes()));
    assert!(
        matches!(
            e,
            FormatProblem::Invalid {
                field: "phrases",
                ..
            }
        ),
        "{e}"
    );

    let mut d = small();
    d.graph.indices[0] = 10_000;
    let e = problem(Index::from_bytes(&d.to_bytes()));
    assert!(
        matches!(e, FormatProblem::Invalid { field: "graph", .. }),
        "{e}"
    );

    let mut d = small();
    d.graph.data[0] = 7.0; // breaks symmetry
    let e = problem(Index::from_bytes(&d.to_bytes()));
    assert!(e.to_string().contains("reverse edge"), "{e}");

    let mut d = small();
    d.facts[0].object = 999;
    assert!(matches!(
        problem(Index::from_bytes(&d.to_bytes())),
        FormatProblem::Invalid { field: "facts", .. }
    ));

    let mut d = small();
    d.header.encoder.dim = 31;
    assert!(matches!(
        problem(Index::from_bytes(&d.to_bytes())),
        FormatProblem::Invalid {
            field: "phrase_vectors",
            ..
        }
    ));

    // Every single-byte truncation of the payload with a re-sealed checksum decodes or errors cleanly.
    let good = small().to_bytes();
    let payload = &good[PREFIX_LEN..];
    for cut in (0..payload.len()).step_by(7) {
        let _ = Index::from_bytes(&reseal(&payload[..cut]));
    }
}

#[test]
fn atomic_write_replaces_whole_or_not_at_all() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("site.hipporag");
    let good = small().to_bytes();
    write_atomic(&path, &good).unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), good);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o644, "readable by the web server");
    }
    // A write into a directory that does not exist fails and leaves the good file untouched.
    let bad = dir.path().join("missing/dir/site.hipporag");
    assert!(matches!(
        write_atomic(&bad, b"x"),
        Err(hipporag_indexer::Error::Io { .. })
    ));
    assert_eq!(std::fs::read(&path).unwrap(), good);
    // No temporary file is left behind.
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 1, "{names:?}");
}

#[test]
fn format_errors_name_their_source_and_kind() {
    let mut flipped = small().to_bytes();
    let mid = flipped.len() / 2;
    flipped[mid] ^= 0x40;
    let e = Index::from_bytes(&flipped)
        .unwrap_err()
        .in_source("site/_hipporag/index.hipporag");
    assert_eq!(e.kind(), "format.checksum");
    assert!(
        e.to_string()
            .starts_with("site/_hipporag/index.hipporag: index corrupt: payload Adler-32"),
        "{e}"
    );
    let e = Index::from_bytes(b"<!doctype html>").unwrap_err();
    assert_eq!(e.kind(), "format.magic");
}
