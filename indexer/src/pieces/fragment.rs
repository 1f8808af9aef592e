//! Fragment pieces: what a result shows of its passage, as JSON, in runs of passages in
//! passage order (a page's passages together), cut every
//! [`PieceOptions::fragment_piece_gzip_bytes`] of gzipped JSON (more on a site past
//! [`MAX_FRAGMENT_PIECES`] of them).

use std::io::Write;

use flate2::Compression;
use hipporag_wasm::index::{IndexData, Passage};
use hipporag_wasm::pieces::FragmentRange;

use super::cut::capped_runs;
use super::{MAX_FRAGMENT_PIECES, Piece, PieceOptions, gzip};

/// The fragment pieces of `data` (gzipped, unnamed) and their first passages.
pub(super) fn pieces(data: &IndexData, opts: &PieceOptions) -> (Vec<FragmentRange>, Vec<Piece>) {
    // Each passage's JSON object, written once: its compressed share and its piece read it.
    let json: Vec<String> = data
        .passages
        .iter()
        .enumerate()
        .map(|(j, p)| passage_json(j, p, opts.fragment_text_chars))
        .collect();
    let sizes = compressed_sizes(&json);
    let runs = capped_runs(
        json.len(),
        opts.fragment_piece_gzip_bytes,
        MAX_FRAGMENT_PIECES,
        |j| sizes[j],
    );
    let ranges = runs
        .iter()
        .map(|r| FragmentRange {
            first: r.start as u32,
        })
        .collect();
    let pieces = crate::parallel::map(&runs, |r| fragment_piece(&json[r.clone()]));
    (ranges, pieces)
}

/// Passage `j`'s fragment: `{id, title, url, text}`, its text cut to `chars`.
fn passage_json(j: usize, p: &Passage, chars: usize) -> String {
    serde_json::json!({
        "id": j,
        "title": p.title,
        "url": p.url,
        "text": fragment_text(&p.text, chars),
    })
    .to_string()
}

/// A fragment piece of `passages` (each one's JSON), gzipped: `{"passages": [...]}`.
fn fragment_piece(passages: &[String]) -> Piece {
    gzip(format!("{{\"passages\":[{}]}}", passages.join(",")).as_bytes())
}

/// The opening of `text` a fragment holds, at most `chars` characters: all of it when it fits
/// (or `chars` is 0), else its first `chars − 1` characters cut back to the last whitespace
/// (when that keeps at least half of them) and trimmed, then `…`.
pub fn fragment_text(text: &str, chars: usize) -> String {
    if chars == 0 || text.chars().nth(chars).is_none() {
        return text.to_string();
    }
    let end = text
        .char_indices()
        .nth(chars - 1)
        .map_or(text.len(), |(i, _)| i);
    let head = &text[..end];
    let cut = head
        .char_indices()
        .rev()
        .find(|&(_, c)| c.is_whitespace())
        .map(|(i, _)| i)
        .filter(|&i| head[..i].chars().count() >= chars / 2)
        .unwrap_or(end);
    format!("{}…", head[..cut].trim_end())
}

/// Passages whose compressed sizes one deflate stream measures (`compressed_sizes`): the
/// streams run in parallel, and a passage's share depends only on the passages before it in
/// its own run of this many.
const SIZE_RUN: usize = 1_024;

/// Raw bytes of JSON per measured group of `compressed_sizes`.
const SIZE_GROUP: usize = 4_096;

/// Each of `texts`' share of a level-9 deflate stream over them in order, in bytes: one stream
/// per run of [`SIZE_RUN`] texts, written in groups of about [`SIZE_GROUP`] bytes and flushed
/// after each (a sync flush), each group's growth shared among its texts by their lengths. So a
/// share counts what the texts before it let deflate reuse, as a piece of consecutive passages
/// would, and the flushes' block headers do not swamp the shares of short, repetitive texts.
fn compressed_sizes(texts: &[String]) -> Vec<usize> {
    let runs: Vec<&[String]> = texts.chunks(SIZE_RUN).collect();
    crate::parallel::map(&runs, |run| run_shares(run))
        .into_iter()
        .flatten()
        .collect()
}

/// [`compressed_sizes`] of one run, in one deflate stream.
fn run_shares(run: &[String]) -> Vec<usize> {
    let mut e = flate2::write::DeflateEncoder::new(Vec::new(), Compression::best());
    let mut out = Vec::with_capacity(run.len());
    let (mut first, mut raw, mut start) = (0, 0, 0);
    for (k, t) in run.iter().enumerate() {
        e.write_all(t.as_bytes())
            .expect("writing to a Vec cannot fail");
        raw += t.len();
        if raw >= SIZE_GROUP || k + 1 == run.len() {
            e.flush().expect("writing to a Vec cannot fail");
            let grown = (e.get_ref().len() - start) as f64;
            out.extend(
                run[first..=k]
                    .iter()
                    .map(|t| (grown * t.len() as f64 / raw.max(1) as f64).round() as usize),
            );
            (first, raw, start) = (k + 1, 0, e.get_ref().len());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::cut::runs;
    use super::{compressed_sizes, fragment_piece, fragment_text};

    /// Fragment JSON of two kinds, as rust-doc has them: 600 rows of one trait implementation
    /// listing (one long heading path, a line of text each; the rows of a rustdoc page) and
    /// 600 passages of Wikipedia prose (musique_train's corpus, `../shared/data`). Cut by their
    /// gzipped shares, every piece but the last gzips to within 2× of the others; cut by raw
    /// bytes into as many pieces, the prose pieces gzip to several times the listing ones.
    #[test]
    fn fragment_pieces_cut_by_gzipped_shares_cost_alike() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../shared/data/musique_train/musique_train_corpus.json"
        );
        let corpus: Vec<serde_json::Value> =
            serde_json::from_slice(&std::fs::read(path).expect(path)).expect("the corpus JSON");
        let methods = [
            "map", "filter", "fold", "zip", "chain", "take", "skip", "step_by",
        ];
        let mut records: Vec<String> = (0..600)
            .map(|j| {
                let m = methods[j % methods.len()];
                serde_json::json!({
                    "id": j,
                    "title": format!("Struct std::collections::hash_map::DrainFilter › Trait Implementations › impl<K, V, F> Iterator for DrainFilter<'_, K, V, F> › fn {m}"),
                    "url": format!("/std/collections/hash_map/struct.DrainFilter.html#method.{m}"),
                    "text": format!("Calls a closure on each element of an iterator ({m}). Read more\n1.0.0 · source"),
                })
                .to_string()
            })
            .collect();
        records.extend(corpus.iter().take(600).enumerate().map(|(k, p)| {
            serde_json::json!({"id": 600 + k, "title": p["title"], "url": format!("/wiki/{k}.html"), "text": p["text"]})
                .to_string()
        }));
        let gz = |cut: &[std::ops::Range<usize>]| -> Vec<usize> {
            cut.iter()
                .map(|run| fragment_piece(&records[run.clone()]).bytes.len())
                .collect()
        };
        let spread = |sizes: &[usize]| {
            let body = &sizes[..sizes.len() - 1];
            *body.iter().max().unwrap() as f64 / *body.iter().min().unwrap() as f64
        };
        let shares = compressed_sizes(&records);
        let by_share = gz(&runs(records.len(), 2_000, |j| shares[j]));
        assert!(by_share.len() >= 20, "{} pieces", by_share.len());
        assert!(spread(&by_share) < 2.0, "gzipped shares: {by_share:?}");
        let raw_target = records.iter().map(|r| r.len()).sum::<usize>() / by_share.len();
        let by_raw = gz(&runs(records.len(), raw_target, |j| records[j].len()));
        assert!(spread(&by_raw) > 3.0, "raw bytes: {by_raw:?}");
    }

    #[test]
    fn fragment_text_keeps_short_texts_and_cuts_long_ones_at_a_space() {
        assert_eq!(fragment_text("short text", 240), "short text");
        assert_eq!(fragment_text("exactly ten", 11), "exactly ten");
        assert_eq!(fragment_text("anything at all", 0), "anything at all");
        // 12 characters at most: "one two" (7) + "…", cut back from "one two thr".
        assert_eq!(fragment_text("one two three four", 12), "one two…");
        // No space in the second half: cut mid-word.
        assert_eq!(fragment_text("abcdefghijklmnop", 8), "abcdefg…");
    }

    #[test]
    fn fragment_text_counts_characters_not_bytes() {
        // Cyrillic and CJK take 2 and 3 bytes a character; the cut stays on a boundary.
        let ru = "Персонализированный PageRank распространяет массу по графу";
        let cut = fragment_text(ru, 30);
        assert_eq!(cut, "Персонализированный PageRank…");
        assert!(cut.chars().count() <= 30);
        let zh = "个性化PageRank算法在HippoRAG中起什么作用";
        assert_eq!(fragment_text(zh, 10), "个性化PageRa…");
    }
}
