//! Text encoders: the [`Encoder`] trait and the built-in, download-free [`HashedNgramEncoder`].
//!
//! An encoder maps strings to L2-normalised vectors of a fixed dimension. The indexer encodes
//! phrases (for synonymy edges and seed linking), passages (dense scores) and facts (HippoRAG 2);
//! at query time the caller — natively the CLI, in the browser a JS-called encoder — encodes the
//! query entities with the *same* encoder, which the index header names ([`EncoderInfo`]).

use serde::{Deserialize, Serialize};

use crate::Result;
use crate::text::is_cjk;
use crate::text::{normalize_phrase, tokens};

/// Identity of the encoder an index was built with; stored in the index header.
///
/// Query embeddings must come from the same encoder: [`crate::Retriever`] checks `dim` on every
/// call, and front ends compare `id` before encoding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EncoderInfo {
    /// Stable identifier, e.g. `hashed-ngram-v1` or `sentence-transformers/all-MiniLM-L6-v2`.
    pub id: String,
    /// Embedding dimension (values per vector).
    pub dim: u32,
    /// True when every output vector has unit L2 norm (cosine = dot product).
    pub normalized: bool,
}

/// A text encoder producing one `dim`-dimensional vector per input string.
pub trait Encoder {
    /// The encoder's identity, recorded in the index header.
    fn info(&self) -> EncoderInfo;

    /// Encodes `texts` into a row-major `texts.len() × dim` matrix of f32.
    ///
    /// # Errors
    /// [`crate::Error::Encoder`] when the model fails (the built-in encoder never fails).
    fn encode(&self, texts: &[&str]) -> Result<Vec<f32>>;
}

/// The id of [`HashedNgramEncoder`] in index headers.
pub const HASHED_NGRAM_ID: &str = "hashed-ngram-v1";

/// A deterministic lexical encoder: hashed word unigrams and character trigrams, L2-normalised.
///
/// The text is first normalised with [`normalize_phrase`] (so case, accents and punctuation do
/// not matter). Features: every token (`w:` + token), and every character trigram of each token
/// padded with spaces (`" ab"`, `"abc"`, `"bc "`), and every pair of adjacent CJK characters
/// (`b:` + pair; a Chinese word is most often two characters, which share no trigram with a
/// longer word holding them: "北京" and "北京大学"). Text without CJK characters has no pair
/// feature. Each feature is hashed with 64-bit FNV-1a;
/// the hash picks a bucket (`h mod dim`) and a sign (top bit), the "hashing trick" of Weinberger
/// et al. (2009). The sum is L2-normalised; a text with no letter or digit maps to the zero vector.
///
/// It needs no model file and is identical natively and in wasm (the retriever's wasm exports it,
/// so a page can query an index built with it). It captures spelling overlap, not meaning: a
/// real sentence encoder (all-MiniLM-L6-v2) links and clusters synonyms far better.
#[derive(Debug, Clone, Copy)]
pub struct HashedNgramEncoder {
    dim: usize,
}

impl HashedNgramEncoder {
    /// The default dimension (the same as all-MiniLM-L6-v2, so index sizes compare directly).
    pub const DEFAULT_DIM: usize = 384;

    /// An encoder producing `dim`-dimensional vectors (`dim ≥ 1`).
    pub fn new(dim: usize) -> Self {
        assert!(dim > 0, "HashedNgramEncoder dimension must be positive");
        Self { dim }
    }

    /// Encodes one text into `out` (`out.len() == dim`), overwriting it.
    pub fn encode_into(&self, text: &str, out: &mut [f32]) {
        out.fill(0.0);
        let norm = normalize_phrase(text);
        let mut buf: Vec<char> = Vec::with_capacity(32);
        for tok in tokens(&norm) {
            self.add(&[b"w:", tok.as_bytes()], out);
            buf.clear();
            buf.push(' ');
            buf.extend(tok.chars());
            buf.push(' ');
            let mut s = [0u8; 16];
            for w in buf.windows(3) {
                let mut len = 0;
                for c in w {
                    len += c.encode_utf8(&mut s[len..]).len();
                }
                self.add(&[b"c:", &s[..len]], out);
            }
            // CJK: every pair of adjacent characters too, the unit of a Chinese word.
            for w in buf.windows(2).filter(|w| is_cjk(w[0]) && is_cjk(w[1])) {
                let mut len = 0;
                for c in w {
                    len += c.encode_utf8(&mut s[len..]).len();
                }
                self.add(&[b"b:", &s[..len]], out);
            }
        }
        let n: f32 = out.iter().map(|x| x * x).sum::<f32>().sqrt();
        if n > 0.0 {
            out.iter_mut().for_each(|x| *x /= n);
        }
    }

    fn add(&self, parts: &[&[u8]], out: &mut [f32]) {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for p in parts {
            for &b in *p {
                h ^= u64::from(b);
                h = h.wrapping_mul(0x0000_0100_0000_01b3);
            }
        }
        let sign = if h >> 63 == 0 { 1.0 } else { -1.0 };
        out[(h % self.dim as u64) as usize] += sign;
    }
}

impl Default for HashedNgramEncoder {
    fn default() -> Self {
        Self::new(Self::DEFAULT_DIM)
    }
}

impl Encoder for HashedNgramEncoder {
    fn info(&self) -> EncoderInfo {
        EncoderInfo {
            id: HASHED_NGRAM_ID.to_string(),
            dim: self.dim as u32,
            normalized: true,
        }
    }

    fn encode(&self, texts: &[&str]) -> Result<Vec<f32>> {
        let mut out = vec![0.0; texts.len() * self.dim];
        for (t, row) in texts.iter().zip(out.chunks_exact_mut(self.dim)) {
            self.encode_into(t, row);
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cos(a: &[f32], b: &[f32]) -> f32 {
        a.iter().zip(b).map(|(x, y)| x * y).sum()
    }

    #[test]
    fn cjk_words_share_their_character_pairs() {
        let e = HashedNgramEncoder::default();
        let v = e
            .encode(&["北京", "北京大学", "上海", "北京 大学"])
            .unwrap();
        let row = |k: usize| &v[k * 384..(k + 1) * 384];
        // A word and a longer word holding it are near; two unrelated words are not.
        assert!(cos(row(0), row(1)) > 0.3, "{}", cos(row(0), row(1)));
        assert!(cos(row(0), row(2)).abs() < 0.2, "{}", cos(row(0), row(2)));
        // No pair crosses a space.
        assert!(cos(row(1), row(3)) < 0.99);
    }

    #[test]
    fn deterministic_normalised_and_lexical() {
        let e = HashedNgramEncoder::default();
        let v = e
            .encode(&[
                "Thomas C. Südhof",
                "thomas c sudhof",
                "Stanford University",
                "",
            ])
            .unwrap();
        let d = 384;
        let (a, b, c, z) = (&v[..d], &v[d..2 * d], &v[2 * d..3 * d], &v[3 * d..]);
        let norm = |x: &[f32]| x.iter().map(|v| v * v).sum::<f32>().sqrt();
        assert!((norm(a) - 1.0).abs() < 1e-5, "L2-normalised: {}", norm(a));
        assert!((norm(c) - 1.0).abs() < 1e-5, "L2-normalised: {}", norm(c));
        assert!(
            (cos(a, b) - 1.0).abs() < 1e-5,
            "normalisation makes these identical"
        );
        assert!(cos(a, c) < 0.3);
        assert!(z.iter().all(|x| *x == 0.0));
        let s = e.encode(&["Stanford"]).unwrap();
        assert!(cos(&s, c) > 0.5, "shared word and trigrams");
        assert_eq!(
            v,
            e.encode(&[
                "Thomas C. Südhof",
                "thomas c sudhof",
                "Stanford University",
                ""
            ])
            .unwrap()
        );
    }
}
