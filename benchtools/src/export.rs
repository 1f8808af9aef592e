//! `hipporag export-graph`: one mode's graph and per-question PPR problems, for an independent
//! reference (`bench/igraph_reference.py` re-solves them with igraph's PRPACK, as HippoRAG does).
//!
//! For each question the built-in query-entity extractor and the index's encoder prepare the
//! query as `hipporag eval` does; [`Retriever::ppr_problem`] gives the graph and reset vector
//! that [`Retriever::retrieve`] solves, [`personalized_pagerank`] the PPR vector, and `retrieve`
//! itself the top-k passages and the native time. Questions that fall back to dense ranking
//! (no seed) have no PPR problem and are left out (counted in `meta.fallbacks`).
//!
//! **Dangling probes.** A few extra rows ("probes", `kind` = 1) take a question's reset vector
//! and add weight on dangling (zero-degree) nodes, so the reference can check how a walker on a
//! dangling node restarts (ours: by the reset vector, see [`hipporag_wasm::graph`]).
//!
//! # File format
//!
//! An uncompressed NumPy `.npz` (a zip of `.npy` files, format 1.0, little-endian, C order):
//! `numpy.load(path)` reads it. With `R` rows (questions + probes), `V` graph nodes, `E`
//! undirected edges, `P` passages and `k` = `meta.top_k`:
//!
//! | array | dtype | shape | content |
//! |---|---|---|---|
//! | `meta` | u1 | (bytes,) | UTF-8 JSON, [`ExportMeta`] |
//! | `edge_src`, `edge_dst` | u4 | (E,) | each undirected edge once, `src < dst` |
//! | `edge_weight` | f8 | (E,) | its weight (the stored f32, exactly) |
//! | `pt_indptr`, `pt_indices`, `pt_data` | u4, u4, f8 | (P+1,), (nnz,), (nnz,) | `Pᵀ` (passages × phrases, CSR, counts) |
//! | `reset_indptr`, `reset_indices`, `reset_values` | u4, u4, f8 | (R+1,), (nnz,), (nnz,) | reset vectors' non-zeros (CSR by row, unnormalised) |
//! | `ppr` | f8 | (R, V) | our PPR vector (sums to 1) |
//! | `top` | u4 | (R, k) | our top-k passage ids, best first |
//! | `time_ms` | f8 | (R,) | native time of one `retrieve()` for questions, PPR + ranking for probes |
//! | `iterations` | u4 | (R,) | PPR iterations |
//! | `question` | u4 | (R,) | position of the question in the questions file |
//! | `kind` | u1 | (R,) | 0 = question, 1 = dangling probe |
//!
//! Passage scores: `meta.ranking` = `"pt_dot_ppr"` (hipporag1: `Pᵀ·ppr`) or `"passage_nodes"`
//! (hipporag2: `ppr[meta.passage_offset + j]`). Ranking: score descending, passage id ascending
//! on ties ([`hipporag_wasm::graph::top_k`]).

use std::collections::BTreeMap;
use std::io::{Cursor, Read, Write};
use std::time::Instant;

use serde::{Deserialize, Serialize};

use hipporag_indexer::eval::EvalQuestion;
use hipporag_indexer::{Error, Result};
use hipporag_wasm::embeddings::Encoder;
use hipporag_wasm::graph::top_k;
use hipporag_wasm::graph::{PprOptions, personalized_pagerank};
use hipporag_wasm::index::{Index, SparseMatrix};
use hipporag_wasm::search::{Mode, PprMethod, RetrieveOptions, Retriever};

/// Value of [`ExportMeta::format`].
pub const FORMAT: &str = "hipporag-graph-export-v1";
/// Dangling probes added at most.
pub const MAX_PROBES: usize = 5;

/// The `meta` array's JSON.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExportMeta {
    /// Always [`FORMAT`].
    pub format: String,
    /// `hipporag1` or `hipporag2`.
    pub mode: Mode,
    /// Graph nodes `V`.
    pub nodes: usize,
    /// Phrase nodes `|N|` (node ids `0..|N|`).
    pub phrases: usize,
    /// Passages `|P|`.
    pub passages: usize,
    /// Undirected edges `E`.
    pub edges: usize,
    /// hipporag2: node id of passage 0 (`|N|`); hipporag1: `None`.
    pub passage_offset: Option<usize>,
    /// `"pt_dot_ppr"` or `"passage_nodes"` (see the module docs).
    pub ranking: String,
    /// PPR damping (probability of following an edge).
    pub damping: f64,
    /// PPR L1 tolerance used.
    pub tolerance: f64,
    /// PPR iteration cap used.
    pub max_iterations: u32,
    /// Passages per row in `top`.
    pub top_k: usize,
    /// Questions in the file.
    pub questions: usize,
    /// Questions answered by a dense fallback (no PPR problem; not exported).
    pub fallbacks: usize,
    /// Probe rows (`kind` = 1).
    pub probes: usize,
    /// Nodes with no edge in the graph.
    pub dangling_nodes: usize,
    /// The encoder the queries were embedded with.
    pub encoder: String,
}

/// An export in memory (see the module docs for every field).
#[derive(Debug, Clone, PartialEq)]
pub struct GraphExport {
    /// Sizes and settings.
    pub meta: ExportMeta,
    /// Edge sources (`src < dst`).
    pub edge_src: Vec<u32>,
    /// Edge targets.
    pub edge_dst: Vec<u32>,
    /// Edge weights.
    pub edge_weight: Vec<f64>,
    /// `Pᵀ` row pointers.
    pub pt_indptr: Vec<u32>,
    /// `Pᵀ` phrase ids.
    pub pt_indices: Vec<u32>,
    /// `Pᵀ` counts.
    pub pt_data: Vec<f64>,
    /// Reset row pointers (`R + 1`).
    pub reset_indptr: Vec<u32>,
    /// Reset node ids.
    pub reset_indices: Vec<u32>,
    /// Reset weights.
    pub reset_values: Vec<f64>,
    /// PPR vectors, row-major `R × V`.
    pub ppr: Vec<f64>,
    /// Top passages, row-major `R × k`.
    pub top: Vec<u32>,
    /// Native milliseconds per row.
    pub time_ms: Vec<f64>,
    /// PPR iterations per row.
    pub iterations: Vec<u32>,
    /// Question position per row.
    pub question: Vec<u32>,
    /// 0 = question, 1 = dangling probe.
    pub kind: Vec<u8>,
}

/// Runs every question in `mode` and collects the export.
///
/// `opts.mode` must be `HippoRag1` or `HippoRag2`; `opts.top_k` passages are kept per row.
/// The export always runs the exact solver (`opts.ppr` is set to [`PprMethod::Exact`], so
/// the top-k come from the exported vector); use a tight `opts.tolerance` (the reference
/// compares vectors to 1e-6).
///
/// # Errors
/// [`Error::InvalidRequest`] for dense mode; encoder and retrieval errors.
pub fn export(
    retriever: &Retriever,
    encoder: &dyn Encoder,
    questions: &[EvalQuestion],
    opts: &RetrieveOptions,
) -> Result<GraphExport> {
    if opts.mode == Mode::Dense {
        return Err(Error::InvalidRequest(
            "export-graph: dense mode has no graph".into(),
        ));
    }
    let opts = &RetrieveOptions {
        ppr_method: PprMethod::Exact,
        ..opts.clone()
    };
    let index = retriever.index();
    let ppr_opts = PprOptions {
        damping: opts.damping,
        tolerance: opts.tolerance,
        max_iterations: opts.max_iterations,
    };
    let mut out = Rows::default();
    let (fallbacks, probes, graph_shape) =
        question_rows(&mut out, retriever, encoder, questions, opts, &ppr_opts)?;
    let Some((graph, inv_degree)) = graph_shape else {
        return Err(Error::InvalidRequest(format!(
            "export-graph: none of the {} questions has a seed in {} mode; nothing to compare",
            questions.len(),
            opts.mode
        )));
    };
    let dangling: Vec<usize> = (0..inv_degree.len())
        .filter(|&i| inv_degree[i] == 0.0)
        .collect();
    let n_probes = if dangling.is_empty() {
        0
    } else {
        probe_rows(
            &mut out,
            probes,
            &dangling,
            (graph, inv_degree),
            index,
            opts,
            &ppr_opts,
        )?
    };
    let edges = edge_list(graph);
    let n = index.phrases.len();
    let meta = ExportMeta {
        format: FORMAT.into(),
        mode: opts.mode,
        nodes: graph.rows(),
        phrases: n,
        passages: index.passages.len(),
        edges: edges.0.len(),
        passage_offset: (opts.mode == Mode::HippoRag2).then_some(n),
        ranking: if opts.mode == Mode::HippoRag2 {
            "passage_nodes"
        } else {
            "pt_dot_ppr"
        }
        .into(),
        damping: opts.damping,
        tolerance: opts.tolerance,
        max_iterations: opts.max_iterations,
        top_k: opts.top_k.min(index.passages.len()),
        questions: questions.len(),
        fallbacks,
        probes: n_probes,
        dangling_nodes: dangling.len(),
        encoder: index.header.encoder.id.clone(),
    };
    Ok(out.into_export(meta, edges, &index.passage_phrases))
}

/// A graph and its inverse degrees, as [`Retriever::ppr_problem`] gives them.
type GraphShape<'a> = (&'a SparseMatrix, &'a [f64]);

/// A question's position and reset vector, which a dangling probe row starts from.
type Probe = (usize, Vec<f64>);

/// One row per question that has a PPR problem, pushed to `out`. Returns the questions left
/// out (dense fallbacks), the first [`MAX_PROBES`] questions' reset vectors and the graph.
fn question_rows<'a>(
    out: &mut Rows,
    retriever: &'a Retriever,
    encoder: &dyn Encoder,
    questions: &[EvalQuestion],
    opts: &RetrieveOptions,
    ppr_opts: &PprOptions,
) -> Result<(usize, Vec<Probe>, Option<GraphShape<'a>>)> {
    let mut fallbacks = 0;
    let mut graph_shape = None;
    let mut probes = Vec::new();
    for (qi, q) in questions.iter().enumerate() {
        let query = retriever.prepare_query(&q.question, None, encoder)?;
        let input = query.input();
        let Some(problem) = retriever.ppr_problem(&input, opts)? else {
            fallbacks += 1;
            continue;
        };
        let t = Instant::now();
        let res = retriever.retrieve(&input, opts)?;
        let ms = t.elapsed().as_secs_f64() * 1e3;
        let ppr =
            personalized_pagerank(problem.graph, problem.inv_degree, &problem.reset, ppr_opts)?;
        let top: Vec<u32> = res.passages.iter().map(|p| p.id).collect();
        out.push(qi, 0, &problem.reset, &ppr.scores, &top, ms, ppr.steps());
        if probes.len() < MAX_PROBES {
            probes.push((qi, problem.reset.clone()));
        }
        graph_shape.get_or_insert((problem.graph, problem.inv_degree));
    }
    Ok((fallbacks, probes, graph_shape))
}

/// One probe row per `(question, reset)` of `probes`, pushed to `out`: the reset vector with
/// weight added on up to 3 of the `dangling` nodes. Returns the rows pushed.
fn probe_rows(
    out: &mut Rows,
    probes: Vec<Probe>,
    dangling: &[usize],
    (graph, inv_degree): GraphShape<'_>,
    index: &Index,
    opts: &RetrieveOptions,
    ppr_opts: &PprOptions,
) -> Result<usize> {
    let mut n_probes = 0;
    for (qi, mut reset) in probes {
        let w = reset.iter().copied().fold(0.0, f64::max);
        // Up to 3 dangling nodes, spread over the id range.
        for k in 0..3.min(dangling.len()) {
            reset[dangling[k * dangling.len() / 3.min(dangling.len())]] += w;
        }
        let t = Instant::now();
        let ppr = personalized_pagerank(graph, inv_degree, &reset, ppr_opts)?;
        let scores = match opts.mode {
            Mode::HippoRag2 => ppr.scores[index.phrases.len()..].to_vec(),
            _ => hipporag_wasm::graph::passage_scores(index, &ppr.scores),
        };
        let top: Vec<u32> = top_k(&scores, opts.top_k)
            .into_iter()
            .map(|(j, _)| j as u32)
            .collect();
        let ms = t.elapsed().as_secs_f64() * 1e3;
        out.push(qi, 1, &reset, &ppr.scores, &top, ms, ppr.steps());
        n_probes += 1;
    }
    Ok(n_probes)
}

/// Each undirected edge of `graph` once, `src < dst`: sources, targets and weights.
fn edge_list(graph: &SparseMatrix) -> (Vec<u32>, Vec<u32>, Vec<f64>) {
    let mut edge_src = Vec::with_capacity(graph.nnz() / 2);
    let mut edge_dst = Vec::with_capacity(graph.nnz() / 2);
    let mut edge_weight = Vec::with_capacity(graph.nnz() / 2);
    for (i, row) in graph.outer_iterator().enumerate() {
        for (j, &w) in row.iter().filter(|(j, _)| *j > i) {
            edge_src.push(i as u32);
            edge_dst.push(j as u32);
            edge_weight.push(f64::from(w));
        }
    }
    (edge_src, edge_dst, edge_weight)
}

/// Per-row arrays under construction.
struct Rows {
    reset_indptr: Vec<u32>,
    reset_indices: Vec<u32>,
    reset_values: Vec<f64>,
    ppr: Vec<f64>,
    top: Vec<u32>,
    time_ms: Vec<f64>,
    iterations: Vec<u32>,
    question: Vec<u32>,
    kind: Vec<u8>,
}

impl Default for Rows {
    fn default() -> Self {
        Self {
            reset_indptr: vec![0],
            reset_indices: Vec::new(),
            reset_values: Vec::new(),
            ppr: Vec::new(),
            top: Vec::new(),
            time_ms: Vec::new(),
            iterations: Vec::new(),
            question: Vec::new(),
            kind: Vec::new(),
        }
    }
}

impl Rows {
    /// The export of these rows with `meta`, the graph's `edges` ([`edge_list`]) and `Pᵀ`.
    fn into_export(
        self,
        meta: ExportMeta,
        (edge_src, edge_dst, edge_weight): (Vec<u32>, Vec<u32>, Vec<f64>),
        pt: &SparseMatrix,
    ) -> GraphExport {
        GraphExport {
            meta,
            edge_src,
            edge_dst,
            edge_weight,
            pt_indptr: pt.indptr().raw_storage().to_vec(),
            pt_indices: pt.indices().to_vec(),
            pt_data: pt.data().iter().map(|&x| f64::from(x)).collect(),
            reset_indptr: self.reset_indptr,
            reset_indices: self.reset_indices,
            reset_values: self.reset_values,
            ppr: self.ppr,
            top: self.top,
            time_ms: self.time_ms,
            iterations: self.iterations,
            question: self.question,
            kind: self.kind,
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn push(
        &mut self,
        question: usize,
        kind: u8,
        reset: &[f64],
        ppr: &[f64],
        top: &[u32],
        ms: f64,
        iterations: u32,
    ) {
        for (i, &w) in reset.iter().enumerate().filter(|(_, w)| **w != 0.0) {
            self.reset_indices.push(i as u32);
            self.reset_values.push(w);
        }
        self.reset_indptr.push(self.reset_indices.len() as u32);
        self.ppr.extend_from_slice(ppr);
        self.top.extend_from_slice(top);
        self.time_ms.push(ms);
        self.iterations.push(iterations);
        self.question.push(question as u32);
        self.kind.push(kind);
    }
}

impl GraphExport {
    /// Rows `R` (questions + probes).
    pub fn rows(&self) -> usize {
        self.kind.len()
    }

    /// The reset vector of row `r`, dense (`V` entries).
    pub fn reset(&self, r: usize) -> Vec<f64> {
        let mut v = vec![0.0; self.meta.nodes];
        let (a, b) = (
            self.reset_indptr[r] as usize,
            self.reset_indptr[r + 1] as usize,
        );
        for (&i, &w) in self.reset_indices[a..b]
            .iter()
            .zip(&self.reset_values[a..b])
        {
            v[i as usize] = w;
        }
        v
    }

    /// The PPR vector of row `r`.
    pub fn ppr_row(&self, r: usize) -> &[f64] {
        &self.ppr[r * self.meta.nodes..(r + 1) * self.meta.nodes]
    }

    /// The top passages of row `r`.
    pub fn top_row(&self, r: usize) -> &[u32] {
        &self.top[r * self.meta.top_k..(r + 1) * self.meta.top_k]
    }

    /// Encodes the `.npz` (deterministic: equal exports give equal bytes).
    pub fn to_npz(&self) -> Vec<u8> {
        let (r, v, k) = (self.rows(), self.meta.nodes, self.meta.top_k);
        let meta = serde_json::to_vec_pretty(&self.meta).expect("serialisable");
        let arrays: Vec<(&str, Vec<u8>)> = vec![
            ("meta", npy(&meta, &[meta.len()])),
            ("edge_src", npy(&self.edge_src, &[self.edge_src.len()])),
            ("edge_dst", npy(&self.edge_dst, &[self.edge_dst.len()])),
            (
                "edge_weight",
                npy(&self.edge_weight, &[self.edge_weight.len()]),
            ),
            ("pt_indptr", npy(&self.pt_indptr, &[self.pt_indptr.len()])),
            (
                "pt_indices",
                npy(&self.pt_indices, &[self.pt_indices.len()]),
            ),
            ("pt_data", npy(&self.pt_data, &[self.pt_data.len()])),
            (
                "reset_indptr",
                npy(&self.reset_indptr, &[self.reset_indptr.len()]),
            ),
            (
                "reset_indices",
                npy(&self.reset_indices, &[self.reset_indices.len()]),
            ),
            (
                "reset_values",
                npy(&self.reset_values, &[self.reset_values.len()]),
            ),
            ("ppr", npy(&self.ppr, &[r, v])),
            ("top", npy(&self.top, &[r, k])),
            ("time_ms", npy(&self.time_ms, &[r])),
            ("iterations", npy(&self.iterations, &[r])),
            ("question", npy(&self.question, &[r])),
            ("kind", npy(&self.kind, &[r])),
        ];
        let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
        for (name, bytes) in arrays {
            let o = zip::write::SimpleFileOptions::default()
                .compression_method(zip::CompressionMethod::Stored)
                .large_file(bytes.len() as u64 >= u64::from(u32::MAX));
            zip.start_file(format!("{name}.npy"), o)
                .expect("writing to memory");
            zip.write_all(&bytes).expect("writing to memory");
        }
        zip.finish().expect("writing to memory").into_inner()
    }

    /// Decodes an `.npz` written by [`GraphExport::to_npz`].
    ///
    /// # Errors
    /// [`Error::InvalidRequest`] naming the array (`ppr.npy`, …) that is missing, not a `.npy`
    /// of the expected dtype, or of a shape that disagrees with `meta`.
    pub fn from_npz(bytes: &[u8]) -> Result<Self> {
        let mut zip = zip::ZipArchive::new(Cursor::new(bytes))
            .map_err(|e| bad("the file", format!("not a zip (.npz) archive: {e}")))?;
        let mut arrays = BTreeMap::new();
        for i in 0..zip.len() {
            let mut f = zip
                .by_index(i)
                .map_err(|e| bad("the file", format!("zip entry {i}: {e}")))?;
            let name = f.name().to_string();
            let mut b = Vec::new();
            f.read_to_end(&mut b)
                .map_err(|e| bad(&name, format!("unreadable: {e}")))?;
            arrays.insert(name, b);
        }
        let mut get = |name: &str| -> Result<Vec<u8>> {
            arrays
                .remove(&format!("{name}.npy"))
                .ok_or_else(|| bad(&format!("{name}.npy"), "missing".into()))
        };
        let meta_bytes: Vec<u8> = from_npy(&get("meta")?, "meta")?.1;
        let meta: ExportMeta = serde_json::from_slice(&meta_bytes)
            .map_err(|e| bad("meta.npy", format!("not the expected JSON: {e}")))?;
        if meta.format != FORMAT {
            return Err(bad(
                "meta.npy",
                format!("format {:?}, expected {FORMAT:?}", meta.format),
            ));
        }
        let e = Self {
            edge_src: from_npy(&get("edge_src")?, "edge_src")?.1,
            edge_dst: from_npy(&get("edge_dst")?, "edge_dst")?.1,
            edge_weight: from_npy(&get("edge_weight")?, "edge_weight")?.1,
            pt_indptr: from_npy(&get("pt_indptr")?, "pt_indptr")?.1,
            pt_indices: from_npy(&get("pt_indices")?, "pt_indices")?.1,
            pt_data: from_npy(&get("pt_data")?, "pt_data")?.1,
            reset_indptr: from_npy(&get("reset_indptr")?, "reset_indptr")?.1,
            reset_indices: from_npy(&get("reset_indices")?, "reset_indices")?.1,
            reset_values: from_npy(&get("reset_values")?, "reset_values")?.1,
            ppr: from_npy(&get("ppr")?, "ppr")?.1,
            top: from_npy(&get("top")?, "top")?.1,
            time_ms: from_npy(&get("time_ms")?, "time_ms")?.1,
            iterations: from_npy(&get("iterations")?, "iterations")?.1,
            question: from_npy(&get("question")?, "question")?.1,
            kind: from_npy(&get("kind")?, "kind")?.1,
            meta,
        };
        e.check()?;
        Ok(e)
    }

    fn check(&self) -> Result<()> {
        let (r, m) = (self.rows(), &self.meta);
        let expect = |name: &str, found: usize, want: usize| {
            if found == want {
                Ok(())
            } else {
                Err(bad(
                    &format!("{name}.npy"),
                    format!("{found} values, expected {want}"),
                ))
            }
        };
        expect("edge_src", self.edge_src.len(), m.edges)?;
        expect("edge_dst", self.edge_dst.len(), m.edges)?;
        expect("edge_weight", self.edge_weight.len(), m.edges)?;
        expect("pt_indptr", self.pt_indptr.len(), m.passages + 1)?;
        expect("pt_data", self.pt_data.len(), self.pt_indices.len())?;
        expect("reset_indptr", self.reset_indptr.len(), r + 1)?;
        expect(
            "reset_values",
            self.reset_values.len(),
            self.reset_indices.len(),
        )?;
        expect("ppr", self.ppr.len(), r * m.nodes)?;
        expect("top", self.top.len(), r * m.top_k)?;
        expect("time_ms", self.time_ms.len(), r)?;
        expect("iterations", self.iterations.len(), r)?;
        expect("question", self.question.len(), r)?;
        if let Some(k) = self.kind.iter().find(|&&k| k > 1) {
            return Err(bad("kind.npy", format!("kind {k}, expected 0 or 1")));
        }
        let in_range = |name: &str, ids: &[u32], n: usize| {
            ids.iter()
                .all(|&i| (i as usize) < n)
                .then_some(())
                .ok_or_else(|| bad(&format!("{name}.npy"), format!("an id is ≥ {n}")))
        };
        in_range("edge_src", &self.edge_src, m.nodes)?;
        in_range("edge_dst", &self.edge_dst, m.nodes)?;
        in_range("reset_indices", &self.reset_indices, m.nodes)?;
        in_range("top", &self.top, m.passages)?;
        let monotone = |name: &str, p: &[u32], nnz: usize| {
            (p.windows(2).all(|w| w[0] <= w[1]) && p.last().map(|&x| x as usize) == Some(nnz))
                .then_some(())
                .ok_or_else(|| bad(&format!("{name}.npy"), "not a valid CSR indptr".into()))
        };
        monotone("pt_indptr", &self.pt_indptr, self.pt_indices.len())?;
        monotone("reset_indptr", &self.reset_indptr, self.reset_indices.len())
    }
}

fn bad(what: &str, message: String) -> Error {
    Error::InvalidRequest(format!("graph export: {what}: {message}"))
}

/// A value type of a `.npy` array.
trait NpyScalar: Copy {
    /// NumPy's dtype string.
    const DESCR: &'static str;
    /// Bytes per value.
    const SIZE: usize;
    fn put(self, out: &mut Vec<u8>);
    fn get(b: &[u8]) -> Self;
}

macro_rules! npy_scalar {
    ($t:ty, $descr:literal) => {
        impl NpyScalar for $t {
            const DESCR: &'static str = $descr;
            const SIZE: usize = std::mem::size_of::<$t>();
            fn put(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            fn get(b: &[u8]) -> Self {
                <$t>::from_le_bytes(b.try_into().expect("SIZE bytes"))
            }
        }
    };
}
npy_scalar!(u8, "|u1");
npy_scalar!(u32, "<u4");
npy_scalar!(f64, "<f8");

/// A `.npy` file (format 1.0, C order) holding `data` with `shape`.
fn npy<T: NpyScalar>(data: &[T], shape: &[usize]) -> Vec<u8> {
    debug_assert_eq!(shape.iter().product::<usize>(), data.len());
    let dims: Vec<String> = shape.iter().map(usize::to_string).collect();
    let tuple = if dims.len() == 1 {
        format!("({},)", dims[0])
    } else {
        format!("({})", dims.join(", "))
    };
    let mut header = format!(
        "{{'descr': '{}', 'fortran_order': False, 'shape': {tuple}, }}",
        T::DESCR
    );
    // Magic (6) + version (2) + length (2) + header, padded with spaces to a multiple of 64
    // and ended by a newline, as the format asks.
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut out = Vec::with_capacity(10 + header.len() + data.len() * T::SIZE);
    out.extend_from_slice(b"\x93NUMPY\x01\x00");
    out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    for &x in data {
        x.put(&mut out);
    }
    out
}

/// Reads a `.npy` written by [`npy`]: returns its shape and values.
fn from_npy<T: NpyScalar>(b: &[u8], name: &str) -> Result<(Vec<usize>, Vec<T>)> {
    let file = format!("{name}.npy");
    if b.len() < 10 || &b[..6] != b"\x93NUMPY" || b[6] != 1 {
        return Err(bad(&file, "not a NumPy format 1.x .npy array".into()));
    }
    let hlen = usize::from(u16::from_le_bytes([b[8], b[9]]));
    let header = b
        .get(10..10 + hlen)
        .and_then(|h| std::str::from_utf8(h).ok())
        .ok_or_else(|| bad(&file, "truncated or non-UTF-8 header".into()))?;
    let field = |key: &str, end: char| -> Option<&str> {
        let start = header.find(key)? + key.len();
        let len = header[start..].find(end)?;
        Some(&header[start..start + len])
    };
    let descr = field("'descr': '", '\'');
    if descr != Some(T::DESCR) {
        return Err(bad(
            &file,
            format!("dtype {descr:?}, expected {:?}", T::DESCR),
        ));
    }
    if !header.contains("'fortran_order': False") {
        return Err(bad(&file, "expected C order".into()));
    }
    let shape: Vec<usize> = field("'shape': (", ')')
        .ok_or_else(|| bad(&file, "no shape in the header".into()))?
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.parse()
                .map_err(|_| bad(&file, format!("shape entry {s:?}")))
        })
        .collect::<Result<_>>()?;
    let body = &b[10 + hlen..];
    let count: usize = shape.iter().product();
    if body.len() != count * T::SIZE {
        return Err(bad(
            &file,
            format!(
                "{} data bytes for shape {shape:?} of {}-byte values",
                body.len(),
                T::SIZE
            ),
        ));
    }
    Ok((shape, body.chunks_exact(T::SIZE).map(T::get).collect()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn npy_round_trips_and_has_numpy_framing() {
        let v = [1.5f64, -2.0, 3.25, 0.0, 7.0, 8.0];
        let b = npy(&v, &[2, 3]);
        assert_eq!(&b[..8], b"\x93NUMPY\x01\x00");
        let hlen = usize::from(u16::from_le_bytes([b[8], b[9]]));
        assert_eq!((10 + hlen) % 64, 0);
        assert_eq!(b[10 + hlen - 1], b'\n');
        let (shape, back) = from_npy::<f64>(&b, "x").unwrap();
        assert_eq!(shape, vec![2, 3]);
        assert_eq!(back, v);
        let e = from_npy::<u32>(&b, "x").unwrap_err().to_string();
        assert!(e.contains("x.npy") && e.contains("<u4"), "{e}");
        let e = from_npy::<f64>(&b[..b.len() - 1], "x")
            .unwrap_err()
            .to_string();
        assert!(e.contains("data bytes"), "{e}");
    }
}
