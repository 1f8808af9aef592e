//! What marks a phrase in Russian text, for the rule extractor's noun phrases (step 5).
//!
//! Russian writes common nouns in lower case, as English does, but its function words and
//! verbs are not marked by word order the way English ones are: a run of lowercase content
//! words such as "имеет больше" or "помощью алгоритма" is a verb with an adverb, or a
//! preposition's object, not a compound. What marks a noun phrase is agreement: adjectives
//! (and participles) precede their noun and carry adjectival endings ("-ый", "-ая", "-ого",
//! "-ых", …). So a noun phrase here is one or more adjective-shaped words followed by a word
//! that is not one: "нейронная сеть", "персонализированный алгоритм PageRank" → "персонализированный
//! алгоритм". Names are found as in English, by capitalisation (step 3), with Russian stopwords.

/// Endings of Russian adjectives and participles in every case, gender and number, longest
/// first (Zaliznyak's adjectival declension; "-ою"/"-ею" are poetic instrumentals).
const ADJECTIVE_ENDINGS: &[&str] = &[
    "ого", "его", "ому", "ему", "ыми", "ими", "ый", "ий", "ой", "ая", "яя", "ое", "ее", "ые", "ие",
    "ым", "им", "ых", "их", "ую", "юю", "ою", "ею",
];

/// Adjective-shaped pronouns and determiners that do not start a noun phrase ("который",
/// "такой", "свой", "каждый", …), in any form: matched by their stems.
const PRONOMINAL_STEMS: &[&str] = &[
    "мо",
    "тво",
    "немн",
    "мн",
    "котор",
    "так",
    "сво",
    "кажд",
    "люб",
    "друг",
    "мног",
    "некотор",
    "сам",
    "ин",
    "ваш",
    "наш",
    "твой",
    "мой",
    "как",
    "чей",
    "эт",
    "т",
    "нескольк",
    "вс",
    "кто-т",
    "одн",
];

/// True for a word with an adjectival ending that is not a pronoun or determiner. Two
/// shapes that look adjectival are nouns or verbs far more often: "-ние"/"-ний"/"-тие"/"-тий"
/// (verbal nouns: "знание", "знаний", "развитие"; the soft adjectives "последние", "синий" are
/// lost) and "-яя" after anything but "н" (gerunds: "расширяя"; "синяя" stays).
pub(super) fn is_adjective(w: &str) -> bool {
    let Some(ending) = ADJECTIVE_ENDINGS.iter().find(|e| w.ends_with(*e)) else {
        return false;
    };
    let stem = &w[..w.len() - ending.len()];
    let verbal_noun =
        matches!(*ending, "ие" | "ий") && (stem.ends_with('н') || stem.ends_with('т'));
    let gerund = *ending == "яя" && !stem.ends_with('н');
    stem.chars().count() >= 2 && !verbal_noun && !gerund && !PRONOMINAL_STEMS.contains(&stem)
}

/// True for a word that cannot be part of a noun phrase: an adverb in "-о"/"-е" after a
/// comparative or a verb form in "-ться"/"-тся".
pub(super) fn breaks_noun_phrase(w: &str) -> bool {
    w.ends_with("ться") || w.ends_with("тся") || w.ends_with("лся") || w.ends_with("лась")
}

/// The noun phrases of one run of lowercase content words, as word ranges `[a, b)`: every
/// maximal run of adjectives with the noun after it, of at least `min_words` words, keeping
/// its last `max_words` (the noun and the adjectives nearest it).
pub(super) fn noun_phrases(
    words: &[&str],
    min_words: usize,
    max_words: usize,
) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let mut j = i;
        while j < words.len() && is_adjective(words[j]) {
            j += 1;
        }
        if j == words.len() {
            break;
        }
        // words[i..j] are adjectives, words[j] is the noun.
        let len = j + 1 - i;
        if j > i && len >= min_words.max(1) {
            out.push((j + 1 - len.min(max_words), j + 1));
        }
        i = j + 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn phrases(text: &str) -> Vec<String> {
        let words: Vec<&str> = text.split(' ').collect();
        noun_phrases(&words, 2, 3)
            .into_iter()
            .map(|(a, b)| words[a..b].join(" "))
            .collect()
    }

    #[test]
    fn adjectives_with_their_noun() {
        // From the Russian HippoRAG explainer (multilingual/hipporag_explainer_ru.txt).
        assert_eq!(
            phrases("персонализированный алгоритм"),
            ["персонализированный алгоритм"]
        );
        assert_eq!(phrases("долговременной памяти"), ["долговременной памяти"]);
        assert_eq!(
            phrases("больших языковых моделей"),
            ["больших языковых моделей"]
        );
        // Not compounds: a verb with an adverb, a preposition's object.
        assert!(phrases("имеет больше").is_empty());
        assert!(phrases("помощью алгоритма").is_empty());
        // A pronoun is not an adjective.
        assert!(phrases("которые модели").is_empty());
        assert!(is_adjective("нейронная") && !is_adjective("такой") && !is_adjective("сеть"));
        // Verbal nouns and gerunds are not adjectives.
        assert_eq!(
            phrases("знаний дополнительных ребер"),
            ["дополнительных ребер"]
        );
        assert!(phrases("расширяя граф").is_empty());
        assert!(is_adjective("синяя") && !is_adjective("несколькими"));
        // From the explainer: a possessive and an adverb in "-ого" are no adjectives.
        assert!(phrases("моего метода").is_empty());
        assert!(phrases("немного сомнительно").is_empty());
    }
}
