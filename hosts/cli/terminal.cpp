#include "terminal.hpp"

#include <fmt/format.h>
#include <spdlog/details/log_msg.h>
#include <spdlog/sinks/base_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

namespace ainb::cli {

namespace {

bool is_control(unsigned char byte) {
  return byte < 0x20 || byte == 0x7F;
}
bool is_c1_second_byte(unsigned char byte) {
  return byte >= 0x80 && byte <= 0x9F;
}

void append_escape(std::string& out, unsigned char byte) {
  out += fmt::format("\\x{:02x}", byte);
}

}  // namespace

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (is_control(byte)) {
      append_escape(out, byte);
    } else if (byte == 0xC2 && i + 1 < text.size() &&
               is_c1_second_byte(static_cast<unsigned char>(text[i + 1]))) {
      append_escape(out, byte);
      append_escape(out, static_cast<unsigned char>(text[++i]));
    } else {
      out += static_cast<char>(byte);
    }
  }
  return out;
}

PrintableBuffer::~PrintableBuffer() {
  flush_held();
}

bool PrintableBuffer::flush_held() {
  if (!holding_c2_) return true;
  holding_c2_ = false;
  return target_->sputc(static_cast<char>(0xC2)) != traits_type::eof();
}

bool PrintableBuffer::put(unsigned char byte) {
  const auto write = [&](std::string_view bytes) {
    return target_->sputn(bytes.data(), static_cast<std::streamsize>(bytes.size())) ==
           static_cast<std::streamsize>(bytes.size());
  };
  if (holding_c2_) {
    holding_c2_ = false;
    if (is_c1_second_byte(byte)) return write(fmt::format("\\xc2\\x{:02x}", byte));
    if (target_->sputc(static_cast<char>(0xC2)) == traits_type::eof()) return false;
  }
  if (byte == 0xC2) {
    holding_c2_ = true;
    return true;
  }
  if (is_control(byte) && byte != '\n' && byte != '\t') {
    return write(fmt::format("\\x{:02x}", byte));
  }
  return target_->sputc(static_cast<char>(byte)) != traits_type::eof();
}

PrintableBuffer::int_type PrintableBuffer::overflow(int_type c) {
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  return put(static_cast<unsigned char>(traits_type::to_char_type(c))) ? c : traits_type::eof();
}

std::streamsize PrintableBuffer::xsputn(const char* s, std::streamsize n) {
  for (std::streamsize i = 0; i < n; ++i) {
    if (!put(static_cast<unsigned char>(s[i]))) return i;
  }
  return n;
}

// A held 0xC2 stays held: the byte after it, not yet written, decides what it is.
int PrintableBuffer::sync() {
  return target_->pubsync();
}

TerminalText::TerminalText(std::ostream& stream, bool is_terminal)
    : stream_(stream), original_(stream.rdbuf()), buffer_(original_) {
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

 private:
  spdlog::sink_ptr target_;
};

}  // namespace

spdlog::sink_ptr printable_sink(spdlog::sink_ptr target) {
  return std::make_shared<PrintableSink>(std::move(target));
}

void log_to_stderr() {
  if (spdlog::get("ainb")) return;
  auto sink = printable_sink(std::make_shared<spdlog::sinks::stderr_color_sink_st>());
  spdlog::set_default_logger(std::make_shared<spdlog::logger>("ainb", std::move(sink)));
}

}  // namespace ainb::cli
