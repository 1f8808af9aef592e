//! Text analysis, the same on the index side and the query side: the terms of a text in its
//! language ([`terms`]), the normalised form of a phrase ([`normalize_phrase`]), what marks a
//! name ([`is_capitalised`], [`name_end`]), and which words count as near one another for a
//! search box ([`is_neighbour`], [`MIN_PREFIX_CHARS`]).

mod analysis;
mod fuzzy;
mod language;
mod lexicon;
mod names;
mod normalize;
mod script;

pub use analysis::{
    WHOLE_WORD_UNITS, WordKind, WordSpan, phrase_stem_key, terms, unit_term, word_spans,
};
pub use fuzzy::{MAX_EXPANSIONS, MIN_ENTRY_CHARS, MIN_FUZZY_CHARS, MIN_PREFIX_CHARS, is_neighbour};
pub use language::{Language, StemmerBuild, primary_subtag};
pub use lexicon::{
    LEXICON_UNITS, lexicon_candidates, lexicon_runs, lexicon_terms, lexicon_windows,
};
pub use names::{
    NameStyle, is_article, is_capitalised, is_name_connector, is_short_number, literal_spans,
    name_end, name_share,
};
pub use normalize::{fold_latin_accents, nfc, normalize_phrase, tokens};
pub use script::{is_cjk, is_han, is_lexicon_char};
