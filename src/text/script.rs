//! Which script a character or a word is in: the Unicode ranges that [`super::Language`]'s
//! readings use to tell a language's own words from Latin ones, and the units (one character,
//! or one grapheme cluster as UAX #29 gives it) of the scripts read in units and pairs.

/// True for a Han (CJK unified ideograph) character, or a Japanese kana: scripts written
/// without spaces between words, which [`terms`](super::terms) cuts into characters and pairs, and which
/// [`crate::graph`] matches against the phrase nodes character by character.
pub fn is_cjk(c: char) -> bool {
    is_han(c) || matches!(c, '\u{3040}'..='\u{30FF}') // Hiragana, Katakana
}

/// True for a Han character (a CJK unified or compatibility ideograph): a Chinese or Japanese
/// word of one character can be one of these, where a kana, a Hangul syllable or a Thai
/// grapheme cluster alone is a word's part or a particle.
pub fn is_han(c: char) -> bool {
    matches!(c as u32,
        0x3400..=0x4DBF      // CJK Extension A
        | 0x4E00..=0x9FFF    // CJK Unified Ideographs
        | 0xF900..=0xFAFF    // CJK Compatibility Ideographs
        | 0x20000..=0x2FA1F) // Extensions B–F, Compatibility Supplement
}

/// A Japanese unit: a word of kana and Han only (UAX #29 gives one per Han character or
/// Hiragana, one per run of Katakana), halfwidth Katakana included.
pub(super) fn is_japanese_unit(w: &str) -> bool {
    w.chars()
        .all(|c| is_cjk(c) || matches!(c, '\u{31F0}'..='\u{31FF}' | '\u{FF66}'..='\u{FF9F}'))
}

/// A Korean unit: a word of Hangul only (UAX #29 keeps an eojeol whole): syllables, and the
/// conjoining jamo of decomposed text.
pub(super) fn is_korean_unit(w: &str) -> bool {
    w.chars().all(|c| {
        matches!(c as u32, 0xAC00..=0xD7A3 | 0x1100..=0x11FF | 0x3130..=0x318F | 0xA960..=0xA97F | 0xD7B0..=0xD7FF)
    })
}

/// A unit of any script read in units and pairs (Han, kana, Hangul, Thai, Lao, Khmer,
/// Burmese): every index reads these scripts' runs so, whatever its language, since their
/// words are not separated by spaces (UAX #29 gives one word per Han character, kana,
/// grapheme cluster, Katakana run or Korean eojeol).
pub(super) fn is_any_unit(w: &str) -> bool {
    is_japanese_unit(w)
        || is_korean_unit(w)
        || is_thai_unit(w)
        || is_lao_unit(w)
        || is_khmer_unit(w)
        || is_burmese_unit(w)
}

/// True for an Arabic letter or mark (Arabic, its supplements and presentation forms).
pub(super) fn is_arabic(c: char) -> bool {
    matches!(c as u32, 0x0600..=0x06FF | 0x0750..=0x077F | 0x08A0..=0x08FF | 0xFB50..=0xFDFF | 0xFE70..=0xFEFF)
}

/// True for a Greek letter (Greek and Coptic, Greek Extended).
pub(super) fn is_greek(c: char) -> bool {
    matches!(c as u32, 0x0370..=0x03FF | 0x1F00..=0x1FFF)
}

/// True for a Tamil letter or mark.
pub(super) fn is_tamil(c: char) -> bool {
    matches!(c as u32, 0x0B80..=0x0BFF)
}

/// True for an Armenian letter (Armenian, and the Armenian ligatures of Alphabetic
/// Presentation Forms).
pub(super) fn is_armenian(c: char) -> bool {
    matches!(c as u32, 0x0530..=0x058F | 0xFB13..=0xFB17)
}

/// True for a Devanagari letter or mark (Devanagari, Devanagari Extended).
pub(super) fn is_devanagari(c: char) -> bool {
    matches!(c as u32, 0x0900..=0x097F | 0xA8E0..=0xA8FF)
}

/// True for a Hebrew letter or mark (Hebrew, and the Hebrew presentation forms).
pub(super) fn is_hebrew(c: char) -> bool {
    matches!(c as u32, 0x0590..=0x05FF | 0xFB1D..=0xFB4F)
}

/// A character of Thai, Lao, Khmer or Burmese (their blocks, as the units below read them).
pub fn is_lexicon_char(c: char) -> bool {
    matches!(c, '\u{0E00}'..='\u{0EFF}' | '\u{1780}'..='\u{17FF}' | '\u{19E0}'..='\u{19FF}' | '\u{1000}'..='\u{109F}' | '\u{AA60}'..='\u{AA7F}' | '\u{A9E0}'..='\u{A9FF}')
}

/// A unit of a script whose longer words the index's lexicon holds (Thai, Lao, Khmer,
/// Burmese: [`super::lexicon_runs`]).
pub(super) fn is_lexicon_unit(w: &str) -> bool {
    is_thai_unit(w) || is_lao_unit(w) || is_khmer_unit(w) || is_burmese_unit(w)
}

/// True for a Cyrillic letter.
pub(super) fn is_cyrillic(c: char) -> bool {
    matches!(c as u32, 0x0400..=0x052F)
}

/// A Thai unit: a word of the Thai block (UAX #29 gives one per grapheme cluster).
pub(super) fn is_thai_unit(w: &str) -> bool {
    w.chars().all(|c| matches!(c, '\u{0E00}'..='\u{0E7F}'))
}

/// A Lao unit: a word of the Lao block.
pub(super) fn is_lao_unit(w: &str) -> bool {
    w.chars().all(|c| matches!(c, '\u{0E80}'..='\u{0EFF}'))
}

/// A Khmer unit: a word of Khmer or Khmer Symbols.
pub(super) fn is_khmer_unit(w: &str) -> bool {
    w.chars()
        .all(|c| matches!(c, '\u{1780}'..='\u{17FF}' | '\u{19E0}'..='\u{19FF}'))
}

/// A Burmese unit: a word of Myanmar or its Extended-A and -B blocks.
pub(super) fn is_burmese_unit(w: &str) -> bool {
    w.chars().all(|c| matches!(c, '\u{1000}'..='\u{109F}' | '\u{AA60}'..='\u{AA7F}' | '\u{A9E0}'..='\u{A9FF}'))
}
