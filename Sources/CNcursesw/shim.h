#ifndef TAGSCOPE_CNCURSESW_SHIM_H
#define TAGSCOPE_CNCURSESW_SHIM_H

// SwiftPM drops pkg-config's -D flags, so the wide-character API is switched on here.
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif

#include <locale.h>
#include <langinfo.h>
#include <string.h>
#include <wchar.h>
#include <stdio.h>
#if defined(__APPLE__)
#include <ncurses.h>
#else
#include <ncursesw/curses.h>
#endif

// wcwidth is an X/Open function glibc hides without _XOPEN_SOURCE; declared here for Swift.
extern int wcwidth(wchar_t c);

/// Columns of one character in the current LC_CTYPE (-1 when not printable).
static inline int tagscope_wcwidth(unsigned int scalar) { return wcwidth((wchar_t)scalar); }

/// Whether the current LC_CTYPE is UTF-8.
static inline int tagscope_codeset_is_utf8(void) {
  const char *codeset = nl_langinfo(CODESET);
  return codeset != NULL && (strcmp(codeset, "UTF-8") == 0 || strcmp(codeset, "utf8") == 0);
}

// Swift 6 refuses mutable C globals and function-like macros: these accessors expose them.

static inline WINDOW *tagscope_stdscr(void) { return stdscr; }
static inline int tagscope_cols(void) { return COLS; }
static inline int tagscope_lines(void) { return LINES; }
static inline int tagscope_colors(void) { return COLORS; }
static inline void tagscope_getmaxyx(WINDOW *win, int *y, int *x) {
  int yy, xx;
  getmaxyx(win, yy, xx);
  *y = yy;
  *x = xx;
}

static inline attr_t tagscope_a_normal(void) { return A_NORMAL; }
static inline attr_t tagscope_a_bold(void) { return A_BOLD; }
static inline attr_t tagscope_a_dim(void) { return A_DIM; }
static inline attr_t tagscope_a_reverse(void) { return A_REVERSE; }
static inline attr_t tagscope_a_underline(void) { return A_UNDERLINE; }
static inline attr_t tagscope_color_pair(int pair) { return COLOR_PAIR(pair); }

static inline int tagscope_key_resize(void) { return KEY_RESIZE; }
static inline int tagscope_key_up(void) { return KEY_UP; }
static inline int tagscope_key_down(void) { return KEY_DOWN; }
static inline int tagscope_key_left(void) { return KEY_LEFT; }
static inline int tagscope_key_right(void) { return KEY_RIGHT; }
static inline int tagscope_key_home(void) { return KEY_HOME; }
static inline int tagscope_key_end(void) { return KEY_END; }
static inline int tagscope_key_ppage(void) { return KEY_PPAGE; }
static inline int tagscope_key_npage(void) { return KEY_NPAGE; }
static inline int tagscope_key_enter(void) { return KEY_ENTER; }
static inline int tagscope_key_backspace(void) { return KEY_BACKSPACE; }
static inline int tagscope_key_dc(void) { return KEY_DC; }
static inline int tagscope_key_btab(void) { return KEY_BTAB; }
static inline int tagscope_key_mouse(void) { return KEY_MOUSE; }
static inline int tagscope_key_f(int n) { return KEY_F(n); }
static inline int tagscope_key_code_yes(void) { return KEY_CODE_YES; }

static inline mmask_t tagscope_mouse_mask(void) {
  return BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON4_PRESSED
#ifdef BUTTON5_PRESSED
    | BUTTON5_PRESSED
#endif
    ;
}
static inline int tagscope_mouse_button1(mmask_t state) { return (state & (BUTTON1_PRESSED | BUTTON1_CLICKED)) != 0; }
static inline int tagscope_mouse_wheel_up(mmask_t state) { return (state & BUTTON4_PRESSED) != 0; }
static inline int tagscope_mouse_wheel_down(mmask_t state) {
#ifdef BUTTON5_PRESSED
  return (state & BUTTON5_PRESSED) != 0;
#else
  return 0;
#endif
}

/// Draws one grapheme (a spacing character and up to 4 combining ones, NUL-terminated) with
/// attributes and colour pair at (y, x) of stdscr.
static inline int tagscope_put_cell(int y, int x, const wchar_t *text, attr_t attrs, short pair) {
  cchar_t cell;
  if (setcchar(&cell, text, attrs, pair, NULL) != OK) return ERR;
  return mvwadd_wch(stdscr, y, x, &cell);
}

/// Reads one key or character without Swift touching `wint_t` directly: returns OK, KEY_CODE_YES
/// or ERR and stores the value.
static inline int tagscope_get_wch(unsigned int *value) {
  wint_t ch = 0;
  int result = wget_wch(stdscr, &ch);
  *value = (unsigned int)ch;
  return result;
}

/// The last mouse event: its cell and button state; returns ERR when there is none.
static inline int tagscope_get_mouse(int *x, int *y, mmask_t *state) {
  MEVENT event;
  if (getmouse(&event) != OK) return ERR;
  *x = event.x;
  *y = event.y;
  *state = event.bstate;
  return OK;
}

/// Wraps `newterm` (output on stdout, input from `input`) so a bad TERM returns NULL instead of
/// exiting the process as `initscr` does.
static inline SCREEN *tagscope_newterm(const char *term, FILE *input) {
  return newterm(term, stdout, input);
}

/// The process's standard input stream (Swift 6 refuses the `stdin` global).
static inline FILE *tagscope_stdin(void) { return stdin; }

/// Opens the controlling terminal for reading keys when standard input carries data (`replay -`).
static inline FILE *tagscope_open_tty(void) { return fopen("/dev/tty", "r"); }

#endif
