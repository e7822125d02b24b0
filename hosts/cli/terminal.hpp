#pragma once

// Text bound for a terminal. Names in a file are bytes its author chose, and a terminal obeys
// the control characters among them (ESC [2J clears the screen; others retitle the window or
// change what later output looks like). Like ls and git, the command line shows them as escapes
// instead: on standard output and error while they are terminals, and always in log lines.

#include <cstddef>
#include <ostream>
#include <streambuf>
#include <string>
#include <string_view>

#include <spdlog/sinks/sink.h>

namespace ainb::cli {

// `text` with each control character written as \xNN: the C0 controls (newline and tab too:
// `text` is one line), DEL, and the C1 controls, which UTF-8 encodes as 0xC2 0x80 to 0xC2 0x9F
// (written \xc2\xNN). Every other byte, UTF-8 or not, is kept.
std::string printable(std::string_view text);

// Writes through to another stream buffer, escaping as printable() does but keeping newlines and
// tabs (the lines of a report). A 0xC2 byte is held until the next one shows whether it begins a
// C1 control.
class PrintableBuffer : public std::streambuf {
 public:
  explicit PrintableBuffer(std::streambuf* target) : target_(target) {}
  PrintableBuffer(const PrintableBuffer&) = delete;
  PrintableBuffer& operator=(const PrintableBuffer&) = delete;
  ~PrintableBuffer() override;

 protected:
  int_type overflow(int_type c) override;
  std::streamsize xsputn(const char* s, std::streamsize n) override;
  int sync() override;

 private:
  bool put(unsigned char byte);
  bool flush_held();

  std::streambuf* target_;
  bool holding_c2_ = false;
};

// While it lives, `stream` escapes control characters if `is_terminal` (the caller asks isatty
// for the stream's descriptor); otherwise it changes nothing.
class TerminalText {
 public:
  TerminalText(std::ostream& stream, bool is_terminal);
  TerminalText(const TerminalText&) = delete;
  TerminalText& operator=(const TerminalText&) = delete;
  ~TerminalText();

 private:
  std::ostream& stream_;
  std::streambuf* original_;
  PrintableBuffer buffer_;
};

// A log sink that passes each message to `target` with its text made printable().
spdlog::sink_ptr printable_sink(spdlog::sink_ptr target);

// Sends the default logger's lines to standard error, printable(), for every command: warnings (a
// module run as a stub, a missing user function) must not mix with a trace or JSON on standard
// output.
void log_to_stderr();

}  // namespace ainb::cli
