//! Embeddings: the [`Encoder`] trait and the built-in hashed encoder, the embedding matrices an
//! index stores with cosine search over them ([`Vectors`]), and static word embeddings
//! ([`StaticEmbeddings`]: a semantic passage score with no model at query time).

mod encoder;
mod static_embeddings;
mod vectors;

pub use encoder::{Encoder, EncoderInfo, HASHED_NGRAM_ID, HashedNgramEncoder};
pub use static_embeddings::{
    CodeScorer, MIN_DF, NO_CLUSTER, StaticEmbeddings, StaticEmbeddingsData, StaticVocabulary, idf,
    probe, query_vector, sign_bits, static_words, text_vector, typed_word,
};
pub use vectors::{Codes, Quantization, VectorIndex, Vectors};
