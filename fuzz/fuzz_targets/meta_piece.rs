//! The meta piece of the index in pieces (decompressed): any bytes give the index in pieces or a
//! format error; an accepted meta piece answers what a page asks of it without panicking.
#![no_main]

use hipporag_wasm::pieces::Pieces;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(s) = Pieces::from_meta(data) {
        let q = "how do I sort a list of dicts by value";
        let _ = s.missing(q);
        let _ = s.fragment_name(3);
    }
});
