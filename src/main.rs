//! `hipporag`: the native companion binary (index, query, eval, info). See [`hipporag_wasm::cli`].

fn main() -> std::process::ExitCode {
    hipporag_wasm::cli::main()
}
