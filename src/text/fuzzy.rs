//! Which words a search box reads as near one another: the word being typed and the words it
//! begins (a prefix), a misspelt word and its neighbours (within one edit). BM25's query
//! expansion ([`crate::lexical`]) and the static query vector ([`crate::embeddings`]) read the
//! same rules, so both expand the same words.

/// Shortest term of the word being typed that is expanded to its completions, in characters.
pub const MIN_PREFIX_CHARS: usize = 3;
/// Shortest word (in letters) that is matched within one edit when the dictionary lacks it.
pub const MIN_FUZZY_CHARS: usize = 5;
/// Most alternatives a word is expanded to, besides itself.
pub const MAX_EXPANSIONS: usize = 16;
/// Shortest neighbour of a misspelt word (and shortest word the deletes dictionary lists): a
/// neighbour of a misspelt word of at least [`MIN_FUZZY_CHARS`] letters has at least one fewer.
pub const MIN_ENTRY_CHARS: usize = MIN_FUZZY_CHARS - 1;

/// Whether `u` is a neighbour of the misspelt word `t` (module docs): alphabetic, of at least
/// [`MIN_ENTRY_CHARS`] characters (the deletes dictionary's entries: a stemmer may leave a
/// long misspelt word a shorter term, whose shorter neighbours the index in pieces could not
/// list), beginning with `t`'s first character, and one edit away or a proper beginning of
/// `t`.
pub fn is_neighbour(t: &str, u: &str) -> bool {
    t.chars().next().is_some()
        && t.chars().next() == u.chars().next()
        && u.chars().all(char::is_alphabetic)
        && u.chars().count() >= MIN_ENTRY_CHARS
        && (strsim::osa_distance(t, u) == 1 || is_stem_of(t, u))
}

/// Whether `u` is a proper beginning of `t` of at least [`MIN_ENTRY_CHARS`] characters: the
/// stem a stemmer would have left, had the misspelling not hidden `t`'s suffix from it.
fn is_stem_of(t: &str, u: &str) -> bool {
    u.len() < t.len() && t.starts_with(u) && u.chars().count() >= MIN_ENTRY_CHARS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stem_the_misspelt_word_begins_with_is_a_neighbour() {
        assert!(is_neighbour("terminaet", "termin"));
        assert!(is_neighbour("permuttaions", "permut"));
        // Too short, not a beginning, longer, or another first letter.
        assert!(!is_neighbour("terminaet", "ter"));
        assert!(!is_neighbour("terminaet", "termite"));
        assert!(!is_neighbour("termin", "terminaet"));
        assert!(!is_neighbour("xtermin", "termin"));
    }

    /// A long word's short term (Arabic's stemmer drops the article: "العالم" → "عالم") has no
    /// neighbour shorter than the deletes dictionary's entries.
    #[test]
    fn a_neighbour_has_as_many_characters_as_a_deletes_entry() {
        assert!(is_neighbour("عالم", "عالمي"));
        assert!(is_neighbour("عام", "عامل"));
        assert!(!is_neighbour("عام", "عال"));
        assert!(!is_neighbour("lsit", "lst"));
        assert!(is_neighbour("lsit", "list"));
    }
}
