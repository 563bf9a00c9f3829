import CNcursesw
import CellGrid

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

public enum TerminalError: Error, Equatable, CustomStringConvertible {
    /// stdin or stdout is not a terminal (piped, redirected, run from a script).
    case notInteractive
    /// Another `Terminal` is running in this process; ncurses has one screen.
    case alreadyRunning
    /// ncurses could not set up the terminal, usually an unknown `TERM`.
    case cannotOpen(term: String)
    /// The terminal cannot move the cursor (`TERM=dumb`), so a full-screen UI cannot work.
    case unsupported(term: String)

    public var description: String {
        switch self {
        case .notInteractive: "stdin and stdout must be a terminal"
        case .alreadyRunning: "the terminal is already in use by this process"
        case .cannotOpen(let term): "cannot use the terminal (TERM=\(term.isEmpty ? "<unset>" : term))"
        case .unsupported(let term):
            "the terminal cannot position the cursor (TERM=\(term)); a full-screen UI needs one that can"
        }
    }
}

/// The ncurses driver, and the only code that calls ncurses: paints a `Grid`, reads `Key`s,
/// and puts the terminal back the way it was on every exit path.
///
/// Threading rule: ncurses is not thread-safe. `Terminal` is deliberately not `Sendable`, so the
/// compiler keeps each instance in one isolation domain and no two ncurses calls ever overlap.
/// Create it, start it, paint, read keys and stop it from the UI loop (one task or actor); send
/// results from background work to that loop instead of drawing from elsewhere. The signal
/// handlers do not call ncurses (see `shim.h`). One `Terminal` runs per process at a time.
///
/// Exit paths: `stop()` (also from `deinit`) calls endwin(). SIGTERM, SIGHUP, SIGINT (from
/// `kill`; Ctrl-C is a key in raw mode), SIGQUIT and the crash signals (SIGSEGV, SIGBUS, SIGILL,
/// SIGTRAP — a Swift trap —, SIGABRT, SIGFPE) are caught by a C handler that writes back the
/// saved terminal modes and the sequences that leave the alternate screen (async-signal-safe
/// calls only), runs the handler that was there before (Swift's backtracer prints its crash
/// report on the restored terminal), then resets to SIG_DFL and re-raises, so the exit status
/// still names the signal. Signals the parent ignored (nohup) stay ignored. exit() without
/// `stop()` is covered by an atexit hook. Only SIGKILL leaves the terminal raw (`stty sane`).
///
/// All calls to the `cn_tty_*` functions of the shim stay in this file: their static state exists
/// once per object file.
public final class Terminal {
    private var screen: OpaquePointer?
    private var window: UnsafeMutablePointer<WINDOW>?
    /// What the screen shows now, for diffing; nil forces a full repaint.
    private var painted: Grid?
    private var paintedScreenSize: TerminalSize = .zero
    /// ncurses attributes and colour pair per role, indexed by `Role.rawValue`.
    private var styles: [Style] = []
    private typealias Style = (attributes: attr_t, pair: Int16)

    /// True when the locale is not UTF-8: the view should draw ASCII only (borders with +-|).
    /// Non-ASCII characters that still arrive are drawn as "?".
    public private(set) var asciiOnly = false
    /// Drawn for `TERM=dumb` with vt100's subset: no alternate screen to leave on the way out.
    private var plain = false
    /// The locale's character set as `nl_langinfo(CODESET)` reports it, for a "not UTF-8" notice.
    public private(set) var codeset = ""
    /// False when roles are shown with bold/reverse/underline/dim only.
    public private(set) var usesColor = false

    public init() {}

    deinit { stop() }

    /// Both stdin and stdout are terminals; without that the app should refuse to start the TUI.
    public static var isInteractive: Bool {
        isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
    }

    public var isRunning: Bool { screen != nil }

    /// The current size in cells; `.zero` when not running. Changes after a `.resize` key.
    public var size: TerminalSize {
        guard isRunning else { return .zero }
        return TerminalSize(columns: Int(cn_cols()), rows: Int(cn_lines()))
    }

    /// Takes over the terminal. Calling it again while running does nothing.
    public func start() throws {
        guard screen == nil else { return }
        guard Self.isInteractive else { throw TerminalError.notInteractive }
        guard cn_tty_is_active() == 0 else { throw TerminalError.alreadyRunning }

        // Without the user's locale, ncurses drops every non-ASCII character.
        setlocale(LC_ALL, "")
        codeset = cn_codeset().map { String(cString: $0) } ?? ""
        // TERM=dumb asks for no fancy output, not for no screen: it is drawn with vt100's subset
        // (cursor moves, bold, reverse, underline), in ASCII and without colour.
        plain = Self.environment("TERM") == "dumb"
        asciiOnly = plain || !["UTF-8", "UTF8"].contains(codeset.uppercased())
        // The size must come from the terminal (ioctl), or resizing stops working. LINES/COLUMNS in
        // the environment would freeze it, so they go. Not use_env(false): with ncurses 6.4 that
        // takes terminfo's 80×24, and even with use_tioctl(true) KEY_RESIZE then arrives with the
        // old size (checked under tmux). Unsetting is safe here: nothing else runs yet that reads
        // the environment, and child processes should not inherit a stale size either.
        unsetenv("LINES")
        unsetenv("COLUMNS")

        // Save the modes and install the handlers before ncurses changes anything. With ours in
        // place ncurses does not install its own SIGINT/SIGTERM handlers (which exit with status 1).
        guard cn_tty_prepare() == 0 else { throw TerminalError.cannotOpen(term: Self.environment("TERM") ?? "") }
        // newterm, not initscr: initscr exits the process when the terminal is unusable.
        let opened =
            plain ? "vt100".withCString { newterm($0, cn_stdout(), cn_stdin()) } : newterm(nil, cn_stdout(), cn_stdin())
        guard let newScreen = opened else {
            cn_tty_release()
            throw TerminalError.cannotOpen(term: Self.environment("TERM") ?? "")
        }
        set_term(newScreen)
        guard cn_can_address_cursor() != 0 else {
            endwin()
            cn_tty_release()
            delscreen(newScreen)
            throw TerminalError.unsupported(term: Self.environment("TERM") ?? "")
        }
        screen = newScreen
        window = cn_stdscr()
        cn_tty_arm()

        raw()  // Ctrl-C, Ctrl-Z, Ctrl-\ and Ctrl-S arrive as keys; the app decides what they do
        noecho()
        keypad(window, true)
        set_escdelay(25)  // Esc would otherwise wait a second for a sequence that never comes
        curs_set(0)
        leaveok(window, true)  // the cursor is hidden, so ncurses need not move it back
        setUpColors()
        painted = nil
    }

    /// Gives the terminal back. Safe to call any number of times, and when never started.
    public func stop() {
        guard let screen else { return }
        endwin()
        if plain {
            // Without an alternate screen the last frame stays, and endwin leaves the cursor at
            // the start of its footer line: what the shell prints next would overwrite it.
            fputs("\n", cn_stdout())
            fflush(cn_stdout())
        }
        cn_tty_release()
        delscreen(screen)
        self.screen = nil
        window = nil
        painted = nil
    }

    /// Makes the next `paint` redraw every cell (for Ctrl-L, or after something else wrote to
    /// the terminal).
    public func invalidate() {
        painted = nil
        if let window { clearok(window, true) }
    }

    /// Shows `grid`. Only cells that differ from the last painted grid are sent, so nothing
    /// flickers; after a size change (of the grid or the terminal) everything is redrawn once.
    /// A grid larger than the terminal is clipped; a smaller one leaves the rest blank.
    public func paint(_ grid: Grid) {
        guard let window else { return }
        let screenSize = size
        let previous = painted?.size == grid.size && paintedScreenSize == screenSize ? painted : nil
        if previous == nil {
            werase(window)
            if painted != nil, paintedScreenSize != screenSize { clearok(window, true) }
        }
        let rows = min(grid.size.rows, screenSize.rows)
        let columns = min(grid.size.columns, screenSize.columns)
        var changed = previous == nil
        for row in 0..<rows {
            // Most frames change a few rows (a spinner, a moved marker): the rest are skipped whole.
            if let previous, grid.sameRow(as: previous, row: row) { continue }
            changed = true
            for column in 0..<columns {
                if let previous, grid.sameCell(as: previous, row: row, column: column) { continue }
                draw(
                    grid[row, column], wide: grid.isContinuation(row: row, column: column + 1), row: row,
                    column: column,
                    screenColumns: columns, in: window)
            }
        }
        // A frame with no row changed (a tick that moved nothing) has nothing to send.
        if changed { wrefresh(window) }
        painted = grid
        paintedScreenSize = screenSize
    }

    /// Waits up to `timeoutMilliseconds` (negative: forever) for a key. Nil on timeout, on a
    /// signal interrupting the wait, and for input that names no key.
    public func readKey(timeoutMilliseconds: Int) -> Key? {
        guard let window else { return nil }
        wtimeout(window, timeoutMilliseconds < 0 ? -1 : Int32(clamping: timeoutMilliseconds))
        var code: wint_t = 0
        switch wget_wch(window, &code) {
        case KEY_CODE_YES:
            return KeyDecoding.key(keyCode: Int32(bitPattern: UInt32(code)))
        case OK where code == 0x1B:
            return readEscape(in: window)
        case OK:
            return KeyDecoding.key(character: UInt32(code))
        default:
            return nil
        }
    }

    // MARK: - Drawing

    private func draw(
        _ cell: Cell, wide: Bool, row: Int, column: Int, screenColumns: Int,
        in window: UnsafeMutablePointer<WINDOW>
    ) {
        // The right half of a wide character was drawn with its left half.
        guard case .character(let character) = cell.content else { return }
        let style = styles.indices.contains(cell.role.rawValue) ? styles[cell.role.rawValue] : (attributes: 0, pair: 0)
        var attributes = style.attributes
        if cell.attributes.contains(.bold) { attributes |= cn_attr_bold() }
        if cell.attributes.contains(.reverse) { attributes |= cn_attr_reverse() }
        if cell.attributes.contains(.underline) { attributes |= cn_attr_underline() }

        let gridWidth = wide ? 2 : 1
        let shown = asciiOnly ? TerminalText.asciiStandIn(for: character) : character
        // A buffer on the stack: painting allocates nothing per cell.
        withUnsafeTemporaryAllocation(of: wchar_t.self, capacity: max(Int(CCHARW_MAX), 2)) { glyph in
            let count = Self.glyph(for: shown, into: glyph)
            // ncurses measures with wcwidth; if it disagrees with the grid, or the character cannot be
            // shown in this locale, draw "?" so that every following column stays where it belongs.
            var glyphWidth = count > 0 ? Int(cn_wcwidth(glyph[0])) : -1
            if glyphWidth != gridWidth, !(gridWidth == 2 && glyphWidth == 1) {
                Self.single(0x3F, in: glyph)
                glyphWidth = 1
            }
            if glyphWidth == 2, column + 1 >= screenColumns {
                Self.single(0x20, in: glyph)  // half off screen: ncurses would wrap it onto the next line
                glyphWidth = 1
            }
            put(glyph, attributes: attributes, pair: style.pair, row: row, column: column, in: window)
            if gridWidth == 2, glyphWidth == 1, column + 1 < screenColumns {
                Self.single(0x20, in: glyph)
                put(glyph, attributes: attributes, pair: style.pair, row: row, column: column + 1, in: window)
            }
        }
    }

    /// `glyph` holds a zero-terminated wide string, as `setcchar` takes it.
    private func put(
        _ glyph: UnsafeMutableBufferPointer<wchar_t>, attributes: attr_t, pair: Int16, row: Int, column: Int,
        in window: UnsafeMutablePointer<WINDOW>
    ) {
        var cell = cchar_t()
        setcchar(&cell, glyph.baseAddress, attributes, pair, nil)
        // At the bottom-right corner ncurses draws the cell and reports ERR (it cannot move the
        // cursor past it); nothing to handle.
        _ = mvwadd_wch(window, Int32(row), Int32(column), &cell)
    }

    /// Writes the wide characters for one grid character into `buffer` (room for CCHARW_MAX,
    /// the terminating zero included): its first scalar and the zero-width scalars after it
    /// (combining marks, variation selectors), as many as a cchar_t holds. Returns how many.
    private static func glyph(for character: Character, into buffer: UnsafeMutableBufferPointer<wchar_t>) -> Int {
        var count = 0
        for scalar in character.unicodeScalars {
            let value = wchar_t(bitPattern: scalar.value)
            if count == 0 || (count < buffer.count - 1 && cn_wcwidth(value) == 0) {
                buffer[count] = value
                count += 1
            }
        }
        buffer[count] = 0
        return count
    }

    /// One character, zero-terminated, in place of whatever `buffer` held.
    private static func single(_ value: wchar_t, in buffer: UnsafeMutableBufferPointer<wchar_t>) {
        buffer[0] = value
        buffer[1] = 0
    }

    private func setUpColors() {
        // https://no-color.org: set and not empty means no colour.
        let noColor = !(Self.environment("NO_COLOR") ?? "").isEmpty
        usesColor =
            !noColor && Self.environment("TERM") != "dumb" && has_colors() && start_color() == OK
            && cn_colors() >= 8 && cn_color_pairs() > Role.allCases.count
        var defaults = (foreground: RoleStyle.defaultColor, background: RoleStyle.defaultColor)
        if usesColor, use_default_colors() != OK {
            defaults = (RoleStyle.white, RoleStyle.black)
        }
        styles = Role.allCases.map { role -> Style in
            let style = RoleStyle.of(role)
            guard usesColor else { return (attributes(style.monochromeLook), 0) }
            guard style.hasColor else { return (attributes(style.colorLook), 0) }
            let pair = Int16(role.rawValue + 1)
            init_pair(
                pair,
                style.foreground == RoleStyle.defaultColor ? defaults.foreground : style.foreground,
                style.background == RoleStyle.defaultColor ? defaults.background : style.background)
            return (attributes(style.colorLook), pair)
        }
    }

    private func attributes(_ look: RoleStyle.Look) -> attr_t {
        var result = cn_attr_normal()
        if look.contains(.bold) { result |= cn_attr_bold() }
        if look.contains(.reverse) { result |= cn_attr_reverse() }
        if look.contains(.underline) { result |= cn_attr_underline() }
        if look.contains(.dim) { result |= cn_attr_dim() }
        return result
    }

    private static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    // MARK: - Input

    /// A lone ESC: either the Esc key, the start of a sequence terminfo does not list (decoded
    /// here), or Alt+key (treated as Esc followed by the key, which goes back into the queue).
    private func readEscape(in window: UnsafeMutablePointer<WINDOW>) -> Key? {
        wtimeout(window, 0)
        var code: wint_t = 0
        let status = wget_wch(window, &code)
        guard status != ERR else { return .escape }
        guard status == OK, code == 0x5B || code == 0x4F else {  // "[" or "O"
            if status == KEY_CODE_YES {
                ungetch(Int32(bitPattern: UInt32(code)))
            } else {
                unget_wch(wchar_t(bitPattern: UInt32(code)))
            }
            return .escape
        }
        var body = String(Character(Unicode.Scalar(UInt8(code))))
        for _ in 0..<16 {
            guard wget_wch(window, &code) == OK, let scalar = Unicode.Scalar(UInt32(code)) else { return nil }
            body.unicodeScalars.append(scalar)
            if body.unicodeScalars.count > 1, KeyDecoding.isFinal(UInt32(code)) {
                return KeyDecoding.key(escapeSequence: body)
            }
        }
        return nil
    }
}
