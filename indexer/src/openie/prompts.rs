//! The two one-shot prompts of LLM OpenIE (HippoRAG §3.1 and App. of the paper).
//!
//! The paper's structure, in our own words and with our own example: (1) named-entity
//! recognition per passage, then (2) triple extraction conditioned on those entities. Each
//! prompt is a system instruction, one worked example (a user turn and the assistant's JSON
//! answer) and the passage. Changing any text here changes [`PROMPT_VERSION`], which keys the
//! cache, so cached results are never mixed across prompt versions.

use serde::Serialize;

/// Identifies the prompt texts below; stored with every cached result.
pub const PROMPT_VERSION: &str = "hipporag-wasm-openie-v1";

/// One chat message of the OpenAI chat-completions API.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Message {
    /// `system`, `user` or `assistant`.
    pub role: &'static str,
    /// The text.
    pub content: String,
}

const NER_INSTRUCTION: &str = "You read a paragraph and list its named entities for a knowledge graph: people, organisations, places, works, events, products, dates, and quantities with their units. Copy every entity exactly as the paragraph writes it, once each. Answer with a single JSON object of the form {\"named_entities\": [...]} and nothing else.";

const TRIPLE_INSTRUCTION: &str = "You turn a paragraph into knowledge-graph triples. You receive the paragraph and the named entities found in it. Answer with a single JSON object of the form {\"triples\": [[subject, relation, object], ...]} and nothing else. Each triple states one fact of the paragraph. Its subject or object, preferably both, is one of the named entities. Replace pronouns by the names they stand for. Keep relations short (a verb phrase of a few words).";

const EXAMPLE_PASSAGE: &str = "Ada Lovelace\nAugusta Ada King, Countess of Lovelace (10 December 1815 – 27 November 1852), was an English mathematician and writer. She is chiefly known for her work on the Analytical Engine, a mechanical general-purpose computer proposed by Charles Babbage. She was the only legitimate child of the poet Lord Byron.";

const EXAMPLE_ENTITIES: &str = "{\"named_entities\": [\"Ada Lovelace\", \"Augusta Ada King\", \"Countess of Lovelace\", \"10 December 1815\", \"27 November 1852\", \"English\", \"Analytical Engine\", \"Charles Babbage\", \"Lord Byron\"]}";

const EXAMPLE_TRIPLES: &str = "{\"triples\": [[\"Ada Lovelace\", \"full name\", \"Augusta Ada King\"], [\"Ada Lovelace\", \"title\", \"Countess of Lovelace\"], [\"Ada Lovelace\", \"born on\", \"10 December 1815\"], [\"Ada Lovelace\", \"died on\", \"27 November 1852\"], [\"Ada Lovelace\", \"nationality\", \"English\"], [\"Ada Lovelace\", \"was a\", \"mathematician\"], [\"Ada Lovelace\", \"worked on\", \"Analytical Engine\"], [\"Analytical Engine\", \"is a\", \"mechanical general-purpose computer\"], [\"Charles Babbage\", \"proposed\", \"Analytical Engine\"], [\"Ada Lovelace\", \"child of\", \"Lord Byron\"], [\"Lord Byron\", \"was a\", \"poet\"]]}";

fn msg(role: &'static str, content: impl Into<String>) -> Message {
    Message {
        role,
        content: content.into(),
    }
}

fn paragraph(passage: &str) -> String {
    format!("Paragraph:\n```\n{passage}\n```")
}

fn with_entities(passage: &str, entities_json: &str) -> String {
    format!("{}\n\nNamed entities: {entities_json}", paragraph(passage))
}

/// Step 1: the named-entity prompt for `passage` (`title + "\n" + text`).
pub fn ner_messages(passage: &str) -> Vec<Message> {
    vec![
        msg("system", NER_INSTRUCTION),
        msg("user", paragraph(EXAMPLE_PASSAGE)),
        msg("assistant", EXAMPLE_ENTITIES),
        msg("user", paragraph(passage)),
    ]
}

/// Step 2: the triple prompt for `passage`, conditioned on the step-1 `entities`.
pub fn triple_messages(passage: &str, entities: &[String]) -> Vec<Message> {
    let ents = serde_json::json!({ "named_entities": entities }).to_string();
    vec![
        msg("system", TRIPLE_INSTRUCTION),
        msg("user", with_entities(EXAMPLE_PASSAGE, EXAMPLE_ENTITIES)),
        msg("assistant", EXAMPLE_TRIPLES),
        msg("user", with_entities(passage, &ents)),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openie::reply::{entities_from, parse_reply, triples_from};

    #[test]
    fn the_worked_examples_parse_and_agree() {
        let ents = entities_from(&parse_reply(EXAMPLE_ENTITIES).unwrap().value).unwrap();
        assert!(
            ents.iter().all(|e| EXAMPLE_PASSAGE.contains(e.as_str())),
            "{ents:?}"
        );
        let (triples, bad) = triples_from(&parse_reply(EXAMPLE_TRIPLES).unwrap().value).unwrap();
        assert_eq!(bad, 0);
        // Every triple touches at least one named entity, as the instruction demands.
        assert!(
            triples
                .iter()
                .all(|t| ents.contains(&t[0]) || ents.contains(&t[2]))
        );
        let m = triple_messages("T\nx", &["T".into()]);
        assert_eq!(m.len(), 4);
        assert!(
            m[3].content.contains("{\"named_entities\":[\"T\"]}"),
            "{}",
            m[3].content
        );
    }
}
