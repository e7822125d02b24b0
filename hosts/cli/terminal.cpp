#include "terminal.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include <langinfo.h>
#include <locale.h>
#include <unistd.h>

#include <fmt/format.h>
#include <spdlog/details/log_msg.h>
#include <spdlog/sinks/base_sink.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

namespace ainb::cli {

namespace {

void append_escape(std::string& out, unsigned char byte) {
  fmt::format_to(std::back_inserter(out), "\\x{:02x}", byte);
}

// The length of the UTF-8 sequence `lead` begins (RFC 3629), 0 for a byte that begins none.
std::size_t sequence_length(unsigned char lead) {
  if (lead >= 0xC2 && lead <= 0xDF) return 2;
  if (lead >= 0xE0 && lead <= 0xEF) return 3;
  if (lead >= 0xF0 && lead <= 0xF4) return 4;
  return 0;
}

// Whether `byte` may follow `lead` as the sequence's second byte (no overlong forms, surrogates
// or code points past U+10FFFF); later bytes are any continuation byte.
bool second_byte_fits(unsigned char lead, unsigned char byte) {
  switch (lead) {
    case 0xE0:
      return byte >= 0xA0 && byte <= 0xBF;
    case 0xED:
      return byte >= 0x80 && byte <= 0x9F;
    case 0xF0:
      return byte >= 0x90 && byte <= 0xBF;
    case 0xF4:
      return byte >= 0x80 && byte <= 0x8F;
    default:
      return byte >= 0x80 && byte <= 0xBF;
  }
}

}  // namespace

void Escaper::escape_held(std::string& out) {
  for (std::size_t i = 0; i < held_count_; ++i)
    append_escape(out, held_[i]);
  held_count_ = 0;
}

void Escaper::put(unsigned char byte, std::string& out) {
  if (held_count_ != 0) {
    const bool fits =
        held_count_ == 1 ? second_byte_fits(held_[0], byte) : byte >= 0x80 && byte <= 0xBF;
    if (fits) {
      held_[held_count_++] = byte;
      if (held_count_ < needed_) return;
      // A whole character: a C1 control is escaped, any other kept.
      if (held_[0] == 0xC2 && held_[1] <= 0x9F) {
        escape_held(out);
      } else {
        out.append(reinterpret_cast<const char*>(held_.data()), held_count_);
        held_count_ = 0;
      }
      return;
    }
    escape_held(out);  // not UTF-8; `byte` may begin something valid
  }
  if (byte < 0x80) {
    const bool control = byte < 0x20 || byte == 0x7F;
    if (control && !(keep_lines_ && (byte == '\n' || byte == '\t'))) {
      append_escape(out, byte);
    } else {
      out += static_cast<char>(byte);
    }
    return;
  }
  needed_ = ascii_only_ ? 0 : sequence_length(byte);
  if (needed_ == 0) {
    append_escape(out, byte);
    return;
  }
  held_[0] = byte;
  held_count_ = 1;
}

void Escaper::finish(std::string& out) {
  escape_held(out);
}

std::string printable(std::string_view text) {
  Escaper escaper(false, false);
  std::string out;
  out.reserve(text.size());
  for (const char c : text)
    escaper.put(static_cast<unsigned char>(c), out);
  escaper.finish(out);
  return out;
}

PrintableBuffer::~PrintableBuffer() {
  pending_.clear();
  escaper_.finish(pending_);
  write(pending_);
}

bool PrintableBuffer::write(const std::string& bytes) {
  return target_->sputn(bytes.data(), static_cast<std::streamsize>(bytes.size())) ==
         static_cast<std::streamsize>(bytes.size());
}

PrintableBuffer::int_type PrintableBuffer::overflow(int_type c) {
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  pending_.clear();
  escaper_.put(static_cast<unsigned char>(traits_type::to_char_type(c)), pending_);
  return write(pending_) ? c : traits_type::eof();
}

std::streamsize PrintableBuffer::xsputn(const char* s, std::streamsize n) {
  pending_.clear();
  for (std::streamsize i = 0; i < n; ++i)
    escaper_.put(static_cast<unsigned char>(s[i]), pending_);
  return write(pending_) ? n : 0;
}

bool PrintableBuffer::write_through(std::string_view bytes) {
  pending_.clear();
  escaper_.finish(pending_);
  pending_.append(bytes);
  return write(pending_);
}

// An unfinished UTF-8 sequence stays held: the bytes after it, not yet written, decide what it
// is.
int PrintableBuffer::sync() {
  return target_->pubsync();
}

bool locale_is_utf8() {
  const locale_t user = newlocale(LC_CTYPE_MASK, "", static_cast<locale_t>(nullptr));
  if (user == static_cast<locale_t>(nullptr)) {
    // A locale the system lacks (LANG=en_US.UTF-8 on a minimal install): its name says what
    // the terminal was set up for.
    for (const char* variable : {"LC_ALL", "LC_CTYPE", "LANG"}) {
      const char* value = std::getenv(variable);
      if (value == nullptr || *value == '\0') continue;
      std::string name(value);
      std::transform(name.begin(), name.end(), name.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      return name.find("utf-8") != std::string::npos || name.find("utf8") != std::string::npos;
    }
    return false;
  }
  const bool utf8 = std::strcmp(nl_langinfo_l(CODESET, user), "UTF-8") == 0;
  freelocale(user);
  return utf8;
}

bool colour_wanted(std::string_view when, const std::ostream& out) {
  if (when != "auto") return when == "always";
  const char* no_color = std::getenv("NO_COLOR");
  const char* term = std::getenv("TERM");
  return &out == &std::cout && isatty(STDOUT_FILENO) != 0 &&
         (no_color == nullptr || *no_color == '\0') &&
         (term == nullptr || std::string_view(term) != "dumb");
}

void write_control(std::ostream& stream, std::string_view sequence) {
  if (auto* buffer = dynamic_cast<PrintableBuffer*>(stream.rdbuf())) {
    buffer->write_through(sequence);
  } else {
    stream << sequence;
  }
}

TerminalText::TerminalText(std::ostream& stream, bool is_terminal, bool ascii_only)
    : stream_(stream), original_(stream.rdbuf()), buffer_(original_, ascii_only) {
  if (is_terminal) stream_.rdbuf(&buffer_);
}

TerminalText::~TerminalText() {
  if (stream_.rdbuf() == &buffer_) {
    stream_.flush();
    stream_.rdbuf(original_);
  }
}

namespace {

class PrintableSink : public spdlog::sinks::base_sink<spdlog::details::null_mutex> {
 public:
  explicit PrintableSink(spdlog::sink_ptr target) : target_(std::move(target)) {}

 protected:
  void sink_it_(const spdlog::details::log_msg& msg) override {
    const auto text = printable(std::string_view(msg.payload.data(), msg.payload.size()));
    auto copy = msg;
    copy.payload = spdlog::string_view_t(text.data(), text.size());
    target_->log(copy);
  }
  void flush_() override { target_->flush(); }
  // The target formats the lines: a logger's pattern is its.
  void set_pattern_(const std::string& pattern) override { target_->set_pattern(pattern); }
  void set_formatter_(std::unique_ptr<spdlog::formatter> formatter) override {
    target_->set_formatter(std::move(formatter));
  }

 private:
  spdlog::sink_ptr target_;
};

}  // namespace

spdlog::sink_ptr printable_sink(spdlog::sink_ptr target) {
  return std::make_shared<PrintableSink>(std::move(target));
}

void log_to_stderr() {
  // Only spdlog's own default (unnamed) is replaced: a logger the embedding program or a test
  // set stays.
  if (!spdlog::default_logger()->name().empty()) return;
  auto sink = printable_sink(std::make_shared<spdlog::sinks::ostream_sink_st>(std::cerr));
  auto logger = std::make_shared<spdlog::logger>("ainb", std::move(sink));
  // A tool's lines, as a compiler's: "warning: ...", "error: ...", no time or logger name.
  logger->set_pattern("%l: %v");
  spdlog::set_default_logger(std::move(logger));
}

// It writes to stderr itself, as its carriage returns are control characters that std::cerr
// would escape on a terminal; the label, a path, is made printable.
namespace {
Progress& progress_reporter() {
  static Progress reporter;
  return reporter;
}
}  // namespace

void set_progress_reporter(Progress reporter) {
  progress_reporter() = std::move(reporter);
}

Progress progress_bar(std::ostream& err) {
  if (progress_reporter()) return progress_reporter();
  if (&err != &std::cerr || isatty(STDERR_FILENO) == 0) return {};
  return [&err](std::size_t done, std::size_t total, const std::string& label) {
    constexpr std::size_t kWidth = 30;
    const auto filled = total == 0 ? kWidth : done * kWidth / total;
    err.flush();
    fmt::print(stderr, "\r[{:#<{}}{:.<{}}] {}/{} {:<50.50}", "", filled, "", kWidth - filled, done,
               total, printable(label));
    if (done == total) fmt::print(stderr, "\n");
    std::fflush(stderr);
  };
}

}  // namespace ainb::cli
