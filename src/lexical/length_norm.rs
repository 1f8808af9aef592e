//! BM25's passage lengths in one byte each: the encoding Lucene has used for its length norms
//! since version 7 (`SmallFloat.intToByte4`, LUCENE-7730), written here from its definition.
//!
//! A length below [`EXACT_BELOW`] (24) is its own byte. A longer one is stored as a small
//! float of its excess over 24: an exponent and the three bits after its leading one, so each
//! step is at most 1/8 of the value (lengths 24–31 are still exact; 1,000 is stored as 984). The
//! largest byte stands for 2,013,265,944 terms and more. Encoding rounds down.
//!
//! BM25 reads every length through [`quantised`] ([`crate::lexical::Bm25Data::impacts`]) when it
//! computes each posting's impact, for the single file and a site's term pieces alike. (Piece
//! format 8 stored these bytes in the meta piece, one per passage; since format 9 the term
//! pieces hold the impacts and a page needs no length.)

/// Lengths below this are stored exactly, as their own byte.
pub const EXACT_BELOW: u32 = 24;

/// The longest length with a byte of its own ([`decode`]`(255)` stands for it and above).
const MAX_LEN: u32 = i32::MAX as u32;

/// The byte of a passage of `len` indexed terms (monotone, rounding down; 255 from
/// 2,013,265,944 terms up).
pub fn encode(len: u32) -> u8 {
    if len < EXACT_BELOW {
        return len as u8;
    }
    let excess = len.min(MAX_LEN) - EXACT_BELOW;
    let bits = 32 - excess.leading_zeros();
    let small = if bits < 4 {
        // Up to 7: exact, with a zero exponent.
        excess
    } else {
        let shift = bits - 4;
        // The three bits after the leading one, and the exponent shift + 1 above them.
        ((excess >> shift) & 0b111) | ((shift + 1) << 3)
    };
    (EXACT_BELOW + small) as u8
}

/// The length byte `b` stands for: the least length [`encode`] maps to it.
pub fn decode(b: u8) -> u32 {
    let b = u32::from(b);
    if b < EXACT_BELOW {
        return b;
    }
    let small = b - EXACT_BELOW;
    let (mantissa, exponent) = (small & 0b111, small >> 3);
    let excess = if exponent == 0 {
        mantissa
    } else {
        (mantissa | 0b1000) << (exponent - 1)
    };
    EXACT_BELOW + excess
}

/// `len` as BM25 reads it: `decode(encode(len))`.
pub fn quantised(len: u32) -> u32 {
    decode(encode(len))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_lengths_are_exact_and_larger_ones_within_an_eighth() {
        for len in 0..32 {
            assert_eq!(quantised(len), len);
        }
        assert_eq!(quantised(1000), 984);
        let mut last = 0;
        for len in (0..5_000_000u32).step_by(7).chain([MAX_LEN]) {
            let q = quantised(len);
            assert!(q <= len, "{len} → {q}");
            assert!(f64::from(len - q) <= f64::from(len) / 8.0, "{len} → {q}");
            let b = encode(len);
            assert!(b >= last, "not monotone at {len}");
            last = b;
            // A decoded length encodes back to its own byte.
            assert_eq!(encode(decode(b)), b);
        }
        assert_eq!(encode(MAX_LEN), 255);
        assert_eq!(encode(u32::MAX), 255);
        assert_eq!(decode(255), 2_013_265_944);
    }
}
