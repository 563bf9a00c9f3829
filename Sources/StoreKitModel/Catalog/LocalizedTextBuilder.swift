/// A localized text's members as they are read, one language at a time. Written in the catalog's
/// languages in the catalog's order, as nearly every text is, the text shares the catalog's
/// array of tags (see `LocalizedText`); written any other way it gets tags of its own.
struct LocalizedTextBuilder {
    private let languages: IdList
    /// Nil while every text so far is in the catalog's next language.
    private var tags: [String]?
    private var texts: [String] = []

    init(languages: IdList) {
        self.languages = languages
        texts.reserveCapacity(languages.ids.count)
    }

    /// The language a text written in order would be in next, if any: a reader compares the key
    /// with it before making a string of the key.
    var nextInOrder: String? {
        tags == nil && texts.count < languages.ids.count ? languages.ids[texts.count] : nil
    }

    /// Adds `text` in `language`; false when the text already has that language.
    mutating func add(_ text: String, in language: String) -> Bool {
        if tags == nil {
            if language == nextInOrder {
                texts.append(text)
                return true
            }
            tags = Array(languages.ids.prefix(texts.count))
        }
        guard tags?.contains(language) == false else { return false }
        tags?.append(language)
        texts.append(text)
        return true
    }

    /// Whether every one of the catalog's languages has a text.
    var coversLanguages: Bool {
        guard let tags else { return texts.count == languages.ids.count }
        return tags.lazy.filter(languages.contains).count == languages.ids.count
    }

    var text: LocalizedText {
        LocalizedText(tags: tags ?? languages.ids, texts: texts)
    }
}
