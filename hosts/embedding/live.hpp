#pragma once

// ainb-game --serve: one actor's trace streamed to the page over a WebSocket (Boost.Beast), and
// the page's pause and step applied to that actor between frames (docs/debugger.md, "Live from
// an engine"). The game loop never waits for the network: it hands the server one message per
// frame and reads the page's messages once per frame, each under one lock.

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ainb::runtime {
class Graph;
}

namespace ainb::game {

// What one message from the page asks: {"pause": true|false} or {"step": N} (N frames, 1 to
// 3600, ticked then paused again). Anything else is an error that says what was expected.
struct Control {
  std::optional<bool> pause;
  std::uint32_t step = 0;
  std::string error;  // not empty: the message was not understood, nothing else is set
};
Control parse_control(std::string_view message);

// The watched actor's state as the page drives it, applied between frames on the game's thread.
class Remote {
 public:
  // Applies one message from the page; returns the reply to send back: {"paused": B, "frame": F}
  // or {"error": "..."}.
  std::string apply(std::string_view message, std::uint64_t frame);
  // Whether the actor ticks in the coming frame (a step asked for is used up by it).
  bool ticks();
  bool paused() const { return paused_; }

 private:
  bool paused_ = false;
  std::uint32_t steps_ = 0;
};

// A file the page opens: its name as the trace's events name it, and its bytes.
struct LiveFile {
  std::string name;
  std::string bytes;
};
// The module files `graph` loaded (modules' modules too), once each, in the order first called:
// named as the trace names them (Graph::file_name), with the bytes they were loaded from. The
// page needs them to draw a module-calling file's report page.
std::vector<LiveFile> module_files(const runtime::Graph& graph);

// The server's messages to the page, JSON objects:
//   {"hello": {"actor": N, "file": NAME, "bytes": BASE64,
//              "modules": [{"file": NAME, "bytes": BASE64}, ...]}}  on connecting
//   {"frame": F, "trace": JSON-LINES}  each frame the actor ticked (its events, maybe none)
//   {"paused": B, "frame": F}, {"error": TEXT}  replies to the page's messages
std::string hello_message(std::size_t actor, const LiveFile& file,
                          std::span<const LiveFile> modules);
std::string frame_message(std::uint64_t frame, std::string_view trace);
std::string base64(std::string_view bytes);

// A WebSocket server on 127.0.0.1 (no authentication: only this machine may connect), one page at
// a time, on a thread of its own.
class LiveServer {
 public:
  // Binds 127.0.0.1:port (0: a free port, see port()) and starts serving; `hello` is what each
  // page is sent first. Throws std::runtime_error when the port cannot be bound.
  LiveServer(std::uint16_t port, std::string hello);
  ~LiveServer();
  LiveServer(const LiveServer&) = delete;
  LiveServer& operator=(const LiveServer&) = delete;

  std::uint16_t port() const;
  // What pages that connect from now on are sent first (after a hot reload: the files the actor
  // runs now). A page already connected keeps what it was sent.
  void set_hello(std::string hello);
  // Whether a page is connected now (frames sent without one are dropped).
  bool connected() const;
  // Queues a message to the page, sent on the server's thread; dropped when no page is connected.
  void send(std::string message);
  // The page's messages since the last call, in order. A page that disconnects leaves
  // {"pause": false} behind: its actor does not stay paused for nobody.
  std::vector<std::string> received();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace ainb::game
