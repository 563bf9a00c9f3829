#ifndef STOREFRONT_CNCURSESW_SHIM_H
#define STOREFRONT_CNCURSESW_SHIM_H

// SwiftPM drops pkg-config's -D flags, so the wide-character API must be switched on here.
#define NCURSES_WIDECHAR 1
#define _XOPEN_SOURCE_EXTENDED 1
#include <ncursesw/ncurses.h>
#include <locale.h>
#include <langinfo.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include <wchar.h>

// Swift 6 rejects these C globals as not concurrency-safe, and the macros are not imported:
// each gets a function. Only the terminal actor calls them.
static inline WINDOW *cn_stdscr(void) { return stdscr; }
static inline int cn_lines(void) { return LINES; }
static inline int cn_cols(void) { return COLS; }
static inline int cn_colors(void) { return COLORS; }
static inline attr_t cn_attr_normal(void) { return A_NORMAL; }
static inline attr_t cn_attr_bold(void) { return A_BOLD; }
static inline attr_t cn_attr_reverse(void) { return A_REVERSE; }
static inline attr_t cn_attr_underline(void) { return A_UNDERLINE; }
static inline attr_t cn_attr_dim(void) { return A_DIM; }
static inline attr_t cn_color_pair(short n) { return COLOR_PAIR(n); }
static inline int cn_key_resize(void) { return KEY_RESIZE; }
static inline int cn_color_pairs(void) { return COLOR_PAIRS; }
static inline FILE *cn_stdout(void) { return stdout; }
static inline FILE *cn_stdin(void) { return stdin; }
static inline const char *cn_codeset(void) { return nl_langinfo(CODESET); }
// A terminal without cursor addressing (TERM=dumb) cannot show a full-screen UI at all.
static inline int cn_can_address_cursor(void) {
    const char *cup = tigetstr("cup");
    return cup != NULL && cup != (const char *)-1;
}
// Cells a wide character takes in the current locale, as ncurses measures it; -1 if unprintable.
static inline int cn_wcwidth(wchar_t c) { return wcwidth(c); }

// ---------------------------------------------------------------------------------------------
// Restoring the terminal when the process dies from a signal.
//
// endwin() is not async-signal-safe, so the handler does not call ncurses. Instead it writes back
// what is needed with async-signal-safe calls only: the escape sequences that leave the alternate
// screen, show the cursor and reset attributes (read from terminfo at start, kept in a buffer), and
// the terminal modes saved with tcgetattr before ncurses changed them (tcsetattr). Then it runs the
// handler that was there before, if any (Swift's crash backtracer), resets to SIG_DFL and re-raises,
// so the process still dies of the signal and the exit status says which one.
//
// The handler is C so that no Swift runtime code runs in signal context. Its state is one heap
// block reached through a static pointer. Two traps of C in a Swift module header: static data
// exists once per object file that uses it, so all cn_tty_* functions must be called from ONE Swift
// file (TerminalUI/Terminal.swift); and Swift's C code generation does not emit static arrays or
// structs (only scalars such as this pointer), hence the heap block.
// ---------------------------------------------------------------------------------------------

#define CN_TTY_SIGNAL_COUNT 10

struct cn_tty_state {
    int signals[CN_TTY_SIGNAL_COUNT];
    struct sigaction previous[CN_TTY_SIGNAL_COUNT];
    volatile sig_atomic_t installed[CN_TTY_SIGNAL_COUNT];
    struct termios saved_modes;
    volatile sig_atomic_t modes_saved;
    char leave[512];
    volatile sig_atomic_t leave_length;
    volatile sig_atomic_t active;
};

static struct cn_tty_state *cn_tty = NULL;  // allocated once by cn_tty_prepare, never freed

/// Async-signal-safe: writes the leave sequence to stdout and restores the saved modes of stdin.
static inline void cn_tty_restore_now(void) {
    struct cn_tty_state *state = cn_tty;
    if (state == NULL || !state->active) return;
    state->active = 0;
    size_t done = 0;
    size_t length = (size_t)state->leave_length;
    while (done < length) {
        ssize_t written = write(STDOUT_FILENO, state->leave + done, length - done);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) break;
        done += (size_t)written;
    }
    if (state->modes_saved) tcsetattr(STDIN_FILENO, TCSANOW, &state->saved_modes);
}

static inline void cn_tty_on_signal(int signal_number, siginfo_t *info, void *context) {
    int saved_errno = errno;
    cn_tty_restore_now();
    struct cn_tty_state *state = cn_tty;
    for (int i = 0; state != NULL && i < CN_TTY_SIGNAL_COUNT; i++) {
        if (state->signals[i] != signal_number || !state->installed[i]) continue;
        state->installed[i] = 0;
        // Run the handler that was there before, with the same arguments: for crash signals that
        // is Swift's backtracer, which now prints its report on a restored terminal. It returns
        // (expecting the fault to recur), so the default action comes next in any case.
        struct sigaction previous = state->previous[i];
        if (previous.sa_flags & SA_SIGINFO) {
            if (previous.sa_sigaction != NULL) previous.sa_sigaction(signal_number, info, context);
        } else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN && previous.sa_handler != NULL) {
            previous.sa_handler(signal_number);
        }
    }
    // Die of the signal (SA_NODEFER: right here), so the exit status names it (143 for SIGTERM in
    // a shell).
    signal(signal_number, SIG_DFL);
    raise(signal_number);
    errno = saved_errno;
}

/// Saves the modes of stdin (before ncurses changes them) and installs the handler for every
/// signal in the list that is not ignored (a signal ignored by the parent, as nohup does, stays so).
/// Also restores at exit(), for a path that ends the process without Terminal.stop().
/// Returns 0, or -1 when out of memory.
static inline int cn_tty_prepare(void) {
    if (cn_tty == NULL) {
        struct cn_tty_state *state = calloc(1, sizeof *state);
        if (state == NULL) return -1;
        const int signals[CN_TTY_SIGNAL_COUNT] = {
            SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE
        };
        memcpy(state->signals, signals, sizeof signals);
        cn_tty = state;
        atexit(cn_tty_restore_now);
    }
    struct cn_tty_state *state = cn_tty;
    state->modes_saved = tcgetattr(STDIN_FILENO, &state->saved_modes) == 0;
    state->leave_length = 0;
    state->active = 1;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = cn_tty_on_signal;
    // The flags and the empty mask match Swift's backtracer, which this handler calls: its helper
    // thread inherits our mask and relies on catching SIGSEGV/SIGBUS, so nothing may be blocked.
    action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    for (int i = 0; i < CN_TTY_SIGNAL_COUNT; i++) {
        if (state->installed[i]) continue;
        struct sigaction current;
        if (sigaction(state->signals[i], NULL, &current) != 0) continue;
        if (!(current.sa_flags & SA_SIGINFO) && current.sa_handler == SIG_IGN) continue;
        if (sigaction(state->signals[i], &action, &state->previous[i]) == 0) state->installed[i] = 1;
    }
    return 0;
}

static inline void cn_tty_append_capability(struct cn_tty_state *state, const char *name) {
    const char *value = tigetstr(name);
    if (value == NULL || value == (const char *)-1) return;
    size_t length = strlen(value);
    size_t used = (size_t)state->leave_length;
    if (used + length > sizeof state->leave) return;
    memcpy(state->leave + used, value, length);
    state->leave_length = (sig_atomic_t)(used + length);
}

/// After ncurses started: records how to leave (reset attributes, show the cursor, keypad off,
/// leave the alternate screen). Until then the handler restores the modes only.
static inline void cn_tty_arm(void) {
    if (cn_tty == NULL) return;
    cn_tty_append_capability(cn_tty, "sgr0");
    cn_tty_append_capability(cn_tty, "cnorm");
    cn_tty_append_capability(cn_tty, "rmkx");
    cn_tty_append_capability(cn_tty, "rmcup");
}

static inline int cn_tty_is_active(void) { return cn_tty != NULL && cn_tty->active; }

/// After endwin(): the terminal is restored, so the handler has nothing left to do; put the
/// previous dispositions back.
static inline void cn_tty_release(void) {
    struct cn_tty_state *state = cn_tty;
    if (state == NULL) return;
    state->active = 0;
    for (int i = 0; i < CN_TTY_SIGNAL_COUNT; i++) {
        if (!state->installed[i]) continue;
        state->installed[i] = 0;
        sigaction(state->signals[i], &state->previous[i], NULL);
    }
}

#endif
