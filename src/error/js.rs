//! Core errors as JS `Error`s (wasm32 only), shared by the retriever's bindings (`wasm`) and
//! the index-in-pieces module (`hipporag-pieces-wasm`).

use js_sys::Reflect;
use wasm_bindgen::JsValue;

use crate::Error;

/// A JS `Error` with `message` and a `kind` property (a stable, machine-readable name).
pub fn js_error(message: &str, kind: &str) -> JsValue {
    let e = js_sys::Error::new(message);
    // Setting a property on a fresh Error object cannot fail.
    let _ = Reflect::set(&e, &JsValue::from_str("kind"), &JsValue::from_str(kind));
    e.into()
}

/// The JS `Error` for a core error: its `Display` text, and `kind` = [`Error::kind`].
pub fn to_js_error(e: Error) -> JsValue {
    js_error(&e.to_string(), e.kind())
}
