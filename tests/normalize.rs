//! Phrase normalisation natively against the cases the wasm test checks in the JS engine.

#[path = "cases/normalize.rs"]
mod normalize_cases;

use hipporag_wasm::text::normalize_phrase;

#[test]
fn native_keys_match_the_shared_cases() {
    for (input, want) in normalize_cases::CASES {
        assert_eq!(normalize_phrase(input), *want, "{input:?}");
    }
}
