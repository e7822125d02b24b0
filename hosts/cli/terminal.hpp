#pragma once

// Text bound for a terminal. Names in a file are bytes its author chose, and a terminal obeys
// the control characters among them (ESC [2J clears the screen; others retitle the window or
// change what later output looks like). The command line shows them as escapes instead: on
// standard output and error while they are terminals, and always in log lines.

#include <array>
#include <cstddef>
#include <functional>
#include <ostream>
#include <streambuf>
#include <string>
#include <string_view>

#include <spdlog/sinks/sink.h>

#include "ainb/simulation/simulation.hpp"

namespace ainb::cli {

// What is escaped, byte by byte, as \xNN: the C0 controls (newline and tab only when
// `keep_lines`), DEL, the C1 controls (UTF-8 C2 80 to C2 9F), and every byte of a sequence that
// is not valid UTF-8 (a lone 0x9B is CSI to a terminal that reads 8-bit controls). With
// `ascii_only`, for a locale that is not UTF-8, every byte from 0x80 up too, as ls does there:
// such a terminal reads 0x80 to 0x9F inside valid UTF-8 as controls.
class Escaper {
 public:
  Escaper(bool keep_lines, bool ascii_only) : keep_lines_(keep_lines), ascii_only_(ascii_only) {}
  // Appends what `byte` makes printable to `out`; the bytes of an unfinished UTF-8 sequence wait
  // for the rest.
  void put(unsigned char byte, std::string& out);
  // The bytes still waiting: an unfinished sequence, escaped.
  void finish(std::string& out);

 private:
  void escape_held(std::string& out);

  bool keep_lines_, ascii_only_;
  std::array<unsigned char, 4> held_{};
  std::size_t held_count_ = 0, needed_ = 0;
};

// `text` as one printable line: newlines and tabs escaped too.
std::string printable(std::string_view text);

// Writes through to another stream buffer, escaping as an Escaper that keeps lines and tabs (the
// lines of a report).
class PrintableBuffer : public std::streambuf {
 public:
  PrintableBuffer(std::streambuf* target, bool ascii_only)
      : target_(target), escaper_(true, ascii_only) {}
  PrintableBuffer(const PrintableBuffer&) = delete;
  PrintableBuffer& operator=(const PrintableBuffer&) = delete;
  ~PrintableBuffer() override;
  // Bytes of the program's own (a colour's escape sequence), written as they are; a character
  // left unfinished before them is escaped, as nothing can finish it now.
  bool write_through(std::string_view bytes);

 protected:
  int_type overflow(int_type c) override;
  std::streamsize xsputn(const char* s, std::streamsize n) override;
  int sync() override;

 private:
  bool write(const std::string& bytes);

  std::streambuf* target_;
  Escaper escaper_;
  std::string pending_;
};

// Whether the user's locale (LC_ALL, LC_CTYPE, LANG) reads UTF-8, without changing the
// program's locale.
bool locale_is_utf8();

// While it lives, `stream` escapes control characters if `is_terminal` (the caller asks isatty
// for the stream's descriptor); otherwise it changes nothing.
class TerminalText {
 public:
  TerminalText(std::ostream& stream, bool is_terminal, bool ascii_only);
  TerminalText(const TerminalText&) = delete;
  TerminalText& operator=(const TerminalText&) = delete;
  ~TerminalText();

 private:
  std::ostream& stream_;
  std::streambuf* original_;
  PrintableBuffer buffer_;
};

// Whether a command's --color WHEN ("always", "never", "auto") colours `out`: "auto" colours
// standard output while it is a terminal, unless NO_COLOR is set or TERM is "dumb".
bool colour_wanted(std::string_view when, const std::ostream& out);
// Writes an escape sequence of the program's own (a colour) to `stream`, past the escaping of
// TerminalText, which would show it as text.
void write_control(std::ostream& stream, std::string_view sequence);

// A log sink that passes each message to `target` with its text made printable().
spdlog::sink_ptr printable_sink(spdlog::sink_ptr target);

// Sends the default logger's lines, printable(), to std::cerr (which escapes again for a
// terminal that does not read UTF-8) as "warning: TEXT", for every command: warnings (a module
// run as a stub, a missing user function: WarningReport) must not mix with a trace or JSON on
// standard output.
void log_to_stderr();

// A progress bar for long batches (golden traces, scans, explore's runs): called with done of
// total and the current item's label. Empty (no bar) unless `err` is std::cerr and stderr a
// terminal, or a host set a reporter.
using Progress = simulation::Progress;
Progress progress_bar(std::ostream& err);

// Where progress goes in a host without a terminal (the WebAssembly module passes it to the
// page's progress bar): progress_bar returns it, whatever `err` is. Empty: the terminal's bar.
void set_progress_reporter(Progress reporter);

}  // namespace ainb::cli
