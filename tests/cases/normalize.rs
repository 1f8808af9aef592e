//! Phrase normalisation and accent folding cases shared by the native test (`tests/normalize.rs`) and the wasm test
//! (`tests/wasm.rs`): NFKD comes from `unicode-normalization` natively and from the JS engine in
//! wasm, and both must give these keys. Latin accents, ligatures, full-width forms, Greek,
//! Cyrillic, Devanagari, Hangul, CJK, superscripts and symbols.

/// `(input, normalised key)`.
pub const CASES: &[(&str, &str)] = &[
    ("  Thomas C. Südhof ", "thomas c sudhof"),
    ("Café  au-Lait!", "cafe au lait"),
    ("ÆON Ñandú", "æon nandu"),
    ("ﬁnance ﬂow", "finance flow"),
    ("ＡＢＣ１２３ Ｔｏｋｙｏ", "abc123 tokyo"),
    ("x² + H₂O", "x2 h2o"),
    ("Αθήνα", "αθη\u{301}να"),
    ("Москва, Россия", "москва россия"),
    ("Йошкар-Ола", "и\u{306}ошкар ола"),
    ("हिन्दी", "हिन्दी"),
    // Hangul syllables decompose into conjoining jamo (letters, so they stay).
    (
        "서울특별시",
        "\u{1109}\u{1165}\u{110b}\u{116e}\u{11af}\u{1110}\u{1173}\u{11a8}\u{1107}\u{1167}\u{11af}\u{1109}\u{1175}",
    ),
    ("東京都 个性化PageRank算法", "東京都 个性化pagerank算法"),
    ("Œuvre — l’été", "œuvre l ete"),
    ("№ 5 ℃ ™", "no 5 c tm"),
    ("--", ""),
    // Letters with a stroke or without their dot, which NFKD leaves whole.
    ("Łódź, Đà Nẵng", "lodz da nang"),
    ("Işık ışık İzmir", "isik isik izmir"),
    ("København", "kobenhavn"),
];

/// `(term, folded)` for `text::fold_latin_accents`: precomposed and combining Latin accents,
/// Latin letters with a stroke or without their dot (no decomposition) and a ligature, Vietnamese's
/// stacked marks, and other scripts' marks, which stay.
pub const FOLD_CASES: &[(&str, &str)] = &[
    ("résumé", "resume"),
    ("e\u{301}te\u{301}", "ete"),
    ("ångström", "angstrom"),
    ("łódź", "lodz"),
    ("đường", "duong"),
    ("ışık", "isik"),
    ("ħamrun", "hamrun"),
    ("straße", "straße"),
    ("ǆungla", "dzungla"),
    ("việt", "viet"),
    ("şehir", "sehir"),
    ("йод", "йод"),
    ("αθήνα", "αθήνα"),
    ("हिन्दी", "हिन्दी"),
    ("東京", "東京"),
    ("os.path", "os.path"),
];

/// `(text, composed)` for `text::nfc`, which Vietnamese syllables keep their marks in:
/// decomposed Vietnamese letters with one and two marks, a composed word left as it is, other
/// scripts, and ASCII.
pub const NFC_CASES: &[(&str, &str)] = &[
    ("Vie\u{323}\u{302}t", "Việt"),
    ("ba\u{300}", "bà"),
    ("đươ\u{300}ng", "đường"),
    ("học", "học"),
    ("e\u{301}te\u{301}", "été"),
    ("\u{1100}\u{1161}", "가"),
    ("os.path", "os.path"),
];
