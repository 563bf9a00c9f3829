import Testing

@testable import StoreKitModel

/// A localized text is its texts by language, however they were written: the order of the
/// languages changes neither equality nor the hash, and the text shown falls back as before.
@Suite struct LocalizedTextTests {
    @Test func theOrderOfTheLanguagesDoesNotMatter() {
        let ordered = LocalizedText(tags: ["en", "zh-Hans"], texts: ["Gems", "宝石"])
        let reversed = LocalizedText(tags: ["zh-Hans", "en"], texts: ["宝石", "Gems"])
        let dictionary = LocalizedText(["zh-Hans": "宝石", "en": "Gems"])
        #expect(ordered == reversed)
        #expect(ordered == dictionary)
        #expect(Set([ordered, reversed, dictionary]).count == 1)
        #expect(ordered.values == ["en": "Gems", "zh-Hans": "宝石"])
        #expect(ordered != LocalizedText(tags: ["en", "zh-Hans"], texts: ["Gems", "钻石"]))
        #expect(ordered != LocalizedText(tags: ["en"], texts: ["Gems"]))
    }

    @Test func theTextShownFallsBackToEnglishThenTheFirstTag() {
        let text = LocalizedText(tags: ["zh-Hans", "en", "de"], texts: ["宝石", "Gems", "Edelsteine"])
        #expect(text.text(in: .simplifiedChinese) == "宝石")
        #expect(LocalizedText(tags: ["en"], texts: ["Gems"]).text(in: .simplifiedChinese) == "Gems")
        #expect(LocalizedText(tags: ["fr", "de"], texts: ["Gemmes", "Edelsteine"]).text(in: .english) == "Edelsteine")
        #expect(LocalizedText([:]).text(in: .english) == "")
    }
}
