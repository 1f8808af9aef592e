//! Shared helpers for the integration tests: paths into `../shared/data` and the fixtures that
//! the native tests hand to the wasm tests.
#![allow(dead_code)]

use std::path::PathBuf;

/// `../shared/data/<rel>` relative to the project root.
pub fn data(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data")
        .join(rel)
}

/// `target/fixtures/<name>`: written by the native tests, read by the wasm tests.
pub fn fixture(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/fixtures");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}
