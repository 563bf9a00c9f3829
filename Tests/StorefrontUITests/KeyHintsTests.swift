import CellGrid
import StoreKitModel
import Testing

@testable import StorefrontUI

/// Hints are built from the dispatch table; these check that what a hint names is what a key does.
@Suite struct KeyHintsTests {
    /// Every command a hint shows, with the scope its sheet dispatches in.
    static let hinted: [(Command, KeyBinding.Scope)] =
        [
            Command.quit, .filter, .buy, .details, .restore, .storefront, .account, .language, .controls, .manager,
            .pending, .retry, .help,
        ]
        .map { ($0, .main) }
        + [
            (.buy, .confirm), (.billingPlan, .confirm), (.increase, .confirm), (.decrease, .confirm),
            (.close, .confirm), (.toggle, .controls),
            (.reset, .controls), (.resetStore, .controls),
            (.yes, .question), (.no, .question), (.dismiss, .message), (.close, .message),
        ]
        + [Command.inspect, .allAccounts, .approve, .decline, .resolve, .refund, .expire, .renew, .delete, .clearAll]
        .map { ($0, .manager) }

    @Test(arguments: hinted.indices)
    func theKeyAHintNamesDoesWhatTheHintSays(index: Int) throws {
        let (command, scope) = Self.hinted[index]
        let binding = try #require(KeyBindings.binding(of: command, in: scope), "\(command) has no key in \(scope)")
        for key in binding.keys {
            #expect(KeyBindings.command(for: key, in: scope) == command, "\(key) in \(scope) is hinted as \(command)")
        }
    }

    /// Every main-screen key the footer can show is in the help, and the footer never cuts a hint.
    @Test(arguments: [60, 80, 120, 200]) func theFooterKeepsWholeHintsByPriority(width: Int) {
        for language in [Language.english, .simplifiedChinese] {
            let footer = KeyHints(language: language, ascii: false).footer(width: width)
            #expect(CellWidth.of(footer) <= width, "\(footer)")
            #expect(!footer.contains("…"))
            #expect(footer.hasPrefix("q "))
        }
    }

    @Test func hintsNameTheTablesKeys() {
        let english = KeyHints(language: .english, ascii: false)
        #expect(english.footer(width: 80) == "q quit  Enter buy  / filter  i details  t test controls  ? all keys")
        #expect(english.footer(width: 60) == "q quit  Enter buy  / filter  i details  ? all keys")
        #expect(english.footer(width: 8) == "? all keys", "the way to every key stays when nothing else fits")
        #expect(english.confirm == "Enter buy   +/- quantity   Esc cancel")
        #expect(english.controls == "↑/↓ choose  ←/→/Enter change  Z reset controls  E erase store  Esc close")
        #expect(english.question == "y quit  n stay")
        #expect(KeyHints(language: .english, ascii: true).details == "Enter buy   Up/Down other products   Esc closes")
        #expect(KeyHints(language: .simplifiedChinese, ascii: false).message == "Enter/Esc 关闭")
    }
}
