//! Phrase normalisation and accent folding natively against the cases the wasm test checks in the JS engine.

#[path = "cases/normalize.rs"]
mod normalize_cases;

use hipporag_wasm::text::{fold_latin_accents, nfc, normalize_phrase};

#[test]
fn native_keys_match_the_shared_cases() {
    for (input, want) in normalize_cases::CASES {
        assert_eq!(normalize_phrase(input), *want, "{input:?}");
    }
}

#[test]
fn native_compositions_match_the_shared_cases() {
    for (input, want) in normalize_cases::NFC_CASES {
        assert_eq!(nfc(input), *want, "{input:?}");
    }
}

#[test]
fn native_folds_match_the_shared_cases() {
    for (input, want) in normalize_cases::FOLD_CASES {
        assert_eq!(fold_latin_accents(input), *want, "{input:?}");
    }
}
