//! The index in pieces gives the single file's top-k: every question of musique_train, in the
//! default ranking (hybrid: BM25 and static embeddings fused, with the graph share from the
//! phrase pieces' PPR vectors) and in bm25,
//! through pieces written to disk and read back as a page reads them (hash-checked, gunzipped).
//! Then what a page must never accept: a damaged, stale or missing piece.
//! (Python's docs with the CoNaLa questions: tests/e2e/site_docs.test.mjs, natively and in
//! Chromium.)

mod common;

use common::data;
use hipporag_indexer::eval::load_questions;
use hipporag_indexer::graph::BuildOptions;
use hipporag_indexer::pieces::{self, PieceCounts, PieceDir, PieceOptions};
use hipporag_wasm::embeddings::HashedNgramEncoder;
use hipporag_wasm::index::IndexData;
use hipporag_wasm::pieces::{PieceId, PieceKind, Pieces, parse_meta_name};
use hipporag_wasm::search::{Mode, RetrieveOptions, Retriever};

fn musique() -> IndexData {
    let mut d = common::musique(&BuildOptions::default());
    // Static word embeddings from the lexical encoder (MiniLM's on real sites): 1,890
    // passages give 59 IVF clusters, 16 probed.
    let words = HashedNgramEncoder::new(384);
    d.static_embeddings = Some(
        hipporag_indexer::static_embeddings::build(
            &d.passages,
            &words,
            &hipporag_indexer::bm25::stopwords(hipporag_wasm::text::Language::English),
            (256, hipporag_indexer::static_embeddings::MAX_WORDS),
            &(),
        )
        .unwrap()
        .0,
    );
    d
}

/// Small pieces, so that a query spans many.
const OPTS: PieceOptions = PieceOptions {
    term_piece_bytes: Some(4_000),
    cluster_piece_bytes: 2_000,
    phrase_piece_bytes: 3_000,
    fragment_piece_gzip_bytes: 5_000,
    fragment_text_chars: 200,
};

/// The default hybrid ranking, top 10.
fn hybrid10() -> RetrieveOptions {
    RetrieveOptions {
        mode: Mode::Hybrid,
        top_k: 10,
        ..Default::default()
    }
}

/// `data`'s pieces (at [`OPTS`]) in a new temporary directory, read as a page reads them: the
/// directory (removed when dropped), its reader and the meta piece's name.
fn on_disk(data: &IndexData) -> (tempfile::TempDir, PieceDir, String) {
    let tmp = tempfile::tempdir().unwrap();
    let files = pieces::write(data, &OPTS).unwrap();
    for p in std::iter::once(&files.meta).chain(&files.pieces) {
        std::fs::write(tmp.path().join(&p.name), &p.bytes).unwrap();
    }
    let dir = PieceDir::new(tmp.path());
    (tmp, dir, files.meta.name)
}

/// `question` as a fresh page's first search: the index of meta piece `meta` in `dir` with
/// every piece the question needs loaded, and the names of those pieces in fetch order.
fn first_search(dir: &PieceDir, meta: &str, question: &str) -> (Pieces, Vec<String>) {
    let mut index = dir.open(meta).unwrap();
    let mut names = Vec::new();
    index
        .load(question, &mut |name: &str| {
            names.push(name.to_string());
            dir.read(name)
        })
        .unwrap();
    (index, names)
}

/// Piece `number` of `kind`.
fn id(kind: PieceKind, number: usize) -> PieceId {
    PieceId { kind, number }
}

#[test]
fn pieces_rank_every_musique_question_as_the_single_file_does() {
    let data_ = musique();
    let (_tmp, dir, meta) = on_disk(&data_);
    let again = pieces::write(&data_, &OPTS).unwrap();
    assert_eq!(again.meta.name, meta, "same data, same pieces");
    let st = data_.static_embeddings.as_ref().unwrap();
    assert_eq!((st.centroids.len() / 48, st.nprobe), (59, 16));
    let PieceCounts {
        term: terms,
        cluster: clusters,
        phrase: phrases,
        fragment: fragments,
    } = again.counts;
    assert!(
        terms > 100 && clusters < 59 && phrases > 100 && fragments > 20,
        "{:?}",
        again.counts
    );

    let r = Retriever::from_bytes(&data_.to_bytes()).unwrap();
    let mut index = dir.open(&meta).unwrap();
    // The 59 clusters in fewer pieces: the large ones alone, the small ones sharing.
    let held: Vec<usize> = index
        .meta()
        .clusters
        .iter()
        .map(|p| p.clusters.len())
        .collect();
    assert_eq!(held.iter().sum::<usize>(), 59, "{held:?}");
    assert!(held.contains(&1) && held.iter().any(|&n| n > 1), "{held:?}");
    let questions = load_questions(&data("musique_train/musique_train.json"), r.index()).unwrap();
    assert_eq!(questions.len(), 100);
    let (mut compared, mut term_pieces, mut walked) = (0, 0, 0);
    for q in &questions {
        term_pieces += index
            .missing(&q.question)
            .iter()
            .filter(|p| p.kind == PieceKind::Term)
            .count();
        for mode in [Mode::Hybrid, Mode::Bm25] {
            let opts = RetrieveOptions {
                mode,
                top_k: 50,
                exact_seeds: true,
                ..Default::default()
            };
            let entities = r.extract_entities(&q.question);
            let input = hipporag_wasm::search::QueryInput {
                question: Some(&q.question),
                entities: &entities,
                ..Default::default()
            };
            let single = r.retrieve(&input, &opts).unwrap();
            walked += usize::from(!single.seeds.is_empty());
            let pieces = dir.search(&mut index, &q.question, &opts).unwrap();
            let single: Vec<(usize, u64)> = single
                .passages
                .iter()
                .map(|p| (p.id as usize, p.score.to_bits()))
                .collect();
            let pieces: Vec<(usize, u64)> = pieces.iter().map(|&(j, s)| (j, s.to_bits())).collect();
            assert_eq!(pieces, single, "{mode} {:?}", q.question);
            compared += 1;
        }
    }
    assert_eq!(compared, 200);
    // Most questions mix in the graph share (their seeds' vectors came from the pieces).
    assert!(walked > 60, "{walked} of 100 questions used their seeds");
    // Pieces stay loaded: later questions fetch fewer.
    assert!(term_pieces > 100, "{term_pieces}");
    assert!(index.missing(&questions[0].question).is_empty());
}

/// A filter narrows first and the ranking orders what is left (Pagefind's filters; the site's
/// `search(term, {filters})`): musique_train's passages grouped into pages by their Wikipedia
/// title (1,764 pages, 85 of them with two to six passages), searched among the pages a
/// filter allows. Every result is on an allowed page; `bm25` gives exactly the unfiltered
/// ranking of every passage with the filtered-out passages dropped, then cut to `top_k`;
/// `hybrid` fills `top_k` from the allowed passages (more of them score above 0 than a
/// ranking cut first and filtered after keeps); a filter allowing every page ranks as no
/// filter, bit for bit.
#[test]
fn a_filtered_search_ranks_among_the_allowed_pages_only_and_fills_top_k_from_them() {
    let mut data_ = musique();
    for (j, p) in data_.passages.iter_mut().enumerate() {
        let title = p.title.replace(' ', "_");
        p.url = Some(format!("https://en.wikipedia.org/wiki/{title}#p{j}"));
    }
    let (_tmp, dir, meta) = on_disk(&data_);
    let mut index = dir.open(&meta).unwrap();
    let pages = index.meta().pages.clone();
    let n = pages.len();
    let page_count = *pages.iter().max().unwrap() as usize + 1;
    assert_eq!((n, page_count), (1890, 1764));
    let r = Retriever::from_bytes(&data_.to_bytes()).unwrap();
    let questions = load_questions(&data("musique_train/musique_train.json"), r.index()).unwrap();
    let on_page = |j: usize, allowed: &[u32]| allowed.contains(&pages[j]);
    let positive = |v: &[(usize, f64)]| v.iter().filter(|x| x.1 > 0.0).count();
    let bits = |v: &[(usize, f64)]| v.iter().map(|&(j, s)| (j, s.to_bits())).collect::<Vec<_>>();
    let every: Vec<u32> = (0..page_count as u32).collect();
    let (mut filtered, mut more_than_cut_then_filtered, mut full_top_k) = (0, 0, 0);
    let mut raised = 0;
    for q in questions.iter().take(25) {
        index.load(&q.question, &mut |name| dir.read(name)).unwrap();
        for mode in [Mode::Hybrid, Mode::Bm25] {
            let opts = RetrieveOptions { mode, ..hybrid10() };
            let all = RetrieveOptions { top_k: n, ..opts };
            let unfiltered = index.search(&q.question, &opts).unwrap();
            let unfiltered_all = index.search(&q.question, &all).unwrap();
            assert_eq!(unfiltered_all.len(), n, "{mode} {:?}", q.question);
            // Every page allowed: today's ranking, bit for bit.
            let within = index
                .search_within(&q.question, &opts, Some(&every))
                .unwrap();
            assert_eq!(bits(&within), bits(&unfiltered), "{mode} {:?}", q.question);
            // Half the pages; a seventh; every page but those of the first two results.
            let first_two: Vec<u32> = unfiltered.iter().take(2).map(|x| pages[x.0]).collect();
            let filters: [Vec<u32>; 3] = [
                (0..page_count as u32).filter(|p| p % 2 == 0).collect(),
                (0..page_count as u32).filter(|p| p % 7 == 3).collect(),
                (0..page_count as u32)
                    .filter(|p| !first_two.contains(p))
                    .collect(),
            ];
            for allowed in &filters {
                let got = index
                    .search_within(&q.question, &opts, Some(allowed))
                    .unwrap();
                let got_all = index
                    .search_within(&q.question, &all, Some(allowed))
                    .unwrap();
                let what = format!("{mode} {:?}, {} pages allowed", q.question, allowed.len());
                assert!(got.iter().all(|x| on_page(x.0, allowed)), "{what}: {got:?}");
                assert!(got_all.iter().all(|x| on_page(x.0, allowed)), "{what}");
                // The first top_k of the filtered ranking of every passage: top_k of them
                // whenever top_k allowed passages score above 0.
                assert_eq!(bits(&got), bits(&got_all[..got.len()]), "{what}");
                if positive(&got_all) >= opts.top_k {
                    assert_eq!(positive(&got), opts.top_k, "{what}");
                    full_top_k += 1;
                }
                // Ranked first, cut to top_k, then filtered: what a filter must not do.
                let cut_then_filtered: Vec<(usize, f64)> = unfiltered
                    .iter()
                    .copied()
                    .filter(|x| x.1 > 0.0 && on_page(x.0, allowed))
                    .collect();
                assert!(
                    positive(&got) >= cut_then_filtered.len(),
                    "{what}: {} results, {} when cut then filtered",
                    positive(&got),
                    cut_then_filtered.len()
                );
                more_than_cut_then_filtered +=
                    usize::from(positive(&got) > cut_then_filtered.len());
                if mode == Mode::Hybrid {
                    // The passage share is normalised over the allowed passages, not over all
                    // of them: their scores rise (unless the graph weight falls).
                    let before: f64 = got
                        .iter()
                        .map(|x| unfiltered_all.iter().find(|y| y.0 == x.0).unwrap().1)
                        .sum();
                    raised += usize::from(got.iter().map(|x| x.1).sum::<f64>() > before);
                } else {
                    // BM25 scores each passage alone: the filter only drops passages.
                    let dropped: Vec<(usize, f64)> = unfiltered_all
                        .iter()
                        .copied()
                        .filter(|x| on_page(x.0, allowed))
                        .take(opts.top_k)
                        .collect();
                    assert_eq!(bits(&got), bits(&dropped), "{what}");
                }
                filtered += 1;
            }
        }
    }
    assert_eq!(filtered, 150);
    assert!(
        full_top_k > 140,
        "{full_top_k} of 150 filtered searches filled top_k"
    );
    assert!(
        raised > 60,
        "{raised} of 75 filtered hybrid searches raised their scores"
    );
    assert!(
        more_than_cut_then_filtered > 140,
        "{more_than_cut_then_filtered} of 150 filtered searches found more than cut-then-filter"
    );
    // No page allowed: nothing; a page id past the last: an error naming it.
    let q = &questions[0].question;
    assert!(
        index
            .search_within(q, &hybrid10(), Some(&[]))
            .unwrap()
            .is_empty()
    );
    let e = index
        .search_within(q, &hybrid10(), Some(&[0, page_count as u32]))
        .unwrap_err();
    assert_eq!(e.kind(), "request", "{e}");
    assert!(
        e.to_string().contains(&format!("page {page_count} ")),
        "{e}"
    );
}

/// Every XQuAD Arabic question (1,190) ranks in the pieces as in the single file, in bm25 and
/// hybrid, top 40. Arabic's stemmer drops the article, so a long word has a short term
/// ("العام" → "عام"), and the two differed on 292 of 2,380 rankings: a term the indexer left
/// out as a stopword was a misspelt word to the single file only (the pieces never fetch a
/// stopword's key), and a short term's neighbours shorter than the deletes dictionary's entries
/// were found by the single file's scan only.
#[test]
fn pieces_rank_every_arabic_question_as_the_single_file_does() {
    let data_ = common::rule_index(
        "multilingual/xquad_ar_corpus.json",
        hipporag_wasm::text::Language::Arabic,
    );
    let (_tmp, dir, meta) = on_disk(&data_);
    let r = Retriever::from_bytes(&data_.to_bytes()).unwrap();
    let mut index = dir.open(&meta).unwrap();
    let questions = load_questions(&data("multilingual/xquad_ar.json"), r.index()).unwrap();
    assert_eq!(questions.len(), 1190);
    let bad = hipporag_indexer::eval::pieces_disagreements(
        &r,
        &dir,
        &mut index,
        &questions,
        &RetrieveOptions::default(),
        40,
    )
    .unwrap();
    let first = bad
        .first()
        .map(|d| (&d.id, d.mode, d.single.len(), d.pieces.len()));
    assert!(bad.is_empty(), "{} of 2380 differ: {first:?}", bad.len());
}

#[test]
fn a_site_past_the_piece_caps_gets_larger_pieces_not_more_and_ranks_the_same() {
    use hipporag_indexer::pieces::{MAX_FRAGMENT_PIECES, MAX_PHRASE_PIECES, MAX_TERM_PIECES};
    let data_ = musique();
    // One byte a piece: every key, phrase and passage would be a piece of its own (about
    // 14,000 keys, 20,000 phrases and 1,890 passages: each past its cap's share of bytes).
    let tiny = PieceOptions {
        term_piece_bytes: Some(1),
        phrase_piece_bytes: 1,
        fragment_piece_gzip_bytes: 1,
        ..OPTS
    };
    let files = pieces::write(&data_, &tiny).unwrap();
    let PieceCounts {
        term: terms,
        phrase: phrases,
        fragment: fragments,
        ..
    } = files.counts;
    assert!(
        (900..=MAX_TERM_PIECES).contains(&terms) && (900..=MAX_PHRASE_PIECES).contains(&phrases),
        "{:?}",
        files.counts
    );
    assert!(
        (1_500..=MAX_FRAGMENT_PIECES).contains(&fragments),
        "{fragments}"
    );
    let tmp = tempfile::tempdir().unwrap();
    for p in std::iter::once(&files.meta).chain(&files.pieces) {
        std::fs::write(tmp.path().join(&p.name), &p.bytes).unwrap();
    }
    let dir = PieceDir::new(tmp.path());
    let mut index = dir.open(&files.meta.name).unwrap();
    let r = Retriever::from_bytes(&data_.to_bytes()).unwrap();
    let questions = load_questions(&data("musique_train/musique_train.json"), r.index()).unwrap();
    for q in questions.iter().take(20) {
        let opts = RetrieveOptions {
            exact_seeds: true,
            ..hybrid10()
        };
        let entities = r.extract_entities(&q.question);
        let input = hipporag_wasm::search::QueryInput {
            question: Some(&q.question),
            entities: &entities,
            ..Default::default()
        };
        let single: Vec<usize> = r
            .retrieve(&input, &opts)
            .unwrap()
            .passages
            .iter()
            .map(|p| p.id as usize)
            .collect();
        let pieces: Vec<usize> = dir
            .search(&mut index, &q.question, &opts)
            .unwrap()
            .iter()
            .map(|&(j, _)| j)
            .collect();
        assert_eq!(pieces, single, "{:?}", q.question);
    }
}

#[test]
fn each_passage_is_in_its_fragment_piece_with_its_text_cut_to_the_set_length() {
    let data_ = musique();
    let (_tmp, dir, meta) = on_disk(&data_);
    let index = dir.open(&meta).unwrap();
    let mut cut = 0;
    for (j, p) in data_.passages.iter().enumerate() {
        let f = index.fragment_of(j).unwrap();
        let piece = dir
            .read(&index.name(id(PieceKind::Fragment, f)).unwrap())
            .unwrap();
        let json: serde_json::Value = serde_json::from_slice(&piece).unwrap();
        let rec = json["passages"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == j)
            .unwrap_or_else(|| panic!("passage {j} is not in its fragment piece"));
        let text = rec["text"].as_str().unwrap();
        assert_eq!(rec["title"], p.title.as_str());
        assert!(text.chars().count() <= OPTS.fragment_text_chars, "{text}");
        if text.ends_with('…') && p.text.chars().count() > OPTS.fragment_text_chars {
            cut += 1;
            assert!(p.text.starts_with(text.trim_end_matches('…')), "{text}");
        } else {
            assert_eq!(text, p.text);
        }
    }
    // musique_train's passages run to ~1,500 characters: many are cut, many are whole.
    assert!(cut > 500 && cut < data_.passages.len(), "{cut}");
    assert!(index.fragment_of(data_.passages.len()).is_none());
}

#[test]
fn a_damaged_stale_or_missing_piece_is_an_error_naming_it() {
    let data_ = musique();
    let (tmp, dir, meta) = on_disk(&data_);
    let question = "Who founded the company that makes the Xbox?";
    let mut index = dir.open(&meta).unwrap();
    let term = *index
        .missing(question)
        .iter()
        .find(|p| p.kind == PieceKind::Term)
        .unwrap();
    let name = index.name(term).unwrap();
    let path = tmp.path().join(&name);
    let good = std::fs::read(&path).unwrap();

    // One flipped byte in the deflate stream, or the member cut short: gzip's CRC-32 and
    // length trailer catch it, the error names the piece, nothing is ranked.
    for bad in [
        good.iter()
            .enumerate()
            .map(|(k, &b)| if k == good.len() / 2 { b ^ 1 } else { b })
            .collect::<Vec<u8>>(),
        good[..good.len() - 4].to_vec(),
    ] {
        std::fs::write(&path, &bad).unwrap();
        let e = dir.search(&mut index, question, &hybrid10()).unwrap_err();
        assert_eq!(e.kind(), "io", "{e}");
        assert!(e.to_string().contains(&name), "{e}");
    }

    // Another kind of piece under this name (a host serving the wrong file): its tag is not
    // a term piece's.
    let other = pieces::write(&data_, &OPTS).unwrap();
    std::fs::write(&path, &other.pieces.last().unwrap().bytes).unwrap();
    let e = dir.search(&mut index, question, &hybrid10()).unwrap_err();
    assert_eq!(e.kind(), "format.magic", "{e}");
    assert!(e.to_string().contains(&name), "{e}");

    // Missing (a rebuilt site deleted it): an I/O error naming the file.
    std::fs::remove_file(&path).unwrap();
    let e = dir.search(&mut index, question, &hybrid10()).unwrap_err();
    assert!(e.to_string().contains(&name), "{e}");

    // Restored, the same index answers.
    std::fs::write(&path, &good).unwrap();
    assert!(
        !dir.search(&mut index, question, &hybrid10())
            .unwrap()
            .is_empty()
    );
    assert!(parse_meta_name(&meta).is_some() && parse_meta_name(&name).is_none());
    let e = dir.open("nothex.bin").unwrap_err();
    assert!(e.to_string().contains("not a meta piece name"), "{e}");
}

/// A piece's stored bytes (a gzip member) decompressed, as the page's `DecompressionStream` does.
fn gunzip(b: &[u8]) -> Vec<u8> {
    use std::io::Read;
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(b)
        .read_to_end(&mut out)
        .unwrap();
    out
}

/// Seeded damage to real pieces (bytes flipped, cut, inserted, after decompression, where no
/// hash stands guard): every decoder returns an error or a piece it can search with, and
/// never panics. (`fuzz/` runs the same decoders under libFuzzer; this keeps a fixed sample
/// in every test run.)
#[test]
fn damaged_piece_bytes_are_errors_never_panics() {
    use rand::{Rng, SeedableRng};
    let data_ = musique();
    let files = pieces::write(&data_, &OPTS).unwrap();
    let meta = gunzip(&files.meta.bytes);
    let good = hipporag_wasm::pieces::Pieces::from_meta(&meta).unwrap();
    let PieceCounts {
        term: terms,
        cluster: clusters,
        phrase: phrases,
        ..
    } = files.counts;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(16);
    let mut damage = |mut b: Vec<u8>| {
        for _ in 0..rng.random_range(1..4) {
            match rng.random_range(0..3) {
                0 if !b.is_empty() => {
                    let i = rng.random_range(0..b.len());
                    b[i] ^= 1 << rng.random_range(0..8);
                }
                1 if !b.is_empty() => b.truncate(rng.random_range(0..b.len())),
                _ => {
                    let i = rng.random_range(0..=b.len());
                    b.insert(i, rng.random());
                }
            }
        }
        b
    };
    let question = "Who founded the company that distributed the film?";
    let (mut errors, mut accepted) = (0, 0);
    for round in 0..800 {
        let mut index = good.clone();
        let result = match round % 4 {
            0 => hipporag_wasm::pieces::Pieces::from_meta(&damage(meta.clone())).map(|s| index = s),
            1 => {
                let i = round % terms;
                index.add(
                    id(PieceKind::Term, i),
                    &damage(gunzip(&files.pieces[i].bytes)),
                )
            }
            2 => {
                let c = round % clusters;
                index.add(
                    id(PieceKind::Cluster, c),
                    &damage(gunzip(&files.pieces[terms + c].bytes)),
                )
            }
            _ => {
                let i = round % phrases;
                let stored = &files.pieces[terms + clusters + i].bytes;
                index.add(id(PieceKind::Phrase, i), &damage(gunzip(stored)))
            }
        };
        match result {
            Err(e) => {
                assert!(e.kind().starts_with("format."), "{e}");
                errors += 1;
            }
            // Accepted damage (a changed count or id that still fits) must still search.
            Ok(()) => {
                accepted += 1;
                let _ = index.missing(question);
                let _ = index.search(question, &hybrid10());
            }
        }
    }
    assert!(
        errors > 500 && errors + accepted == 800,
        "{errors} errors, {accepted} accepted"
    );
}

/// A term piece whose posting list is broken (a passage past the last, a repeated passage, a
/// zero term frequency) is refused with an error naming what is wrong and the piece, as the
/// single file's BM25 section would be: these stay inside a piece's gzip, where the hash only
/// says the bytes are the ones the indexer wrote.
#[test]
fn a_term_piece_with_broken_postings_is_refused() {
    use hipporag_wasm::pieces::{StoredTermPiece, decode_piece, encode_piece, tag};
    let data_ = musique();
    let files = pieces::write(&data_, &OPTS).unwrap();
    let good = hipporag_wasm::pieces::Pieces::from_meta(&gunzip(&files.meta.bytes)).unwrap();
    // The first term piece with a posting list of two or more (the first pieces hold the
    // deletes dictionary alone).
    let (i, stored, long) = (0..good.meta().terms.len())
        .find_map(|i| {
            let stored: StoredTermPiece =
                decode_piece(tag::TERM, "term piece", &gunzip(&files.pieces[i].bytes)).unwrap();
            let long = stored.lengths.iter().position(|&l| l >= 2)?;
            Some((i, stored, long))
        })
        .unwrap();
    let n = data_.passages.len() as u32;
    let first: usize = stored.lengths[..long].iter().map(|&l| l as usize).sum();
    // (what breaks, the error's words): past the last passage, a repeat, an impact out of range.
    for (k, want) in [
        (0, "not ascending below"),
        (1, "not ascending below"),
        (2, "not below 32"),
    ] {
        let mut p = stored.clone();
        match k {
            0 => p.gaps[first] = n,
            1 => p.gaps[first + 1] = 0,
            _ => p.impacts[first] = hipporag_wasm::lexical::IMPACT_LEVELS as u8,
        }
        let mut index = good.clone();
        let e = index
            .add(id(PieceKind::Term, i), &encode_piece(tag::TERM, &p))
            .unwrap_err();
        assert_eq!(e.kind(), "format.invalid", "{e}");
        let shown = e.to_string();
        assert!(shown.contains(want), "{shown}");
        let name = good.name(id(PieceKind::Term, i)).unwrap();
        assert!(shown.contains(&name), "{shown}");
    }
    // Unbroken, the same bytes are accepted.
    good.clone()
        .add(id(PieceKind::Term, i), &encode_piece(tag::TERM, &stored))
        .unwrap();
}

/// A question half-typed (cut after 3 letters of its longest word) and two misspelt (its
/// longest word's fourth letter replaced; its second and third letters swapped, an edit among
/// the first three letters that only the deletes dictionary finds in the pieces), as
/// `../shared/tools/query_variants.py` makes them, each with the words BM25 ranks by when
/// nothing is expanded: the typed word ended by a space; the question without its misspelt
/// word, which no dictionary has.
fn variants(question: &str) -> Option<[(String, String); 3]> {
    let (at, word) = question
        .split(|c: char| !c.is_ascii_alphabetic())
        .scan(0, |at, w| {
            let start = *at;
            *at += w.len() + 1;
            Some((start, w))
        })
        .filter(|(_, w)| w.len() >= 6)
        .max_by_key(|(at, w)| (w.len(), std::cmp::Reverse(*at)))?;
    let typed = question[..at + 3].to_string();
    let c = if &word[3..4] == "x" { "q" } else { "x" };
    let typo = format!("{}{c}{}", &question[..at + 3], &question[at + 4..]);
    let without = format!("{}{}", &question[..at], &question[at + word.len()..]);
    let swapped = format!(
        "{}{}{}{}{}",
        &question[..at + 1],
        &word[2..3],
        &word[1..2],
        &question[at + 3..at + word.len()],
        &question[at + word.len()..]
    );
    Some([
        (typed.clone(), format!("{typed} ")),
        (typo, without.clone()),
        (swapped, without),
    ])
}

#[test]
fn half_typed_and_misspelt_questions_rank_in_the_pieces_as_in_the_single_file_and_find_more() {
    let data_ = musique();
    let (_tmp, dir, meta) = on_disk(&data_);
    let r = Retriever::from_bytes(&data_.to_bytes()).unwrap();
    let mut index = dir.open(&meta).unwrap();
    let questions = load_questions(&data("musique_train/musique_train.json"), r.index()).unwrap();
    let bm25 = RetrieveOptions {
        mode: Mode::Bm25,
        top_k: 5,
        ..Default::default()
    };
    let recall = |ranked: &[(usize, f64)], gold: &[Vec<u32>]| {
        gold.iter()
            .filter(|g| ranked.iter().any(|&(j, _)| g.contains(&(j as u32))))
            .count()
    };
    let (mut compared, mut found, mut plain) = (0, [0; 3], [0; 3]);
    for q in &questions {
        let Some(variants) = variants(&q.question) else {
            continue;
        };
        for (v, (text, without)) in variants.iter().enumerate() {
            let pieces = dir.search(&mut index, text, &bm25).unwrap();
            let input = hipporag_wasm::search::QueryInput {
                question: Some(text),
                ..Default::default()
            };
            let single: Vec<(usize, f64)> = r
                .retrieve(&input, &bm25)
                .unwrap()
                .passages
                .iter()
                .map(|p| (p.id as usize, p.score))
                .collect();
            let bits =
                |v: &[(usize, f64)]| v.iter().map(|&(j, s)| (j, s.to_bits())).collect::<Vec<_>>();
            assert_eq!(bits(&pieces), bits(&single), "{text:?}");
            found[v] += recall(&pieces, &q.gold);
            let ranked = dir.search(&mut index, without, &bm25).unwrap();
            plain[v] += recall(&ranked, &q.gold);
            compared += 1;
        }
    }
    assert!(compared >= 150, "{compared}");
    // Gold passages in the top 5, expanded against not: more for both.
    assert!(
        found[0] > plain[0],
        "half-typed: {} vs {}",
        found[0],
        plain[0]
    );
    assert!(
        found[1] > plain[1],
        "misspelt: {} vs {}",
        found[1],
        plain[1]
    );
    assert!(
        found[2] > plain[2],
        "misspelt among the first three letters: {} vs {}",
        found[2],
        plain[2]
    );
}

#[test]
fn a_language_read_in_pairs_gets_smaller_term_pieces_and_a_first_search_fetches_fewer_term_bytes() {
    use hipporag_indexer::pieces::{PAIRS_TERM_PIECE_BYTES, TERM_PIECE_BYTES, term_piece_bytes};
    use hipporag_wasm::text::Language;
    for (language, bytes) in [
        (Language::English, TERM_PIECE_BYTES),
        (Language::German, TERM_PIECE_BYTES),
        (Language::Arabic, TERM_PIECE_BYTES),
        (Language::Chinese, PAIRS_TERM_PIECE_BYTES),
        (Language::Japanese, PAIRS_TERM_PIECE_BYTES),
        (Language::Thai, PAIRS_TERM_PIECE_BYTES),
    ] {
        assert_eq!(term_piece_bytes(language), bytes, "{language:?}");
    }
    // JSQuAD's 1,145 Japanese paragraphs, and every 4th of its first 160 questions, each as a
    // fresh page's first search: cut by the language and cut as a spaced language's would be.
    let data_ = common::rule_index("multilingual/jsquad_valid_corpus.json", Language::Japanese);
    let questions: Vec<serde_json::Value> = serde_json::from_str(
        &std::fs::read_to_string(data("multilingual/jsquad_valid.json")).unwrap(),
    )
    .unwrap();
    let all_questions: Vec<String> = questions
        .iter()
        .map(|q| q["question"].as_str().unwrap().to_string())
        .collect();
    let questions: Vec<&str> = questions
        .iter()
        .step_by(4)
        .take(40)
        .map(|q| q["question"].as_str().unwrap())
        .collect();
    let by_language = PieceOptions::default();
    let spaced = PieceOptions {
        term_piece_bytes: Some(TERM_PIECE_BYTES),
        ..by_language
    };
    let (mut pieces_of, mut term_bytes, mut rankings) = ([0; 2], [0; 2], [vec![], vec![]]);
    for (k, opts) in [by_language, spaced].iter().enumerate() {
        let files = pieces::write(&data_, opts).unwrap();
        pieces_of[k] = files.counts.term;
        let tmp = tempfile::tempdir().unwrap();
        for p in std::iter::once(&files.meta).chain(&files.pieces) {
            std::fs::write(tmp.path().join(&p.name), &p.bytes).unwrap();
        }
        let stored: std::collections::HashMap<&str, usize> = files
            .pieces
            .iter()
            .map(|p| (p.name.as_str(), p.bytes.len()))
            .collect();
        let dir = PieceDir::new(tmp.path());
        for q in &questions {
            let (index, fetched) = first_search(&dir, &files.meta.name, q);
            term_bytes[k] += fetched
                .iter()
                .filter(|n| PieceKind::of_name(n) == Some(PieceKind::Term))
                .map(|n| stored[n.as_str()])
                .sum::<usize>();
            rankings[k].push(index.search(q, &hybrid10()).unwrap());
        }
    }
    assert_eq!(rankings[0], rankings[1], "the cut changes no ranking");
    long_questions_are_searched_in_part(&data_, &all_questions);
    assert!(
        pieces_of[0] > pieces_of[1] * 3 / 2,
        "term pieces: {pieces_of:?}"
    );
    // About a third fewer gzipped term bytes per first search.
    assert!(
        term_bytes[0] * 4 < term_bytes[1] * 3,
        "term bytes of 40 first searches, by language / spaced: {term_bytes:?}"
    );
}

/// The BM25 upper bound (`Pieces::bm25_upper_bound`, what `mergeIndex` puts each site's best
/// BM25 score over): for every musique_train question it is at least the best BM25 score and
/// that score is a fair share of it; a word no passage holds raises it by the largest IDF ×
/// (k1 + 1), and a stopword leaves it as it was.
#[test]
fn the_bm25_upper_bound_bounds_every_musique_question() {
    let data_ = musique();
    let (_tmp, dir, meta) = on_disk(&data_);
    let r = Retriever::from_bytes(&data_.to_bytes()).unwrap();
    let mut index = dir.open(&meta).unwrap();
    let n = index.meta().pages.len();
    let k1 = f64::from(index.meta().bm25_params.k1);
    let rarest = f64::from(hipporag_wasm::lexical::idf(0, n)) * (k1 + 1.0);
    let questions = load_questions(&data("musique_train/musique_train.json"), r.index()).unwrap();
    let bm25 = RetrieveOptions {
        mode: Mode::Bm25,
        top_k: 1,
        ..Default::default()
    };
    let mut shares = Vec::new();
    for q in &questions {
        let best = dir.search(&mut index, &q.question, &bm25).unwrap()[0].1;
        let bound = index.bm25_upper_bound(&q.question).unwrap();
        assert!(
            best <= bound * 1.0001,
            "{:?}: best {best} over bound {bound}",
            q.question
        );
        shares.push(best / bound);
        let odd = format!("{} zqxvwj", q.question);
        dir.search(&mut index, &odd, &bm25).unwrap();
        let with_odd = index.bm25_upper_bound(&odd).unwrap();
        assert!(
            (with_odd - bound - rarest).abs() < 1e-3,
            "{odd:?}: {with_odd} vs {bound} + {rarest}"
        );
        let stop = format!("the {}", q.question);
        dir.search(&mut index, &stop, &bm25).unwrap();
        assert_eq!(index.bm25_upper_bound(&stop).unwrap(), bound, "{stop:?}");
    }
    shares.sort_by(f64::total_cmp);
    // Every question's words are in its supporting passages: the best passage matches a fair
    // share of what the question could score, never none of it.
    assert!(shares[0] > 0.1 && shares[50] > 0.25, "{:?}", &shares[..5]);
    // A question whose pieces are not loaded is refused, as its search would be.
    let fresh = dir.open(&meta).unwrap();
    assert!(fresh.bm25_upper_bound(&questions[0].question).is_err());
}

/// JSQuAD's ten longest questions (75 to 98 characters): each is searched up
/// to its 56th counted term (`searched_part`), so its first search loads exactly the pieces of
/// that part, and ranks as that part does, in the pieces and in the single file alike.
fn long_questions_are_searched_in_part(data_: &IndexData, questions: &[String]) {
    use hipporag_wasm::search::{MAX_QUESTION_TERMS, QueryInput, counted_terms, searched_part};
    use hipporag_wasm::text::Language;
    let mut longest: Vec<&String> = questions.iter().collect();
    longest.sort_by_key(|q| std::cmp::Reverse(q.chars().count()));
    let (_tmp, dir, meta) = on_disk(data_);
    let r = Retriever::from_bytes(&data_.to_bytes()).unwrap();
    let opts = RetrieveOptions {
        exact_seeds: true,
        ..hybrid10()
    };
    for q in longest.into_iter().take(10) {
        let part = searched_part(q, Language::Japanese);
        assert!(
            counted_terms(q, Language::Japanese) > MAX_QUESTION_TERMS,
            "{q:?}"
        );
        assert!(
            part.chars().count() < q.chars().count(),
            "{part:?} of {q:?}"
        );
        let fetched = |question: &str| {
            let (mut index, mut names) = first_search(&dir, &meta, question);
            names.sort();
            let ranked = dir.search(&mut index, question, &opts).unwrap();
            (names, ranked)
        };
        let (whole, ranked) = fetched(q);
        assert_eq!(
            (&whole, &ranked),
            (&fetched(part).0, &fetched(part).1),
            "{q:?}"
        );
        let entities = r.extract_entities(q);
        let single = r
            .retrieve(
                &QueryInput {
                    question: Some(q),
                    entities: &entities,
                    ..Default::default()
                },
                &opts,
            )
            .unwrap();
        let single: Vec<(usize, u64)> = single
            .passages
            .iter()
            .map(|p| (p.id as usize, p.score.to_bits()))
            .collect();
        let ranked: Vec<(usize, u64)> = ranked.iter().map(|&(j, s)| (j, s.to_bits())).collect();
        assert_eq!(ranked, single, "{q:?}");
    }
}
