#include "live.hpp"

#include <algorithm>
#include <atomic>
#include <deque>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <thread>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <nlohmann/json.hpp>

#include "ainb/runtime/graph.hpp"

namespace ainb::game {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = net::ip::tcp;

namespace {

// A page's text may hold bytes that are not UTF-8: they are written as U+FFFD, never thrown on.
std::string dump(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

constexpr std::uint32_t kMaxStep = 3600;  // a minute of frames at 60 fps

}  // namespace

Control parse_control(std::string_view message) {
  Control control;
  const auto fail = [&](std::string_view why) {
    const std::string_view shown = message.substr(0, 80);
    control.error = "message " + dump(std::string(shown)) +
                    (shown.size() < message.size() ? "…" : "") + ": " + std::string(why) +
                    R"( (expected {"pause": true}, {"pause": false} or {"step": N}, N from 1 to )" +
                    std::to_string(kMaxStep) + ")";
    return control;
  };
  const auto j = nlohmann::json::parse(message, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return fail("not JSON");
  if (!j.is_object() || j.size() != 1) return fail("not an object with one key");
  if (const auto pause = j.find("pause"); pause != j.end()) {
    if (!pause->is_boolean()) return fail("\"pause\" is not true or false");
    control.pause = pause->get<bool>();
    return control;
  }
  if (const auto step = j.find("step"); step != j.end()) {
    if (!step->is_number_integer() || step->get<std::int64_t>() < 1 ||
        step->get<std::int64_t>() > kMaxStep)
      return fail("\"step\" is not a whole number in range");
    control.step = step->get<std::uint32_t>();
    return control;
  }
  return fail("unknown key");
}

std::string Remote::apply(std::string_view message, std::uint64_t frame) {
  const Control control = parse_control(message);
  if (!control.error.empty()) return dump({{"error", control.error}});
  if (control.pause) {
    paused_ = *control.pause;
    steps_ = 0;
  }
  if (control.step > 0) {  // N frames, then paused again
    paused_ = true;
    steps_ += control.step;
  }
  return dump({{"paused", paused_}, {"frame", frame}});
}

bool Remote::ticks() {
  if (!paused_) return true;
  if (steps_ == 0) return false;
  --steps_;
  return true;
}

std::string base64(std::string_view bytes) {
  static constexpr char kDigits[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const auto byte = [&](std::size_t k) {
      return k < bytes.size() ? static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[k]))
                              : 0u;
    };
    const std::uint32_t group = byte(i) << 16 | byte(i + 1) << 8 | byte(i + 2);
    out += kDigits[group >> 18 & 63];
    out += kDigits[group >> 12 & 63];
    out += i + 1 < bytes.size() ? kDigits[group >> 6 & 63] : '=';
    out += i + 2 < bytes.size() ? kDigits[group & 63] : '=';
  }
  return out;
}

std::vector<LiveFile> module_files(const runtime::Graph& graph) {
  std::vector<LiveFile> files;
  // Depth first, as simulation::actor_graphs walks them (the example depends on the runtime only);
  // once each by name, as the page holds them.
  const auto walk = [&](const auto& self, const runtime::Graph& caller) -> void {
    for (const auto* module : caller.module_graphs()) {
      if (!module || module->file_name() == graph.file_name() ||
          std::any_of(files.begin(), files.end(),
                      [&](const LiveFile& f) { return f.name == module->file_name(); }))
        continue;
      const auto& bytes = module->model().bytes;
      files.push_back({module->file_name(), std::string(bytes.begin(), bytes.end())});
      self(self, *module);
    }
  };
  walk(walk, graph);
  return files;
}

std::string hello_message(std::size_t actor, const LiveFile& file,
                          std::span<const LiveFile> modules) {
  auto listed = nlohmann::json::array();
  for (const auto& module : modules)
    listed.push_back({{"file", module.name}, {"bytes", base64(module.bytes)}});
  return dump({{"hello",
                {{"actor", actor},
                 {"file", file.name},
                 {"bytes", base64(file.bytes)},
                 {"modules", std::move(listed)}}}});
}

std::string frame_message(std::uint64_t frame, std::string_view trace) {
  return dump({{"frame", frame}, {"trace", trace}});
}

// --- The server: everything below runs on its thread, but send() and received(), which hand
// messages over under `mutex`.

namespace live {

// A page connected: its socket, what is queued for it, one write and one read in flight. The
// handlers hold it alive until they have run, after it ended.
class Session : public std::enable_shared_from_this<Session> {
 public:
  using Ended = std::function<void(Session*)>;
  Session(tcp::socket socket, Ended ended) : ws_(std::move(socket)), ended_(std::move(ended)) {
    ws_.read_message_max(4096);  // the page's messages are a few bytes
  }
  // The handshake, then `hello`, then the page's messages.
  void start(std::string hello, std::function<void()> open) {
    ws_.async_accept([self = shared_from_this(), hello = std::move(hello),
                      open = std::move(open)](beast::error_code error) mutable {
      if (error) return self->end();
      self->queue(std::move(hello));
      open();
      self->read();
    });
  }
  void queue(std::string message) {
    if (ended_flag_) return;
    // A page that cannot keep up (a stopped tab) is let go rather than queued for without end.
    if (outbox_.size() >= kMaxQueued) return end();
    outbox_.push_back(std::move(message));
    if (!writing_) write();
  }
  void end() {
    if (ended_flag_) return;
    ended_flag_ = true;
    beast::error_code ignored;
    ws_.next_layer().shutdown(tcp::socket::shutdown_both, ignored);
    ws_.next_layer().close(ignored);
    ended_(this);
  }
  std::function<void(std::string)> on_message;

 private:
  static constexpr std::size_t kMaxQueued = 600;  // 10 s of frames
  void write() {
    writing_ = true;
    ws_.text(true);
    ws_.async_write(net::buffer(outbox_.front()),
                    [self = shared_from_this()](beast::error_code error, std::size_t) {
                      self->writing_ = false;
                      if (error) return self->end();
                      self->outbox_.pop_front();
                      if (!self->outbox_.empty() && !self->ended_flag_) self->write();
                    });
  }
  void read() {
    ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code error, std::size_t) {
      if (error) return self->end();  // closed, or a message over read_message_max
      self->on_message(beast::buffers_to_string(self->buffer_.data()));
      self->buffer_.consume(self->buffer_.size());
      self->read();
    });
  }

  websocket::stream<tcp::socket> ws_;
  Ended ended_;
  beast::flat_buffer buffer_;
  std::deque<std::string> outbox_;
  bool writing_ = false, ended_flag_ = false;
};

}  // namespace live

using live::Session;

struct LiveServer::State {
  net::io_context io;  // first: destroyed last, after the sockets and handlers that use it
  tcp::acceptor acceptor{io};
  std::string hello;
  std::uint16_t port = 0;         // read once bound: the game's thread asks for it
  std::shared_ptr<Session> page;  // the server thread's
  std::atomic<bool> open = false;
  std::mutex mutex;  // guards the two below
  std::vector<std::string> outgoing, incoming;
  std::thread thread;

  void accept() {
    acceptor.async_accept([this](beast::error_code error, tcp::socket socket) {
      if (error) return;  // the acceptor closed: the server is stopping
      // One page at a time: a new one (the page opened again) replaces the one before.
      if (page) page->end();
      auto session = std::make_shared<Session>(std::move(socket), [this](Session* s) { ended(s); });
      session->on_message = [this](std::string message) {
        const std::lock_guard lock(mutex);
        incoming.push_back(std::move(message));
      };
      page = session;
      session->start(hello, [this] { open = true; });
      accept();
    });
  }
  void ended(Session* session) {
    if (page.get() != session) return;
    page.reset();
    open = false;
    const std::lock_guard lock(mutex);
    incoming.emplace_back(R"({"pause": false})");  // nobody is left to resume it
  }
  void flush() {
    std::vector<std::string> messages;
    {
      const std::lock_guard lock(mutex);
      messages.swap(outgoing);
    }
    if (!page || !open) return;
    for (auto& message : messages)
      page->queue(std::move(message));
  }
};

LiveServer::LiveServer(std::uint16_t port, std::string hello) : state_(std::make_unique<State>()) {
  state_->hello = std::move(hello);
  // Loopback only: the stream and its controls have no authentication.
  const tcp::endpoint endpoint(net::ip::make_address_v4("127.0.0.1"), port);
  try {
    state_->acceptor.open(endpoint.protocol());
    state_->acceptor.set_option(net::socket_base::reuse_address(true));
    state_->acceptor.bind(endpoint);
    state_->acceptor.listen();
    state_->port = state_->acceptor.local_endpoint().port();
  } catch (const boost::system::system_error& e) {
    throw std::runtime_error("cannot serve on 127.0.0.1:" + std::to_string(port) + ": " +
                             e.code().message());
  }
  state_->accept();
  state_->thread = std::thread([state = state_.get()] { state->io.run(); });
}

LiveServer::~LiveServer() {
  net::post(state_->io, [state = state_.get()] {
    beast::error_code ignored;
    state->acceptor.close(ignored);
    if (state->page) state->page->end();
  });
  state_->thread.join();  // run() returns once the closed sockets' handlers have run
}

std::uint16_t LiveServer::port() const {
  return state_->port;
}

void LiveServer::set_hello(std::string hello) {
  // `hello` is read on the server's thread, when a page connects: changed there too.
  net::post(state_->io, [state = state_.get(), hello = std::move(hello)]() mutable {
    state->hello = std::move(hello);
  });
}

bool LiveServer::connected() const {
  return state_->open;
}

void LiveServer::send(std::string message) {
  if (!state_->open) return;
  {
    const std::lock_guard lock(state_->mutex);
    state_->outgoing.push_back(std::move(message));
  }
  net::post(state_->io, [state = state_.get()] { state->flush(); });
}

std::vector<std::string> LiveServer::received() {
  std::vector<std::string> messages;
  const std::lock_guard lock(state_->mutex);
  messages.swap(state_->incoming);
  return messages;
}

}  // namespace ainb::game
