// The trace formats of `ainb run`: JSON lines (one object per event), an indented readable text,
// and the Chrome trace event format (open it in a trace viewer: Enter to Leave become spans).

#include <algorithm>
#include <ostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "ainb/simulation/simulation.hpp"

namespace ainb::simulation {

nlohmann::ordered_json trace_event_json(const TraceEvent& e) {
  nlohmann::ordered_json j;
  j["frame"] = e.frame;
  j["event"] = e.event;
  j["file"] = e.file;
  if (e.node >= 0) j["node"] = e.node;
  if (!e.type.empty()) j["type"] = e.type;
  if (!e.name.empty()) j["name"] = e.name;
  if (!e.result.empty()) j["result"] = e.result;
  if (e.to >= 0) j["to"] = e.to;
  if (!e.detail.empty()) j["detail"] = e.detail;
  return j;
}

namespace {

class JsonLines : public TraceSink {
 public:
  explicit JsonLines(std::ostream& out) : out_(out) {}
  // A string that is not UTF-8 (a damaged name) is written with U+FFFD for its bad bytes.
  void event(const TraceEvent& e) override {
    out_ << trace_event_json(e).dump(-1, ' ', false,
                                     nlohmann::ordered_json::error_handler_t::replace)
         << '\n';
  }

 private:
  std::ostream& out_;
};

class Text : public TraceSink {
 public:
  explicit Text(std::ostream& out) : out_(out) {}
  void event(const TraceEvent& e) override {
    std::string line = fmt::format("{:>5}  {:{}}{:<10} ", e.frame, "", 2 * e.depth, e.event);
    if (e.node >= 0) line += fmt::format("#{} {}", e.node, e.type);
    if (e.event == "update") line += " -> " + e.result;
    if (e.to >= 0) line += fmt::format(" -> #{}", e.to);
    if (!e.detail.empty()) line += (e.node >= 0 ? ": " : "") + e.detail;
    if (e.file != file_) {  // name the file when it changes (a module call, and back)
      line += fmt::format("   [{}]", e.file);
      file_ = e.file;
    }
    out_ << line << '\n';
  }

 private:
  std::ostream& out_;
  std::string file_;
};

// Chrome's trace event format: a frame is 1000 µs; events within a frame are spread 1 µs apart
// so their order survives. A node's Enter to its Leave is a complete span ("X") whose args say
// its updates and their results ("Running ×2, Success"); commands, transitions, alerts, XLink
// actions and blackboard writes are instant events on the first row.
//
// Spans on one row (`tid`) must nest, and nodes do not leave in the reverse order of their
// entering: a Simultaneous's children are open at once and finish in any order. So a span is
// written when its node leaves (or at the end), on the first row where it overlaps nothing
// partly: every span written before it ended before it, so it either contains a row's earlier
// span or follows it. A parent, written after its children, lands on the row of its first
// child and contains it. Only the open spans are held, each with its results run-length coded,
// so a long run's trace streams as the JSON-lines one does.
class Chrome : public TraceSink {
 public:
  explicit Chrome(std::ostream& out) : out_(out) { out_ << "{\"traceEvents\":[\n"; }
  void event(const TraceEvent& e) override {
    if (e.frame != frame_) {
      frame_ = e.frame;
      tick_ = 0;
    }
    const auto ts = e.frame * 1000 + tick_++;
    last_ts_ = ts;
    if (e.event == "truncated") truncated_ = true;  // the spans open now end here
    if (e.event == "enter") {
      open_.push_back(Span{e.instance, e.node, ts, trace_event_json(e), {}, 0});
      return;
    }
    if (auto* span = (e.event == "update" || e.event == "leave") ? open_span(e) : nullptr) {
      if (e.event == "leave") return close(static_cast<std::size_t>(span - open_.data()), ts);
      span->add_result(e.result);
      return;
    }
    nlohmann::ordered_json j;
    j["name"] = e.node >= 0 ? fmt::format("#{} {}", e.node, e.type) : e.event + " " + e.detail;
    j["cat"] = e.event;
    j["ph"] = "i";
    j["s"] = "t";
    j["ts"] = ts;
    j["pid"] = 1;
    j["tid"] = 1;
    j["args"] = trace_event_json(e);
    write(j);
  }
  void finish() override {
    while (!open_.empty())
      close(open_.size() - 1, last_ts_ + 1);
    out_ << "\n]}\n";
  }

 private:
  struct Span {
    std::uint32_t instance;
    std::int64_t node;
    std::uint64_t begin;
    nlohmann::ordered_json enter;                                // the enter event's fields
    std::vector<std::pair<std::string, std::uint64_t>> results;  // run-length coded
    std::uint64_t updates;

    // At most kMaxRuns runs are kept (a node whose result changes every frame would otherwise
    // grow with the run); the span's args say when results were left out.
    static constexpr std::size_t kMaxRuns = 32;
    void add_result(const std::string& result) {
      ++updates;
      if (!results.empty() && results.back().first == result) {
        ++results.back().second;
      } else if (results.size() < kMaxRuns) {
        results.emplace_back(result, 1);
      }
    }
    std::string describe_results() const {
      std::string text;
      std::uint64_t told = 0;
      for (const auto& [result, count] : results) {
        text += fmt::format("{}{}{}", text.empty() ? "" : ", ", result,
                            count > 1 ? fmt::format(" \u00d7{}", count) : "");
        told += count;
      }
      if (told < updates) text += fmt::format(", \u2026 ({} more)", updates - told);
      return text;
    }
  };
  struct Written {
    std::uint64_t begin, end;
  };

  Span* open_span(const TraceEvent& e) {
    for (auto k = open_.size(); k-- > 0;) {
      auto& span = open_[k];
      if (span.node == e.node && span.instance == e.instance) return &span;
    }
    return nullptr;
  }
  void close(std::size_t k, std::uint64_t end) {
    auto span = std::move(open_[k]);
    open_.erase(open_.begin() + static_cast<std::ptrdiff_t>(k));
    // Each row keeps its outermost spans, in time order; one that begins before this span and
    // ends inside it is the only kind that does not nest.
    std::size_t row = 0;
    for (; row < rows_.size(); ++row) {
      const auto& outer = rows_[row];
      const auto before = std::find_if(outer.rbegin(), outer.rend(),
                                       [&](const Written& w) { return w.begin < span.begin; });
      if (before == outer.rend() || before->end < span.begin) break;
    }
    if (row == rows_.size()) rows_.emplace_back();
    auto& outer = rows_[row];
    while (!outer.empty() && outer.back().begin >= span.begin)
      outer.pop_back();  // now inside it
    outer.push_back(Written{span.begin, end});

    nlohmann::ordered_json j;
    j["name"] = fmt::format("#{} {}", span.node, span.enter.value("type", ""));
    j["cat"] = "node";
    j["ph"] = "X";
    j["ts"] = span.begin;
    j["dur"] = end - span.begin;
    j["pid"] = 1;
    j["tid"] = row + 1;
    auto args = std::move(span.enter);
    args.erase("event");
    args["updates"] = span.updates;
    args["results"] = span.describe_results();
    if (truncated_) {
      args["truncated"] =
          "the trace was truncated while this node ran: its span and its updates "
          "end there, not at its Leave";
    }
    j["args"] = std::move(args);
    write(j);
  }
  void write(const nlohmann::ordered_json& j) {
    out_ << (first_ ? "" : ",\n")
         << j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
    first_ = false;
  }

  std::ostream& out_;
  std::uint64_t frame_ = 0, tick_ = 0, last_ts_ = 0;
  bool truncated_ = false;
  std::vector<Span> open_;                  // in the order they were entered
  std::vector<std::vector<Written>> rows_;  // each row's outermost spans written so far
  bool first_ = true;
};

// The trace size limit: passes `max` events on, then one "truncated" event, then drops the rest.
class Limited : public TraceSink {
 public:
  Limited(std::unique_ptr<TraceSink> inner, std::uint64_t max)
      : inner_(std::move(inner)), max_(max) {}
  void event(const TraceEvent& e) override {
    if (written_ < max_) {
      ++written_;
      return inner_->event(e);
    }
    if (dropped_++ == 0) {
      TraceEvent marker;
      marker.frame = e.frame;
      marker.event = "truncated";
      marker.file = e.file;
      marker.detail = fmt::format(
          "trace truncated after {} events (the limit; ainb run --max-trace-events)", max_);
      inner_->event(marker);
    }
  }
  void finish() override { inner_->finish(); }
  std::uint64_t dropped() const override { return dropped_; }

 private:
  std::unique_ptr<TraceSink> inner_;
  std::uint64_t max_;
  std::uint64_t written_ = 0, dropped_ = 0;
};

std::unique_ptr<TraceSink> writer(TraceFormat format, std::ostream& out) {
  switch (format) {
    case TraceFormat::Jsonl:
      return std::make_unique<JsonLines>(out);
    case TraceFormat::Text:
      return std::make_unique<Text>(out);
    case TraceFormat::Chrome:
      return std::make_unique<Chrome>(out);
  }
  return nullptr;
}

}  // namespace

TraceEvent parse_trace_event(const nlohmann::json& j) {
  TraceEvent e;
  e.frame = j.at("frame").get<std::uint64_t>();
  e.event = j.at("event").get<std::string>();
  e.file = j.at("file").get<std::string>();
  e.node = j.value("node", std::int64_t{-1});
  e.type = j.value("type", std::string());
  e.name = j.value("name", std::string());
  e.result = j.value("result", std::string());
  e.to = j.value("to", std::int64_t{-1});
  e.detail = j.value("detail", std::string());
  return e;
}

std::unique_ptr<TraceSink> make_trace_writer(TraceFormat format, std::ostream& out,
                                             std::uint64_t max_events) {
  return std::make_unique<Limited>(writer(format, out), max_events);
}

void TraceCollector::event(const TraceEvent& e) {
  if (events.size() >= limit_) {
    throw std::length_error(fmt::format(
        "the trace passed {} events, the most a comparison holds in memory (--max-trace-events "
        "raises it; fewer frames need fewer)",
        limit_));
  }
  events.push_back(e);
}

}  // namespace ainb::simulation
