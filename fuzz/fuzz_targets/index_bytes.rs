//! The single-file loader: any bytes give an index or a format error, never a panic.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = hipporag_wasm::Index::from_bytes(data);
});
