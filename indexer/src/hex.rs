//! Lowercase hex of digests: the keys of the OpenIE and vector caches and the index file name.
//! The core's, which also names the pieces of the index in pieces.

pub use hipporag_wasm::pieces::hex;
