//! Shared helpers for the integration tests of every crate in the workspace (included by path
//! from `indexer/tests` and `benchtools/tests`): paths into `../shared/data` and the fixtures the
//! wasm test reads.
#![allow(dead_code)]

use std::path::PathBuf;

/// The workspace root: the nearest directory above this crate's manifest holding Cargo.lock.
pub fn root() -> PathBuf {
    let mut dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    while !dir.join("Cargo.lock").exists() {
        assert!(
            dir.pop(),
            "no Cargo.lock above {}",
            env!("CARGO_MANIFEST_DIR")
        );
    }
    dir
}

/// `../shared/data/<rel>` relative to the workspace root.
pub fn data(rel: &str) -> PathBuf {
    root().join("../shared/data").join(rel)
}

/// `target/fixtures/<name>` below the workspace root.
pub fn fixture(name: &str) -> PathBuf {
    let dir = root().join("target/fixtures");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}
