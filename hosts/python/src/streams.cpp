// `ainb.trace`: a run's events as an iterator, for runs too long to keep (docs/python.md,
// "Long runs"). The run goes on a thread of its own and waits while a bounded queue is full, so
// memory stays flat whatever the run's length; closing the iterator early stops the run at its
// next event.

#include <cxxabi.h>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>

#include "bindings.hpp"

namespace ainb::python {

namespace {

// Thrown into the run by the sink once the iterator is closed: the run stops there (as an
// observer's fault, which nobody reads).
struct Closed {};

class Stream final : public simulation::TraceSink {
 public:
  static constexpr std::size_t kQueued = 4096;  // events held at most

  Stream(std::string path, std::string scenario_kind, std::string scenario_value,
         const py::dict& options)
      : options_(run_options(options)), log_(collect_warnings(warnings_)) {
    options_.log = &log_;
    worker_ = std::thread([this, path = std::move(path), kind = std::move(scenario_kind),
                           value = std::move(scenario_value)] {
      try {
        const auto scenario = scenario_from(kind, value);
        summary_ = simulation::simulate(path, scenario, options_, this);
      } catch (abi::__forced_unwind&) {  // the thread is being cancelled: let it unwind
        throw;
      } catch (...) {
        error_ = std::current_exception();
      }
      const std::lock_guard lock(mutex_);
      done_ = true;
      changed_.notify_all();
    });
  }
  ~Stream() override { close(); }

  // The run's side: waits while the queue is full.
  void event(const simulation::TraceEvent& e) override {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return queue_.size() < kQueued || closed_; });
    if (closed_) throw Closed{};
    queue_.push_back(e);
    changed_.notify_all();
  }

  // Python's side: the next event, StopIteration at the end, or the run's error. Events move
  // from the run's queue to Python's all at once, so most calls take no lock.
  py::dict next() {
    if (ready_.empty()) {
      bool ended = false;
      {
        py::gil_scoped_release released;  // the run's Python node classes need it meanwhile
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] { return !queue_.empty() || done_; });
        ended = queue_.empty();
        ready_.swap(queue_);
        changed_.notify_all();
      }
      if (ended) {
        read_to_end_ = true;
        join();
        if (error_) std::rethrow_exception(error_);
        throw py::stop_iteration();
      }
    }
    const auto e = std::move(ready_.front());
    ready_.pop_front();
    return event_dict(e);
  }

  // Stops the run (if it goes on) and waits for its thread.
  void close() {
    {
      const std::lock_guard lock(mutex_);
      cut_ = !done_;
      closed_ = true;
      changed_.notify_all();
    }
    {
      py::gil_scoped_release released;
      join();
    }
    queue_.clear();  // the run is over: next() says StopIteration
    ready_.clear();
  }

  // The summary, once Python has read the last event (None before, although the run may have
  // ended with its events still queued; and for a run that failed to start or was closed before
  // its end).
  py::object result() {
    if (!read_to_end_) return py::none();
    {
      const std::lock_guard lock(mutex_);
      if (!done_ || cut_ || error_) return py::none();
    }
    join();
    return summary_dict(summary_, warnings_);
  }

 private:
  void join() {
    if (worker_.joinable()) worker_.join();
  }

  simulation::RunOptions options_;
  std::vector<std::string> warnings_;
  runtime::LogSink log_;
  simulation::Summary summary_;
  bool read_to_end_ = false;  // Python's side saw the end (next() raised StopIteration)
  std::exception_ptr error_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<simulation::TraceEvent> queue_;
  bool done_ = false;
  bool closed_ = false;                       // by Python: the run stops at its next event
  bool cut_ = false;                          // closed before the run's end
  std::deque<simulation::TraceEvent> ready_;  // taken from the queue, read with the GIL
  std::thread worker_;                        // last: it starts once everything it uses is made
};

}  // namespace

void bind_streams(py::module_& m) {
  py::class_<Stream>(m, "Stream")
      .def(py::init<std::string, std::string, std::string, const py::dict&>(), py::arg("path"),
           py::arg("scenario_kind"), py::arg("scenario_value"), py::arg("options"))
      .def("__iter__", [](py::object self) { return self; })
      .def("__next__", &Stream::next)
      .def("close", &Stream::close)
      .def("result", &Stream::result);
}

}  // namespace ainb::python
