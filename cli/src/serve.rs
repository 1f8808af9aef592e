//! `hipporag site --serve`: after the build, the site's directory served on loopback, as
//! Pagefind's `--serve` serves it: port 1414, or another free one when 1414 is taken
//! (`$HIPPORAG_PORT` picks it; 0 for any). GET and HEAD of files below the directory, a
//! directory's `index.html`, and nothing outside it. It runs until the process is interrupted.

use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use hipporag_indexer::{Error, Result};
use tiny_http::{Header, Method, Request, Response, Server, StatusCode};

/// Pagefind's port.
pub(crate) const DEFAULT_PORT: u16 = 1414;
/// The variable that picks the port (Pagefind has none: it takes 1414 or any free port).
pub(crate) const PORT_VAR: &str = "HIPPORAG_PORT";
/// Requests answered at once.
const WORKERS: usize = 4;

/// A server on `127.0.0.1:port`.
fn bind(port: u16) -> std::result::Result<Server, String> {
    Server::http(("127.0.0.1", port)).map_err(|e| e.to_string())
}

/// Serves `dir` on `port` (`None`: [`DEFAULT_PORT`] if free, else any free port) until the
/// process ends; prints its URL first.
///
/// # Errors
/// [`Error::Io`] when the directory cannot be read or the port cannot be bound.
pub(crate) fn serve(dir: &Path, port: Option<u16>) -> Result<()> {
    let root = std::fs::canonicalize(dir).map_err(|e| Error::io(dir, e))?;
    let server = match port {
        Some(p) => bind(p),
        None => bind(DEFAULT_PORT).or_else(|_| bind(0)),
    }
    .map_err(|e| {
        let port = port.unwrap_or(DEFAULT_PORT);
        Error::io(
            dir,
            std::io::Error::other(format!("cannot serve on 127.0.0.1:{port}: {e}")),
        )
    })?;
    let port = server
        .server_addr()
        .to_ip()
        .map_or(DEFAULT_PORT, |a| a.port());
    println!("Serving {} at http://127.0.0.1:{port}/", dir.display());
    let server = Arc::new(server);
    let workers: Vec<_> = (0..WORKERS)
        .map(|_| {
            let (server, root) = (Arc::clone(&server), root.clone());
            std::thread::spawn(move || {
                for rq in server.incoming_requests() {
                    answer(&root, rq);
                }
            })
        })
        .collect();
    for w in workers {
        let _ = w.join();
    }
    Ok(())
}

/// The `Content-Type` of a file by its extension (what a static host sends: `.wasm` as
/// `application/wasm`, which `WebAssembly.instantiateStreaming` requires).
fn content_type(path: &Path) -> &'static str {
    let ext = path
        .extension()
        .and_then(|x| x.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    match ext.as_str() {
        "html" | "htm" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" | "map" => "application/json",
        "wasm" => "application/wasm",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "avif" => "image/avif",
        "ico" => "image/x-icon",
        "txt" | "md" | "ts" => "text/plain; charset=utf-8",
        "xml" => "application/xml",
        "pdf" => "application/pdf",
        "woff" => "font/woff",
        "woff2" => "font/woff2",
        "ttf" => "font/ttf",
        _ => "application/octet-stream",
    }
}

/// `%XX`-decoded `s`, or `None` when it is malformed or not UTF-8.
fn percent_decoded(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = std::str::from_utf8(b.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// What a request's path is below `root`.
#[derive(Debug, PartialEq, Eq)]
enum Target {
    File(PathBuf),
    /// A directory asked for without its trailing `/`: redirect there, so that its page's
    /// relative links resolve.
    Slash(String),
    NotFound,
}

/// The file `url` names below `root` (canonical): its `index.html` for a directory; nothing
/// for a `..` or a path that resolves outside `root`.
fn target(root: &Path, url: &str) -> Target {
    let path = url.split(['?', '#']).next().unwrap_or("");
    let Some(decoded) = percent_decoded(path) else {
        return Target::NotFound;
    };
    let mut file = root.to_path_buf();
    for part in decoded.split('/').filter(|p| !p.is_empty() && *p != ".") {
        let mut c = Path::new(part).components();
        match (c.next(), c.next()) {
            (Some(Component::Normal(n)), None) => file.push(n),
            _ => return Target::NotFound,
        }
    }
    let Ok(real) = std::fs::canonicalize(&file) else {
        return Target::NotFound;
    };
    if !real.starts_with(root) {
        return Target::NotFound;
    }
    if real.is_dir() {
        if !path.ends_with('/') {
            return Target::Slash(format!("{path}/"));
        }
        let index = real.join("index.html");
        return if index.is_file() {
            Target::File(index)
        } else {
            Target::NotFound
        };
    }
    Target::File(real)
}

fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("an ASCII header")
}

/// Answers one request (errors writing the answer are the client's: ignored).
fn answer(root: &Path, rq: Request) {
    if !matches!(rq.method(), Method::Get | Method::Head) {
        let r = Response::from_string("405 Method Not Allowed")
            .with_status_code(StatusCode(405))
            .with_header(header("Allow", "GET, HEAD"));
        let _ = rq.respond(r);
        return;
    }
    let _ = match target(root, rq.url()) {
        Target::File(path) => match std::fs::File::open(&path) {
            Ok(f) => rq.respond(
                Response::from_file(f)
                    .with_header(header("Content-Type", content_type(&path)))
                    .with_header(header("Cache-Control", "no-cache")),
            ),
            Err(_) => rq.respond(Response::from_string("404 Not Found").with_status_code(404)),
        },
        Target::Slash(to) => rq.respond(
            Response::from_string("")
                .with_status_code(301)
                .with_header(header("Location", &to)),
        ),
        Target::NotFound => rq.respond(
            Response::from_string("404 Not Found")
                .with_status_code(404)
                .with_header(header("Content-Type", "text/plain; charset=utf-8")),
        ),
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_resolve_below_the_site_only() {
        let d = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(d.path()).unwrap();
        std::fs::create_dir_all(root.join("guide")).unwrap();
        std::fs::write(root.join("guide/index.html"), "x").unwrap();
        std::fs::write(root.join("a b.html"), "x").unwrap();
        assert_eq!(
            target(&root, "/guide/?q=1"),
            Target::File(root.join("guide/index.html"))
        );
        assert_eq!(target(&root, "/guide"), Target::Slash("/guide/".into()));
        assert_eq!(
            target(&root, "/a%20b.html#top"),
            Target::File(root.join("a b.html"))
        );
        assert_eq!(target(&root, "/"), Target::NotFound);
        for bad in [
            "/../etc/passwd",
            "/guide/%2e%2e/%2e%2e/x",
            "/%zz",
            "/missing.html",
        ] {
            assert_eq!(target(&root, bad), Target::NotFound, "{bad}");
        }
        assert_eq!(content_type(Path::new("x.wasm")), "application/wasm");
    }
}
